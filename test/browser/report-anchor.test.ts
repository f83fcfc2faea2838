/**
 * `report --anchor REV` in real headless Chromium: a squash of a run with a person's edits on top
 * shows per file its coverage, method, iterations with their gates, and the lines no run wrote;
 * the page loads nothing, runs no script, and a hostile file name stays text. Markdown and JSON
 * say the same.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAnchorReport } from '../../src/report/anchor-model.js';
import { renderAnchorHtml, renderAnchorMarkdown } from '../../src/report/anchor-render.js';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { launchBrowser, openFile } from '../helpers/browser.js';
import { recordVerdict } from '../helpers/gates.js';
import { commitAll, git, lines, recordRun, writeFiles } from '../helpers/provenance.js';

const HOSTILE = '<img src=x onerror="window.__xss=1">.txt';
let browser: Browser;
const out = mkdtempSync(join(tmpdir(), 'agentgate-report-anchor-'));

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(out, { recursive: true, force: true });
});

describe('report --anchor', () => {
  it('per file: coverage, method, iterations and gates, the lines no run wrote; inert and offline', async () => {
    // Lines that say enough to be matched by content (20 letters and digits a block, as git blame asks).
    const agent = (n: number) => lines('the agent wrote line', n);
    const s = await recordRun([{ 'a.txt': agent(3) }, { 'a.txt': agent(5), [HOSTILE]: 'x\n' }]);
    try {
      const m = {
        dir: s.dir,
        home: s.snap.options.home,
        artifacts: s.snap.options.artifactsDir,
        snap: s.snap,
      };
      await recordVerdict(m, 'run-a', 1, 'test', { verdict: 'fail' });
      await recordVerdict(m, 'run-a', 2, 'test', { verdict: 'pass' });
      git(s.dir, ['merge', '--squash', '-q', 'agent-run-a']);
      // A person edits the squash before committing it: two lines of a.txt and a new file.
      writeFiles(s.dir, { 'a.txt': `${agent(5)}person 1\nperson 2\n`, 'human.md': 'mine\n' });
      const commit = commitAll(s.dir, 'squash with edits');
      await s.src.anchors.save(await computeAnchor(s.src, s.repo, commit));
      const report = await buildAnchorReport(s.src, s.repo, 'HEAD');
      expect(report).toMatchObject({ commit, recorded: 'same', unlisted: 0 });
      const a = report.files.find((f) => f.path === 'a.txt');
      expect(a).toMatchObject({ linesAdded: 7, linesFromRuns: 5, notFromRuns: [{ start: 6, end: 7 }] });
      expect(a?.origins).toEqual([
        { runId: 'run-a', iteration: 1, lines: 3, gates: [{ name: 'test', verdict: 'fail' }] },
        { runId: 'run-a', iteration: 2, lines: 2, gates: [{ name: 'test', verdict: 'pass' }] },
      ]);
      expect(report.files.find((f) => f.path === 'human.md')).toMatchObject({
        method: 'none',
        notFromRuns: [{ start: 1, end: 1 }],
      });

      const file = join(out, 'anchor.html');
      writeFileSync(file, renderAnchorHtml(report));
      const { page, blocked, consoleErrors } = await openFile(browser, pathToFileURL(file).href);
      expect(await page.textContent('#commit')).toBe(commit);
      expect(await page.textContent('#coverage')).toContain('2 of 3 files and 6 of 9 added lines');
      expect(await page.textContent('#recorded')).toContain('recomputes the same');
      const rows = await page.$$eval('#files tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())),
      );
      const row = (path: string) => rows.find((r) => r[0] === path);
      expect(row('a.txt')).toEqual([
        'a.txt',
        'added',
        'lines',
        '5/7',
        expect.stringMatching(/run-a #1 \(3 lines\) test: fail\s*run-a #2 \(2 lines\) test: pass/),
        '6-7',
      ]);
      expect(row('human.md')?.slice(2)).toEqual(['none', '0/1', '-', '1']);
      expect(row(HOSTILE)?.[3]).toBe('1/1');
      expect(await page.evaluate('typeof window.__xss')).toBe('undefined');
      expect(await page.$$('img, script')).toEqual([]);
      expect(blocked).toEqual([]);
      expect(consoleErrors).toEqual([]);

      const md = renderAnchorMarkdown(report);
      expect(md).toContain('| a.txt | ');
      expect(md).toContain('run-a \\#1 \\(3\\) test\\: fail');
      expect(md).not.toContain('<img');
      const limit = Buffer.byteLength(md) - 1;
      const cut = renderAnchorMarkdown(report, limit);
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(limit);
      expect(cut).toContain('Cut to fit');
    } finally {
      s.cleanup();
    }
  });
});
