/**
 * `npm run screenshot`: records a small demo run in throwaway directories, renders its HTML
 * report and saves a screenshot of it, one file opened side by side, to docs/report-screenshot.png.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DEFAULT_IDENTITY } from '../types/config.js';
import { renderReport } from '../src/report/index.js';
import { Snapshotter } from '../src/snapshotter/snapshotter.js';
import { launchBrowser } from '../test/helpers/browser.js';

const OUT = fileURLToPath(new URL('../docs/report-screenshot.png', import.meta.url));
const work = mkdtempSync(join(tmpdir(), 'agentgate-screenshot-'));
const repo = join(work, 'shop');
const env = {
  ...process.env,
  GIT_CONFIG_NOSYSTEM: '1',
  GIT_CONFIG_GLOBAL: '/dev/null',
  GIT_AUTHOR_NAME: 'Demo',
  GIT_AUTHOR_EMAIL: 'demo@example.com',
  GIT_COMMITTER_NAME: 'Demo',
  GIT_COMMITTER_EMAIL: 'demo@example.com',
};
const git = (...args: string[]) =>
  execFileSync('git', ['-c', 'commit.gpgsign=false', ...args], { cwd: repo, env });
const write = (files: Record<string, string>) => {
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, name)), { recursive: true });
    writeFileSync(join(repo, name), text);
  }
};

try {
  mkdirSync(repo);
  git('init', '-q', '-b', 'main');
  write({
    'src/cart.ts':
      'export function total(items: { price: number }[]): number {\n  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n}\n',
    'README.md': '# Shop\n',
  });
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  const snapshotter = new Snapshotter({
    home: join(work, 'home'),
    artifactsDir: join(work, 'home', 'artifacts'),
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 60_000,
    lockTimeoutMs: 10_000,
    onDirty: 'wip-commit',
  });
  const runId = 'gh-1234-1';
  const iterate = async (iteration: number, files: Record<string, string>, task: string, gate: string) => {
    await snapshotter.captureBeforeState(repo, { runId });
    write(files);
    await snapshotter.captureAfterState(repo, null, {
      runId,
      iteration,
      taskPrompt: task,
      gatePlanSource: gate,
    });
  };
  await iterate(
    1,
    {
      'src/cart.ts':
        'export interface Item {\n  price: number;\n  quantity: number;\n}\n\nexport function total(items: Item[]): number {\n  return items.reduce((sum, item) => sum + item.price * item.quantity, 0);\n}\n',
      'test/cart.test.ts':
        "import { total } from '../src/cart';\n\ntest('counts quantities', () => {\n  expect(total([{ price: 2, quantity: 3 }])).toBe(6);\n});\n",
    },
    'Cart totals must count item quantities',
    'npm test',
  );
  await iterate(
    2,
    { 'README.md': '# Shop\n\nCart totals count quantities.\n' },
    'Document the cart total',
    'npm run lint && npm test',
  );

  const { text } = await renderReport(snapshotter, 'html', runId);
  const file = join(work, 'report.html');
  writeFileSync(file, text);
  const browser = await launchBrowser();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.route('**', (route) =>
      route.request().url().startsWith('file:') ? route.continue() : route.abort(),
    );
    await page.goto(pathToFileURL(file).href);
    await page.check('input[value="side-by-side"]');
    await page
      .locator('details.file', { has: page.locator('.path', { hasText: /^src\/cart\.ts$/ }) })
      .locator('summary')
      .click();
    await page.locator('.d2h-file-side-diff').first().waitFor();
    await page.screenshot({ path: OUT, fullPage: true });
  } finally {
    await browser.close();
  }
  process.stdout.write(`Wrote ${OUT}\n`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
