// Builds what the CLI tests run, once: dist/ with tsc (the library) and the bundled CLI in
// dist/bin/ (what the package's `bin` points at, so tests run what users get), unless dist/ is
// already the build of the sources as they are (`npm ci` has just built it in CI).
// A type error does not stop the emit; `npm test` reports it in its typecheck step.
//
// It also gives the run one temporary root (TMPDIR for every worker and every child process).
// Each test file works in a directory of its own below it, removed when the file ends
// (test/setup.ts); the teardown fails the run if anything is left, so no test can litter /tmp.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Runs a Node script of the project; resolves with its exit status and everything it printed. */
function node(args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

/** Builds dist/ unless it is the build of the sources as they are (scripts/build-stamp.mjs). */
async function build(): Promise<void> {
  if ((await node(['scripts/build-stamp.mjs', 'check'])).status === 0) return;
  await node(['scripts/build-stamp.mjs', 'clear']);
  // Independent (tsc writes dist/src and dist/types, the bundler dist/bin): both at once.
  const [tsc, bundle] = await Promise.all([
    node(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json']),
    node(['scripts/bundle.mjs']),
  ]);
  if (tsc.status !== 0)
    process.stderr.write(`global-setup: tsc reported problems (dist/ still emitted):\n${tsc.output}`);
  if (bundle.status !== 0) throw new Error(`global-setup: bundling the CLI failed:\n${bundle.output}`);
  if (tsc.status === 0) await node(['scripts/build-stamp.mjs', 'write']);
}

export default async function setup(): Promise<() => void> {
  await build();

  const root = mkdtempSync(join(tmpdir(), 'agentgate-tests-'));
  // Node's compile cache (the bin turns it on; Node keeps it in the temporary directory, which each
  // test file has its own of): one for the whole run, so that every CLI process of every file, and
  // every worker, compiles the same code once. Outside the root, which must end empty.
  const ownCache = process.env.NODE_COMPILE_CACHE === undefined;
  const compileCache =
    process.env.NODE_COMPILE_CACHE ?? mkdtempSync(join(tmpdir(), 'agentgate-tests-cache-'));
  process.env.NODE_COMPILE_CACHE = compileCache;
  process.env.AGENTGATE_TEST_TMP = root;
  process.env.TMPDIR = root;
  return () => {
    const left = readdirSync(root);
    rmSync(root, { recursive: true, force: true, maxRetries: 5 });
    if (ownCache) rmSync(compileCache, { recursive: true, force: true, maxRetries: 5 });
    if (left.length > 0)
      throw new Error(`test files left temporary entries behind: ${left.slice(0, 20).join(', ')}`);
  };
}
