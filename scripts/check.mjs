// The static checks `npm test` runs before vitest: the typecheck, eslint and prettier. Each is one
// process that mostly keeps one core busy, so they run at the same time (on CI's two cores about
// half the time of one after the other); each one's output is printed whole, in a fixed order,
// once all have ended. Fails when any of them does.
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const bin = (pkg, file) => join(root, 'node_modules', pkg, 'bin', file);

const CHECKS = [
  ['typecheck', [bin('typescript', 'tsc'), '-p', 'tsconfig.json']],
  ['eslint', [bin('eslint', 'eslint.js'), '.']],
  [
    'prettier',
    [bin('prettier', 'prettier.cjs'), '--check', 'src', 'types', 'test', 'bench', 'action', 'scripts'],
  ],
];

function run([name, args]) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (error) => resolve({ name, status: 1, output: String(error) }));
    child.on('close', (status, signal) => resolve({ name, status: status ?? 1, signal, output }));
  });
}

const results = await Promise.all(CHECKS.map(run));
for (const { name, status, signal, output } of results) {
  const verdict = status === 0 ? 'passed' : signal ? `killed by ${signal}` : `failed (exit ${status})`;
  process.stdout.write(
    `> ${name}: ${verdict}\n${output}${output.endsWith('\n') || output === '' ? '' : '\n'}`,
  );
}
process.exitCode = results.some((r) => r.status !== 0) ? 1 : 0;
