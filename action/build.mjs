#!/usr/bin/env node
// Bundles the GitHub Action (action/dist/index.js) and the CLI it puts on PATH (action/dist/cli.js)
// with esbuild, so that the action runs from the repository with no npm install. The diff
// renderer's browser bundle and stylesheet are inlined in place of src/report/assets.ts, which
// reads them from node_modules.
//   node action/build.mjs            write action/dist/
//   node action/build.mjs --out DIR  write to DIR (the staleness test compares DIR with action/dist)
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import process from 'node:process';
import { build } from 'esbuild';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outIndex = process.argv.indexOf('--out');
const outdir = outIndex === -1 ? join(root, 'action', 'dist') : resolve(process.argv[outIndex + 1]);
const require = createRequire(join(root, 'package.json'));

const inlineAssets = {
  name: 'inline-report-assets',
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]report[\\/]assets\.ts$/ }, async () => {
      const js = await readFile(require.resolve('diff2html/bundles/js/diff2html.min.js'), 'utf8');
      const css = await readFile(require.resolve('diff2html/bundles/css/diff2html.min.css'), 'utf8');
      return {
        loader: 'ts',
        contents: `export function loadAssets() { return Promise.resolve({ diff2htmlJs: ${JSON.stringify(js)}, diff2htmlCss: ${JSON.stringify(css)} }); }\n`,
      };
    });
  },
};

await build({
  absWorkingDir: root,
  entryPoints: { index: 'action/src/main.ts', cli: 'src/cli/main.ts' },
  outdir,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  outExtension: { '.js': '.js' },
  // Bundled CommonJS dependencies still call require() for Node's own modules.
  banner: {
    js: "import { createRequire as __agentgateCreateRequire } from 'node:module';\nconst require = __agentgateCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  sourcemap: false,
  splitting: false,
  logLevel: 'warning',
  plugins: [inlineAssets],
});
