// Builds dist/ once so that CLI tests run the real, compiled binary as a child process.
// A type error does not stop the emit; `npm test` reports it in its typecheck step.
import { spawnSync } from 'node:child_process';

export default function setup(): void {
  const res = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { encoding: 'utf8' });
  if (res.status !== 0) process.stderr.write(`global-setup: tsc reported problems (dist/ still emitted):\n${res.stdout}${res.stderr}`);
}
