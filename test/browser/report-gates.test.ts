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

describe('report --format html: gates', () => {
  it('shows verdicts, red and green per gate and failed tests, with hostile text inert', async () => {
    const run = await recordRun({ runId: 'gates-run' });
    try {
      const m = {
        dir: run.dir,
        home: run.home,
        artifacts: join(run.home, 'artifacts'),
        snap: run.snapshotter,
      };
      const at = (h: number) => new Date(Date.UTC(2026, 0, 1, h)).toISOString();
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
});
