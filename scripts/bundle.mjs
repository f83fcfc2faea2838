// Bundles the CLI for people to run, into dist/bin/ (`npm run build` runs tsc first for the library
// in dist/src and its types, then this):
//   cli.cjs                 src/cli/main.ts and everything it uses, one minified CommonJS file;
//   agentgate-snapshot.js   the bin, src/cli/bin.ts: runs cli.cjs with V8's code cache, which
//                           Node 20 offers for CommonJS code only (src/cli/code-cache.ts).
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const outdir = join(root, 'dist', 'bin');
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};

rmSync(outdir, { recursive: true, force: true });
const cli = join(outdir, 'cli.cjs');
await build({
  ...common,
  entryPoints: ['src/cli/main.ts'],
  outfile: cli,
  format: 'cjs',
  // jsonc-parser's main is a UMD file whose requires esbuild cannot follow; its ES build is the same code.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  define: { AGENTGATE_VERSION: JSON.stringify(pkg.version), 'import.meta.url': '__agentgateFileUrl' },
  // Strict first: the code was written as ES modules, which are strict, and a directive only counts first.
  banner: { js: "'use strict';const __agentgateFileUrl=require('node:url').pathToFileURL(__filename).href;" },
});
// bin.ts runs the bundle inside Node's CommonJS wrapper, where a hashbang is a syntax error.
const code = readFileSync(cli, 'utf8');
writeFileSync(cli, code.startsWith('#!') ? code.slice(code.indexOf('\n') + 1) : code);

const bin = join(outdir, 'agentgate-snapshot.js');
await build({
  ...common,
  entryPoints: ['src/cli/bin.ts'],
  outfile: bin,
  format: 'esm',
  define: {
    AGENTGATE_BUNDLE_ID: JSON.stringify(
      createHash('sha256').update(readFileSync(cli)).digest('hex').slice(0, 16),
    ),
  },
});

// The bin is a file that both sh and Node read. Run as a program (npx, PATH), sh starts Node on it
// without NODE_EXTRA_CA_CERTS: Node parses that bundle at every start (about 65 ms for the system
// store on our CI machines), and the CLI opens no TLS connection (eslint forbids tls, https and
// fetch in src/). The value travels as AGENTGATE_NODE_EXTRA_CA_CERTS and the CLI puts it back
// before it starts anything (src/cli/caller-env.ts). To Node, the second line is a directive and
// a comment; `node agentgate-snapshot.js` skips sh and loads the certificates as usual.
const LAUNCHER = [
  '#!/bin/sh',
  `':' //; if [ -n "\${NODE_EXTRA_CA_CERTS+x}" ]; then AGENTGATE_NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS; export AGENTGATE_NODE_EXTRA_CA_CERTS; unset NODE_EXTRA_CA_CERTS; else unset AGENTGATE_NODE_EXTRA_CA_CERTS; fi; exec node "$0" "$@"`,
  '',
].join('\n');
writeFileSync(bin, LAUNCHER + readFileSync(bin, 'utf8'));
chmodSync(bin, 0o755);
