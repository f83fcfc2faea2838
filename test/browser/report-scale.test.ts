/**
 * The HTML report at scale and with bidirectional-text controls, opened in headless Chromium:
 * a change of tens of MB with the diff limits lowered through the config gives a page bounded by
 * the limits, whose files past them say "too large to show here" with their line counts and the
 * patch artifact's path (read from the artifact, or from git when it is gone); and file names and
 * task text carrying U+202E and friends show them as visible escapes.
 */
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Snapshot } from '../../types/snapshot.js';
import { renderReport } from '../../src/report/index.js';
import { launchBrowser, openFile } from '../helpers/browser.js';
import { runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

const POLL = { timeout: 30_000, interval: 50 };
const MIB = 1024 * 1024;
let browser: Browser;
const out = mkdtempSync(join(tmpdir(), 'agentgate-report-scale-'));
const cleanup: string[] = [out];

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  for (const d of cleanup) rmSync(d, { recursive: true, force: true });
});

/** `count` lines of about `width` bytes (long lines keep the rendered diffs small in the DOM). */
function lines(count: number, label: string, width = 35): string {
  const filler = 'x'.repeat(Math.max(0, width - 35));
  let text = '';
  for (let i = 0; i < count; i++)
    text += `${label} line ${String(i).padStart(7, '0')} of generated text${filler}\n`;
  return text;
}

describe('report --format html at scale', () => {
  it('embeds diffs within the configured limits and says which files are too large, from the artifact or from git', async () => {
    const dir = repoWithCommit({ 'README.md': 'hello\n' });
    const home = tempDir('agentgate-home-');
    cleanup.push(dir, home);
    // 2 MiB per file and 4 MiB in all, for a change of about 21 MB.
    writeFileSync(
      join(home, 'config.yaml'),
      `report: { maxFileDiffBytes: ${2 * MIB}, maxTotalDiffBytes: ${4 * MIB} }\n`,
    );
    const run = (args: string[]) => runCli(['-C', dir, ...args], { env: { AGENTGATE_HOME: home } });
    expect(run(['before', '--run', 'big-run']).status).toBe(0);
    const files: Record<string, string> = { 'big.txt': lines(250_000, 'big'), 'z.txt': 'small\n' };
    for (let i = 0; i < 10; i++) files[`m-${i}.txt`] = lines(3_000, `m${i}`, 400);
    writeFiles(dir, files);
    const after = run(['after', '--run', 'big-run', '--iteration', '1', '--task', 'Generate', '--json']);
    expect(after.status, after.stderr).toBe(0);
    const snapshot = Snapshot.parse(after.json());
    const patchPath = snapshot.patchPath as string;
    expect(statSync(patchPath).size).toBeGreaterThan(16 * MIB);

    const html = join(out, 'big.html');
    const res = run(['report', '--run', 'big-run', '-o', html]);
    expect(res.status, res.stderr).toBe(0);
    // The limit plus the page itself (renderer, styles, file list); far below the patch.
    expect(statSync(html).size).toBeLessThan(4 * MIB + MIB);

    const shown = ['m-0.txt', 'm-1.txt', 'm-2.txt', 'z.txt'];
    const tooLarge = ['big.txt', ...[3, 4, 5, 6, 7, 8, 9].map((i) => `m-${i}.txt`)];
    const check = async (file: string) => {
      const { page, blocked, consoleErrors } = await openFile(browser, pathToFileURL(file).href);
      const entry = (name: string) =>
        page.locator('details.file', { has: page.locator('.path', { hasText: new RegExp(`^${name}$`) }) });
      for (const name of tooLarge)
        expect(await entry(name).locator('summary').textContent()).toContain('too large');
      const big = entry('big.txt');
      await big.locator('summary').click();
      await expect
        .poll(async () => big.locator('.note').textContent(), POLL)
        .toContain('Too large to show here');
      const note = (await big.locator('.note').textContent()) ?? '';
      expect(note).toContain('+250000 -0 lines');
      expect(note).toContain(patchPath);
      expect(await big.locator('.d2h-file-wrapper').count()).toBe(0);
      for (const name of shown)
        expect(await entry(name).locator('summary').textContent()).not.toContain('too large');
      for (const name of ['m-0.txt', 'z.txt']) {
        const e = entry(name);
        await e.locator('summary').click();
        await expect.poll(async () => e.locator('.d2h-file-wrapper').count(), POLL).toBe(1);
      }
      expect(
        await entry('m-0.txt').locator('.d2h-code-line-ctn', { hasText: 'm0 line 0002999' }).count(),
      ).toBe(1);
      expect(blocked).toEqual([]);
      expect(consoleErrors).toEqual([]);
      await page.context().close();
    };
    await check(html);

    // Without the artifact the patch streams from git, with the same result.
    rmSync(patchPath);
    const fromGit = join(out, 'big-from-git.html');
    expect(run(['report', '--run', 'big-run', '-o', fromGit]).status).toBe(0);
    expect(statSync(fromGit).size).toBeLessThan(4 * MIB + MIB);
    await check(fromGit);

    // The CLI options beat the config: nothing embedded at all.
    const none = join(out, 'none.html');
    expect(run(['report', '--run', 'big-run', '--max-total-diff-bytes', '0', '-o', none]).status).toBe(0);
    expect(readFileSync(none, 'utf8')).not.toContain('m0 line 0000000');
  }, 300_000);

  it('shows bidirectional-text controls in file names and task text, and control characters in file names, as visible escapes', async () => {
    const dir = repoWithCommit({ 'README.md': 'hello\n' });
    const snapshotter = newSnapshotter();
    cleanup.push(dir, snapshotter.options.home);
    const name = 'invoice\u202Efdp.sh';
    await snapshotter.captureBeforeState(dir, { runId: 'bidi-run' });
    writeFiles(dir, { [name]: 'echo pwned\n', 'new\nline.txt': 'two names?\n' });
    await snapshotter.captureAfterState(dir, null, {
      runId: 'bidi-run',
      iteration: 1,
      taskPrompt: 'Send \u2066the\u2069 invoice\u202Efdp.sh',
      gatePlanSource: 'none',
    });
    const { text } = await renderReport(snapshotter, 'html', 'bidi-run');
    const file = join(out, 'bidi.html');
    writeFileSync(file, text);

    const { page, blocked, consoleErrors } = await openFile(browser, pathToFileURL(file).href);
    const entry = page.locator('details.file').first();
    expect(await entry.locator('.path').innerText()).toBe('invoice<U+202E>fdp.sh');
    // A newline in a name is shown too: it would read as a space, or as two names.
    expect(await page.locator('details.file').nth(1).locator('.path').innerText()).toBe(
      'new<U+000A>line.txt',
    );
    expect(await page.locator('#iterations tbody td.text').first().innerText()).toBe(
      'Send <U+2066>the<U+2069> invoice<U+202E>fdp.sh',
    );
    await entry.locator('summary').click();
    await expect.poll(async () => entry.locator('.d2h-file-wrapper').count(), POLL).toBe(1);
    const visible = await page.locator('body').innerText();
    expect(visible).toContain('invoice<U+202E>fdp.sh');
    expect(visible).not.toMatch(/[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
    expect(blocked).toEqual([]);
    expect(consoleErrors).toEqual([]);
    await page.context().close();
  });
});
