// Bundles the CLI for people to run: dist/bin/agentgate-snapshot.js, minified, with each command
// module split into its own chunk under dist/bin/chunks/ and imported only when that command runs.
// `--version` and `--help` load the entry chunk alone. `npm run build` runs tsc first (the library
// in dist/src, its types), then this.
import { build } from 'esbuild';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

// The bin is a file that both sh and Node read. Run as a program (npx, PATH), sh starts Node on it
// without NODE_EXTRA_CA_CERTS: Node parses that bundle at every start (about 65 ms for the system
// store on our CI machines), and the CLI opens no TLS connection (eslint forbids tls, https and
// fetch in src/). The value travels as AGENTGATE_NODE_EXTRA_CA_CERTS and the CLI puts it back
// before it starts anything (src/cli/caller-env.ts). To Node, the second line is a directive and
// a comment; `node agentgate-snapshot.js` skips sh and loads the certificates as usual.
const LAUNCHER = [
  '#!/bin/sh',
  `':' //; if [ -n "\${NODE_EXTRA_CA_CERTS+x}" ]; then AGENTGATE_NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS; export AGENTGATE_NODE_EXTRA_CA_CERTS; unset NODE_EXTRA_CA_CERTS; else unset AGENTGATE_NODE_EXTRA_CA_CERTS; fi; exec node "$0" "$@"`,
].join('\n');
const entry = join(outdir, 'agentgate-snapshot.js');
const bundled = readFileSync(entry, 'utf8');
if (!bundled.startsWith('#!/usr/bin/env node\n')) throw new Error('bundle.mjs: the entry lost its hashbang');
writeFileSync(entry, LAUNCHER + bundled.slice(bundled.indexOf('\n')));
chmodSync(entry, 0o755);
