/**
 * File names git quotes in a diff header (a backslash, a double quote, a tab, a non-ASCII letter)
 * in real headless Chromium: the header of each rendered diff shows the file's own name, in both
 * views, as the list of files does.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/index.js';
import { launchBrowser, openFile } from '../helpers/browser.js';
import { git, repoWithCommit, writeFiles } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

/** Rendering happens on a toggle event: wait for it generously (a loaded CI machine is slow). */
const POLL = { timeout: 30_000, interval: 50 };
const NAMES = ['back\\slash.txt', 'quo"te.txt', 'tab\there.txt', 'dir\\sub/ünï.txt', 'plain.txt'];
let browser: Browser;
const out = mkdtempSync(join(tmpdir(), 'agentgate-report-names-'));

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(out, { recursive: true, force: true });
});

describe('report --format html: names git quotes', () => {
  it("each rendered diff's header shows the file's own name, in both views", async () => {
    const dir = repoWithCommit({ 'README.md': 'hello\n' });
    const snapshotter = newSnapshotter();
    await snapshotter.captureBeforeState(dir, { runId: 'names' });
    writeFiles(dir, Object.fromEntries(NAMES.map((n) => [n, `content of ${n}\n`])));
    const snapshot = await snapshotter.captureAfterState(dir, null, { runId: 'names', iteration: 1 });
    expect(snapshot.files.map((f) => f.path).sort()).toEqual([...NAMES].sort());
    const { text } = await renderReport(snapshotter, 'html', 'names');
    const file = join(out, 'report.html');
    writeFileSync(file, text);

    const { page, consoleErrors } = await openFile(browser, pathToFileURL(file).href);
    const headers = async () => {
      for (const summary of await page.$$('details.file:not([open]) > summary')) await summary.click();
      await expect.poll(async () => page.locator('.d2h-file-wrapper').count(), POLL).toBe(NAMES.length);
      return page.$$eval('details.file', (files) =>
        files.map((f) => [
          f.querySelector('summary .path')?.textContent,
          f.querySelector('.d2h-file-name')?.textContent,
          f.querySelector('.d2h-diff-tbody')?.textContent?.includes('content of'),
        ]),
      );
    };
    const lineByLine = await headers();
    // The list shows a control character as its code point (src/report/visible.ts).
    const shown = NAMES.map((n) => n.replace('\t', '<U+0009>'));
    expect(lineByLine.map(([listed]) => listed).sort()).toEqual(shown.sort());
    for (const [listed, header, body] of lineByLine) expect([header, body]).toEqual([listed, true]);
    await page.check('input[name="view"][value="side-by-side"]');
    await expect.poll(async () => page.locator('.d2h-file-side-diff').count(), POLL).toBeGreaterThan(0);
    for (const [listed, header] of await headers()) expect(header).toBe(listed);
    expect(consoleErrors).toEqual([]);
  });

  it('a copied file is tagged as a copy, not as a rename (its source is still there), in both views', async () => {
    const lines = Array.from({ length: 40 }, (_, i) => `line ${i}\n`).join('');
    const dir = repoWithCommit({ 'src.txt': lines, 'moved.txt': lines.replace(/line/g, 'other') });
    const snapshotter = newSnapshotter();
    await snapshotter.captureBeforeState(dir, { runId: 'copies' });
    // git looks for a copy's source among the files the change touches: src.txt is changed too.
    writeFiles(dir, { 'src.txt': `${lines}changed\n`, 'copy.txt': `${lines}one more\n` });
    git(dir, ['mv', 'moved.txt', 'renamed.txt']);
    const snapshot = await snapshotter.captureAfterState(dir, null, { runId: 'copies', iteration: 1 });
    expect(snapshot.files.map((f) => [f.status, f.path]).sort()).toEqual([
      ['copied', 'copy.txt'],
      ['modified', 'src.txt'],
      ['renamed', 'renamed.txt'],
    ]);
    const { text } = await renderReport(snapshotter, 'html', 'copies');
    const file = join(out, 'copies.html');
    writeFileSync(file, text);
    const { page, consoleErrors } = await openFile(browser, pathToFileURL(file).href);
    const tags = async () => {
      for (const summary of await page.$$('details.file:not([open]) > summary')) await summary.click();
      await expect.poll(async () => page.locator('.d2h-file-wrapper').count(), POLL).toBe(3);
      return page.$$eval('details.file', (files) =>
        files.map((f) => [
          f.querySelector('summary .path')?.textContent,
          f.querySelector('.d2h-tag')?.textContent,
        ]),
      );
    };
    const expected = [
      ['src.txt \u2192 copy.txt', 'COPIED'],
      ['moved.txt \u2192 renamed.txt', 'RENAMED'],
      ['src.txt', 'CHANGED'],
    ];
    expect(await tags()).toEqual(expected);
    await page.check('input[name="view"][value="side-by-side"]');
    await expect.poll(async () => page.locator('.d2h-file-side-diff').count(), POLL).toBeGreaterThan(0);
    expect(await tags()).toEqual(expected);
    expect(consoleErrors).toEqual([]);
  });
});
