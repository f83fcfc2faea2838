/**
 * The gates section of the HTML report in real headless Chromium: verdicts per iteration, where
 * each gate went red and green again, failed tests listed, hostile test names and messages inert.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/index.js';
import { launchBrowser, openFile } from '../helpers/browser.js';
import { recordVerdict } from '../helpers/gates.js';
import { recordRun } from '../helpers/report-run.js';
import { git, writeFiles } from '../helpers/repo.js';

const HOSTILE_TEST = '<img src=x onerror="window.__xss=5">::error::%0A';
const HOSTILE_MESSAGE = '</pre><script>window.__xss=6</script>\nline two';
let browser: Browser;
const out = mkdtempSync(join(tmpdir(), 'agentgate-report-gates-'));

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(out, { recursive: true, force: true });
});

/** The machine a recorded run lives on, as recordVerdict takes it. */
function machineOf(run: Awaited<ReturnType<typeof recordRun>>) {
  return { dir: run.dir, home: run.home, artifacts: join(run.home, 'artifacts'), snap: run.snapshotter };
}

/** Hour h of 2026-01-01, so verdicts sort as written. */
const at = (h: number) => new Date(Date.UTC(2026, 0, 1, h)).toISOString();

describe('report --format html: gates', () => {
  it('shows verdicts, red and green per gate and failed tests, with hostile text inert', async () => {
    const run = await recordRun({ runId: 'gates-run' });
    try {
      const m = machineOf(run);
      await recordVerdict(m, run.runId, 1, 'test', {
        verdict: 'fail',
        startedAt: at(1),
        tests: {
          total: 4,
          passed: 3,
          failed: 1,
          skipped: 0,
          errors: 0,
          failures: [{ suite: 'ui <b>suite</b>', name: HOSTILE_TEST, message: HOSTILE_MESSAGE }],
        },
      });
      await recordVerdict(m, run.runId, 2, 'test', { startedAt: at(2) });
      const { text } = await renderReport(run.snapshotter, 'html', run.runId);
      const file = join(out, 'report.html');
      writeFileSync(file, text);

      const { page, blocked, consoleErrors } = await openFile(browser, pathToFileURL(file).href);
      const summary = await page.$$eval('#gate-summary tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      );
      expect(summary).toEqual([['test', 'pass', '2', '1', '2']]);
      const verdicts = await page.$$eval('#gate-verdicts tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].slice(0, 7).map((td) => td.textContent)),
      );
      expect(verdicts).toEqual([
        ['1', 'test', '1', 'fail', '3', '1', '1.2 s'],
        ['2', 'test', '1', 'pass', '-', '-', '1.2 s'],
      ]);
      const failures = page.locator('#gate-verdicts details');
      await failures.locator('summary').click();
      const item = failures.locator('ul.failures li');
      expect(await item.isVisible()).toBe(true);
      expect(await item.textContent()).toContain(HOSTILE_TEST);
      expect(await item.locator('pre').textContent()).toBe(HOSTILE_MESSAGE);
      expect(await item.locator('b').textContent()).toBe('ui <b>suite</b>');

      expect(await page.evaluate('typeof window.__xss')).toBe('undefined');
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(3);
      expect(blocked).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await page.context().close();
    } finally {
      run.cleanup();
    }
  });

  it('the Iterations table marks the iterations a restart set aside, each row with its verdicts', async () => {
    const run = await recordRun({ runId: 'restarted-run' });
    try {
      const m = machineOf(run);
      await recordVerdict(m, run.runId, 1, 'test', { startedAt: at(1) });
      await recordVerdict(m, run.runId, 2, 'test', { verdict: 'fail', startedAt: at(2) });
      await recordVerdict(m, run.runId, 2, 'lint', { startedAt: at(3) });
      // Iteration 2 is rejected: back to iteration 1's after commit, and a new iteration 3 from there.
      git(run.dir, ['reset', '-q', '--hard', run.snapshots[0]!.afterSha]);
      await run.snapshotter.captureBeforeState(run.dir, { runId: run.runId, restartFrom: 1 });
      writeFiles(run.dir, { 'src/retry.ts': 'export const retry = 1;\n' });
      await run.snapshotter.captureAfterState(run.dir, null, { runId: run.runId, iteration: 3 });
      await recordVerdict(m, run.runId, 3, 'test', { startedAt: at(4) });

      const { text } = await renderReport(run.snapshotter, 'html', run.runId);
      const file = join(out, 'restarted.html');
      writeFileSync(file, text);
      const { page, blocked, consoleErrors } = await openFile(browser, pathToFileURL(file).href);
      const rows = await page.$$eval('#iterations tbody tr', (trs) =>
        trs.map((tr) => ({
          iteration: tr.getAttribute('data-iteration'),
          aside: tr.classList.contains('set-aside'),
          mark: tr.querySelector('.aside')?.getAttribute('title') ?? null,
          verdicts: [...tr.querySelectorAll('td.verdicts span[data-gate]')].map((s) => [
            s.textContent,
            s.className,
          ]),
        })),
      );
      expect(rows).toEqual([
        { iteration: '1', aside: false, mark: null, verdicts: [['test: pass', 'gate-pass']] },
        {
          iteration: '2',
          aside: true,
          mark: 'set aside by the restart from iteration 1',
          verdicts: [
            ['lint: pass', 'gate-pass'],
            ['test: fail', 'gate-fail'],
          ],
        },
        { iteration: '3', aside: false, mark: null, verdicts: [['test: pass', 'gate-pass']] },
      ]);
      expect(blocked).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await page.context().close();

      // md and json carry the same.
      const md = (await renderReport(run.snapshotter, 'md', run.runId)).text;
      expect(md).toContain('| 2 _(set aside by the restart from iteration 1)_ |');
      expect(md).toMatch(/\| 2 _\(set aside[^\n]*\| lint: pass, test: \*\*fail\*\* \|/);
      const json = (await renderReport(run.snapshotter, 'json', run.runId)).report;
      expect(json.snapshots.map((s) => [s.iteration, s.setAside?.restartFrom ?? null, s.verdicts])).toEqual([
        [1, null, [{ name: 'test', verdict: 'pass', attempt: 1 }]],
        [
          2,
          1,
          [
            { name: 'lint', verdict: 'pass', attempt: 1 },
            { name: 'test', verdict: 'fail', attempt: 1 },
          ],
        ],
        [3, null, [{ name: 'test', verdict: 'pass', attempt: 1 }]],
      ]);
    } finally {
      run.cleanup();
    }
  });
});
