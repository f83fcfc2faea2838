// Bundles the CLI for people to run, into dist/bin/ (`npm run build` runs tsc first for the library
// in dist/src and its types, then this): the bin, agentgate-snapshot.js (src/cli/bin.ts, a few
// lines that turn on Node's compile cache), and the whole CLI it loads, main.js (src/cli/main.ts),
// both CommonJS. dist/bin/package.json says so, for Node picks a .js file's format from the
// nearest package.json.
//
// Why CommonJS and one file: Node loads an ES module graph through its ES loader (resolve, read,
// link and evaluate each module, asynchronously), which cost `runs --json` about 9 ms over require()
// of one file, a third of a bare Node start-up (measured, docs/performance.md). In one file, a module
// that a command imports with `await import()` is still initialised only when that command runs, and
// the compile cache keeps the file's compiled code, so `--version` does not pay for the library.
import { build } from 'esbuild';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';
import { lazyRanges, markEager } from './eager-compile.mjs';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outdir = join(root, 'dist', 'bin');

const common = {
  absWorkingDir: root,
  outdir,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};

rmSync(outdir, { recursive: true, force: true });
// The bin requires './main.js' as it stands, beside it, after turning on the compile cache.
await build({
  ...common,
  entryPoints: { 'agentgate-snapshot': 'src/cli/bin.ts' },
  external: ['./main.js'],
  supported: { 'dynamic-import': false },
});
await build({
  ...common,
  entryPoints: { main: 'src/cli/main.ts' },
  // jsonc-parser's main is a UMD file whose requires esbuild cannot follow; its ES build is the same code.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  define: { AGENTGATE_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__agentgateModuleUrl' },
  // The sources are ES modules: what they read from import.meta.url is this file's URL.
  banner: { js: "var __agentgateModuleUrl=require('node:url').pathToFileURL(__filename).href;" },
});
writeFileSync(join(outdir, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);

// What `--version` and `runs --json` (the starts docs/performance.md measures) compile lazily goes
// into the compile cache (eager-compile.mjs). Training on `iterate`, `gate` and a hook's event as
// well made the cache a third larger and those two starts 0.6 ms slower, and `iterate` no faster:
// it compiles while git runs.
const main = join(outdir, 'main.js');
const home = mkdtempSync(join(tmpdir(), 'agentgate-train-'));
try {
  const env = { PATH: process.env.PATH ?? '', HOME: home, AGENTGATE_HOME: home };
  const runs = [['--version'], ['runs', '--json']].map((args) => ({ args, cwd: home, env }));
  writeFileSync(main, markEager(readFileSync(main, 'utf8'), lazyRanges(main, runs)).source);
} finally {
  rmSync(home, { recursive: true, force: true });
}
