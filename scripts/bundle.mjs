// Bundles the CLI for people to run, into dist/bin/ (`npm run build` runs tsc first for the library
// in dist/src and its types, then this): the bin, agentgate-snapshot.js (src/cli/bin.ts, a few
// lines that turn on Node's compile cache), and the CLI it loads (src/cli/main.ts) as ES module
// chunks, so that a command reads and compiles its own code and what it shares with others, not
// every command's. One chunk per command module costs fewer file reads than tsc's one file per
// source module, and the compile cache keeps each chunk's compiled code.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outdir = join(root, 'dist', 'bin');

/**
 * `import { x } from 'node:fs'` in an ES module makes Node build that module's ES facade, which
 * reads every export of fs, getters included: fs.promises, fs.ReadStream and the rest load some
 * thirty of Node's own modules (fs/promises, readline, streams, watchers) that `--version` never
 * uses (about a tenth of a bare Node start-up, measured). So node:fs is taken from require(), which
 * builds no facade, and its plain functions are re-exported; a getter's name is not exported, so
 * importing one fails the build rather than loading it.
 */
const fsWithoutFacade = {
  name: 'fs-without-facade',
  setup(b) {
    b.onResolve({ filter: /^(node:)?fs$/ }, () => ({ path: 'node:fs', namespace: 'fs-without-facade' }));
    b.onLoad({ filter: /.*/, namespace: 'fs-without-facade' }, () => {
      const descriptors = Object.entries(
        Object.getOwnPropertyDescriptors(createRequire(import.meta.url)('node:fs')),
      );
      // Numbers are left out: fs.F_OK and its kin are deprecated (DEP0176, a getter that warns from
      // Node 24 on), and a bundle built on an older Node would read them at every start.
      const plain = descriptors.filter(
        ([name, d]) => 'value' in d && typeof d.value !== 'number' && /^[A-Za-z_$][\w$]*$/.test(name),
      );
      return {
        loader: 'js',
        contents: [
          "import { createRequire } from 'node:module';",
          "const fs = createRequire(import.meta.url)('node:fs');",
          'export default fs;',
          `export const { ${plain.map(([name]) => name).join(', ')} } = fs;`,
        ].join('\n'),
      };
    });
  },
};

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
  plugins: [fsWithoutFacade],
  // Bundled CommonJS dependencies still call require() for Node's own modules. Every chunk gets
  // this banner; it makes the require function on its first call, so that the chunks that never
  // call it (most) do not pay for createRequire and import.meta.
  banner: {
    js: "import{createRequire as __agentgateCreateRequire}from'node:module';let __agentgateRequire;function require(id){return(__agentgateRequire??=__agentgateCreateRequire(import.meta.url))(id)}",
  },
});
