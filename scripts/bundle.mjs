// Bundles the CLI for people to run: dist/bin/agentgate-snapshot.js, minified, with each command
// module split into its own chunk under dist/bin/chunks/ and imported only when that command runs.
// `--version` and `--help` load the entry chunk alone. `npm run build` runs tsc first (the library
// in dist/src, its types), then this.
import { build } from 'esbuild';
import { chmodSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outdir = join(root, 'dist', 'bin');

rmSync(outdir, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: { 'agentgate-snapshot': 'src/cli/main.ts' },
  outdir,
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  define: { AGENTGATE_VERSION: JSON.stringify(pkg.version) },
  // A CommonJS dependency's require() of a Node built-in needs a real require in an ES module.
  banner: {
    js: "import{createRequire as __agentgateCreateRequire}from'node:module';const require=__agentgateCreateRequire(import.meta.url);",
  },
  logLevel: 'warning',
});
chmodSync(join(outdir, 'agentgate-snapshot.js'), 0o755);
