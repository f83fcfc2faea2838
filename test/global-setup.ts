// Builds what the CLI tests run, once: dist/ with tsc (the library) and the bundled CLI in
// dist/bin/ (what the package's `bin` points at, so tests run what users get).
// A type error does not stop the emit; `npm test` reports it in its typecheck step.
import { spawnSync } from 'node:child_process';

export default function setup(): void {
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { encoding: 'utf8' });
  if (tsc.status !== 0) process.stderr.write(`global-setup: tsc reported problems (dist/ still emitted):\n${tsc.stdout}${tsc.stderr}`);
  const bundle = spawnSync(process.execPath, ['scripts/bundle.mjs'], { encoding: 'utf8' });
  if (bundle.status !== 0) throw new Error(`global-setup: bundling the CLI failed:\n${bundle.stdout}${bundle.stderr}`);
}
