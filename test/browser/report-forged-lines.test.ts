/**
 * Content that a diff renderer could read as structure, in real headless Chromium: a line of a
 * file holding lone carriage returns (diff2html reads `\r` as a line break) must stay one line of
 * its file, not become a forged file section or hunk with lines the change never had; a line holding
 * git's `\ No newline at end of file` keeps that text (the renderer drops it wherever it stands).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/index.js';
import { launchBrowser, openFile } from '../helpers/browser.js';
import { repoWithCommit, writeFiles } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

/** Rendering happens on a toggle event: wait for it generously (a loaded CI machine is slow). */
const POLL = { timeout: 30_000, interval: 50 };
let browser: Browser;
const out = mkdtempSync(join(tmpdir(), 'agentgate-report-forged-'));

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(out, { recursive: true, force: true });
});

const FORGED =
  'benign\rdiff --git a/FORGED b/FORGED\r--- a/FORGED\r+++ b/FORGED\r@@ -1 +1 @@\r-removed safeguard\r+FAKE\n';

/** A line holding the text git writes after a last line without a newline. */
const MARKER = 'say \\ No newline at end of file here';

describe('report --format html: lines that read as diff structure', () => {
  it('a line with lone carriage returns stays one added line of its own file, in both views', async () => {
    const dir = repoWithCommit({ 'a.txt': 'keep\n', 'crlf.txt': 'one\r\n' });
    const snapshotter = newSnapshotter();
    await snapshotter.captureBeforeState(dir, { runId: 'cr' });
    writeFiles(dir, { 'a.txt': `keep\n${FORGED}`, 'crlf.txt': `one\r\ntwo\r\n${MARKER}` });
    const snapshot = await snapshotter.captureAfterState(dir, null, { runId: 'cr', iteration: 1 });
    expect(snapshot.files.map((f) => [f.path, f.insertions, f.deletions])).toEqual([
      ['a.txt', 1, 0],
      ['crlf.txt', 2, 0],
    ]);
    const { text } = await renderReport(snapshotter, 'html', 'cr');
    const file = join(out, 'report.html');
    writeFileSync(file, text);

    const { page, consoleErrors } = await openFile(browser, pathToFileURL(file).href);
    for (const view of ['line-by-line', 'side-by-side']) {
      await page.check(`input[name="view"][value="${view}"]`);
      for (const summary of await page.$$('details.file:not([open]) > summary')) await summary.click();
      await expect.poll(async () => page.locator('.d2h-file-wrapper').count(), POLL).toBe(2);
      const rendered = await page.$$eval('details.file', (files) =>
        files.map((f) => ({
          wrappers: f.querySelectorAll('.d2h-file-wrapper').length,
          // One header row per hunk (one per side in side by side).
          hunks:
            [...f.querySelectorAll('tr')].filter((tr) => tr.querySelector('td.d2h-info')).length /
            Math.max(1, f.querySelectorAll('.d2h-file-side-diff').length),
          deleted: f.querySelectorAll('td.d2h-del:not(.d2h-emptyplaceholder)').length,
          text: [...f.querySelectorAll('.d2h-diff-tbody')].map((b) => b.textContent).join(''),
        })),
      );
      expect(rendered.map((r) => [r.wrappers, r.hunks, r.deleted])).toEqual([
        [1, 1, 0],
        [1, 1, 0],
      ]);
      expect(rendered[0]?.text).toContain('removed safeguard');
      expect(rendered[1]?.text).toContain('two');
      // The renderer drops this text wherever it stands: the page shows its backslash as an escape.
      expect(rendered[1]?.text).toContain('say <U+005C> No newline at end of file here');
      for (const d of await page.$$('details.file[open]')) await d.evaluate((e) => e.removeAttribute('open'));
    }
    expect(consoleErrors).toEqual([]);
  });

  it('shows a legacy workflow command `##[` in a task, a file name and a line as it is, though the page source holds none', async () => {
    const legacy = 'x ##[error]pwned ##[add-mask]y';
    const dir = repoWithCommit({ 'a.txt': 'keep\n' });
    const snapshotter = newSnapshotter();
    await snapshotter.captureBeforeState(dir, { runId: 'legacy' });
    writeFiles(dir, { [`${legacy}.txt`]: `${legacy}\n` });
    await snapshotter.captureAfterState(dir, null, { runId: 'legacy', iteration: 1, taskPrompt: legacy });
    const { text } = await renderReport(snapshotter, 'html', 'legacy');
    expect(text).not.toContain('##[');
    const file = join(out, 'legacy.html');
    writeFileSync(file, text);
    const { page, consoleErrors } = await openFile(browser, pathToFileURL(file).href);
    expect(await page.locator('#iterations td.text').first().textContent()).toBe(legacy);
    await expect
      .poll(async () => page.locator('details.file .path').first().textContent(), POLL)
      .toBe(`${legacy}.txt`);
    await page.locator('details.file > summary').first().click();
    await expect
      .poll(async () => page.locator('.d2h-diff-tbody').first().textContent(), POLL)
      .toContain(legacy);
    expect(consoleErrors).toEqual([]);
  });
});
