/**
 * The HTML report in real headless Chromium, opened from file:// with every other request
 * aborted: no request attempted, no console error, the run and all its iterations and files
 * visible, diffs rendered when opened (both views), hostile names inert, and a 2,000-file
 * iteration opening with a small DOM.
 */
import { mkdtempSync, rmSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderReport } from '../../src/report/index.js';
import { launchBrowser, openFile } from '../helpers/browser.js';
import { HOSTILE_NAME, HOSTILE_TASK, recordRun } from '../helpers/report-run.js';

/** Rendering happens on a toggle event: wait for it generously (a loaded CI machine is slow). */
const POLL = { timeout: 30_000, interval: 50 };
let browser: Browser;
const out = mkdtempSync(join(tmpdir(), 'agentgate-report-html-'));

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  rmSync(out, { recursive: true, force: true });
});

describe('report --format html in a browser', () => {
  it('shows the run, every iteration and file, renders diffs on demand, and runs nothing hostile', async () => {
    const run = await recordRun();
    try {
      const { text } = await renderReport(run.snapshotter, 'html', run.runId);
      const file = join(out, 'report.html');
      writeFileSync(file, text);
      expect(text).not.toMatch(/<(script|link|img|iframe)[^>]+(src|href)=["']?(https?:|\/\/)/i);

      const { page, blocked, consoleErrors } = await openFile(browser, pathToFileURL(file).href);
      expect(await page.textContent('#run-id')).toBe(run.runId);
      const facts = (await page.textContent('.facts')) ?? '';
      for (const value of [run.dir, 'main', run.snapshots[0]?.beforeSha, run.snapshots.at(-1)?.afterSha])
        expect(facts).toContain(value);
      expect(await page.textContent('#verification')).toMatch(/^passed/);

      // One row per iteration, with files, counts, after SHA, task and gate.
      const rows = await page.$$eval('#iterations tbody tr', (trs) =>
        trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)),
      );
      expect(rows.map((r) => r[0])).toEqual(['1', '2']);
      for (const [i, s] of run.snapshots.entries()) {
        expect(rows[i]?.slice(1, 4)).toEqual([String(s.filesChanged), `+${s.insertions}`, `-${s.deletions}`]);
        expect(rows[i]?.[4]).toBe(s.afterSha.slice(0, 12));
      }
      expect(rows[0]?.[5]).toContain('Fix <script>window.__xss=2</script> & <img');
      expect(rows[0]?.[6]).toBe('npm test');
      expect(rows[1]?.[6]).toBe('npm run lint && npm test');

      // Every changed file is listed and visible.
      const paths = await page.$$eval('details.file > summary .path', (els) => els.map((e) => e.textContent));
      expect(paths).toEqual(
        run.snapshots.flatMap((s) => s.files.map((f) => (f.oldPath ? `${f.oldPath} → ${f.path}` : f.path))),
      );
      expect(paths).toContain(HOSTILE_NAME);
      for (const summary of await page.$$('details.file > summary'))
        expect(await summary.isVisible()).toBe(true);
      expect(await page.textContent('details.file:has(.path:text-is("assets/logo.bin")) summary')).toContain(
        'binary',
      );

      expect(await page.textContent('details.file:has(.path:text-is("run.sh")) summary')).toContain(
        'mode 100644 → 100755',
      );

      // No diff is rendered until a file is opened.
      expect(await page.locator('.d2h-file-wrapper').count()).toBe(0);
      const feature = page.locator('details.file', {
        has: page.locator('.path', { hasText: /^src\/feature\.ts$/ }),
      });
      await feature.locator('summary').click();
      await expect.poll(async () => feature.locator('.d2h-file-wrapper').count(), POLL).toBe(1);
      expect(await feature.locator('.d2h-file-side-diff').count()).toBe(0);
      expect(await feature.locator('.d2h-diff-tbody').textContent()).toContain('export const feature = 1;');
      expect(await feature.textContent()).toContain('</script><script>window.__xss=4</script>');

      // Side by side re-renders what is open.
      await page.check('input[value="side-by-side"]');
      await expect.poll(async () => feature.locator('.d2h-file-side-diff').count(), POLL).toBe(2);

      // The modified file, the binary one and the hostile one open too.
      const app = page.locator('details.file', { has: page.locator('.path', { hasText: /^src\/app\.ts$/ }) });
      await app.locator('summary').click();
      await expect.poll(async () => app.locator('.d2h-del').count(), POLL).toBeGreaterThan(0);
      const logo = page.locator('details.file', {
        has: page.locator('.path', { hasText: 'assets/logo.bin' }),
      });
      await logo.locator('summary').click();
      await expect.poll(async () => logo.locator('.diff').textContent(), POLL).toContain('Binary file');
      const hostile = page.locator('details.file', { has: page.locator('.path', { hasText: HOSTILE_NAME }) });
      await hostile.locator('summary').click();
      await expect.poll(async () => hostile.locator('.d2h-file-wrapper').count(), POLL).toBe(1);

      // Hostile text stayed text: nothing ran, no element was injected.
      expect(await page.evaluate('typeof window.__xss')).toBe('undefined');
      expect(await page.locator('img').count()).toBe(0);
      expect(await page.locator('script').count()).toBe(3);
      expect(HOSTILE_TASK).toContain('<script>');

      expect(blocked).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await page.context().close();
    } finally {
      run.cleanup();
    }
  });

  it('opens a 2,000-file iteration with a small DOM and lists its files a page at a time', async () => {
    const run = await recordRun({ runId: 'bulk-run', bulk: 2000 });
    try {
      const { text } = await renderReport(run.snapshotter, 'html', run.runId);
      const file = join(out, 'bulk.html');
      writeFileSync(file, text);
      // Near the size of the patches: each file's diff is stored once (plus the fixed renderer).
      const patchBytes = run.snapshots.reduce(
        (n, s) => n + (s.patchPath ? statSync(s.patchPath).size : 0),
        0,
      );
      expect(statSync(file).size).toBeLessThan(patchBytes * 1.5 + 200_000);

      const { page, blocked, consoleErrors } = await openFile(browser, pathToFileURL(file).href);
      const elements = await page.evaluate('document.getElementsByTagName("*").length');
      expect(elements).toBeLessThan(400);
      const bulk = page.locator('details.iteration[data-iteration="3"]');
      expect(await bulk.getAttribute('open')).toBeNull();
      expect(await bulk.locator('details.file').count()).toBe(0);
      expect(await page.locator('.d2h-file-wrapper').count()).toBe(0);

      await bulk.locator('summary').first().click();
      await expect.poll(async () => bulk.locator('details.file').count(), POLL).toBe(200);
      await bulk.locator('button.more').click();
      await expect.poll(async () => bulk.locator('details.file').count(), POLL).toBe(400);
      const last = bulk.locator('details.file').nth(399);
      await last.locator('summary').click();
      await expect
        .poll(async () => last.locator('.d2h-code-line-ctn', { hasText: 'line 399' }).count(), POLL)
        .toBe(1);
      expect(await last.locator('.path').textContent()).toBe('bulk/file-00399.txt');

      expect(blocked).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await page.context().close();
    } finally {
      run.cleanup();
    }
  });
});
