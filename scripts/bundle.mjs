// Bundles the CLI for people to run, into dist/bin/ (`npm run build` runs tsc first for the library
// in dist/src and its types, then this): the bin, agentgate-snapshot.js (src/cli/bin.ts, a few
// lines that turn on Node's compile cache), and the CLI it loads (src/cli/main.ts) as ES module
// chunks, so that a command reads and compiles its own code and what it shares with others, not
// every command's. One chunk per command module costs fewer file reads than tsc's one file per
// source module, and the compile cache keeps each chunk's compiled code.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outdir = join(root, 'dist', 'bin');

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { 'agentgate-snapshot': 'src/cli/bin.ts' },
  outdir,
  bundle: true,
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  // jsonc-parser's main is a UMD file whose requires esbuild cannot follow; its ES build is the same code.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  define: { AGENTGATE_VERSION: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies still call require() for Node's own modules.
  banner: {
    js: "import{createRequire as __agentgateRequire}from'node:module';const require=__agentgateRequire(import.meta.url);",
  },
});
