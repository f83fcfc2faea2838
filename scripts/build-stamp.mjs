// Whether dist/ is the build of the sources as they are, so that the test run's global setup need
// not build again what `npm ci` (prepare) or `npm run build` has just built (about 10 s on CI's two
// cores). The stamp is the sha256 of every input of the build and of the Node that ran it; `npm run
// build` clears it first and writes it once tsc and the bundler have both succeeded.
//
//   node scripts/build-stamp.mjs clear | write | check   (check: exit 0 when dist/ is current)
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const stamp = join(root, 'dist', '.build-inputs');
const INPUTS = [
  'src',
  'types',
  'scripts/bundle.mjs',
  'scripts/eager-compile.mjs',
  'scripts/build-stamp.mjs',
  'tsconfig.json',
  'tsconfig.build.json',
  'package.json',
  'package-lock.json',
];
/** What a test runs from dist/: a stamp beside a dist/ that lost one of these is not trusted. */
const OUTPUTS = ['dist/src/index.js', 'dist/bin/agentgate-snapshot.js', 'dist/bin/main.js'];

/** The files of an input: a directory's, recursively; a file itself; nothing for a missing one. */
function files(path) {
  const info = statSync(join(root, path), { throwIfNoEntry: false });
  if (info === undefined) return [];
  if (!info.isDirectory()) return [path];
  return readdirSync(join(root, path), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)));
}

function digest() {
  const hash = createHash('sha256').update(`${process.version}\0`);
  const all = INPUTS.flatMap(files).sort();
  for (const file of all) {
    const bytes = readFileSync(join(root, file));
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

const mode = process.argv[2];
if (mode === 'clear') rmSync(stamp, { force: true });
else if (mode === 'write') writeFileSync(stamp, `${digest()}\n`);
else if (mode === 'check') {
  const fresh =
    existsSync(stamp) &&
    OUTPUTS.every((p) => existsSync(join(root, p))) &&
    readFileSync(stamp, 'utf8').trim() === digest();
  process.exitCode = fresh ? 0 : 1;
} else {
  process.stderr.write('usage: node scripts/build-stamp.mjs clear|write|check\n');
  process.exitCode = 2;
}
