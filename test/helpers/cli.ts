/** Runs the bundled CLI (dist/bin/, the package's `bin`, built by the global setup) as a child process. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const CLI = fileURLToPath(new URL('../../dist/bin/agentgate-snapshot.js', import.meta.url));

export interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  json: () => unknown;
}

export function runCli(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {},
): CliResult {
  const res = spawnSync(process.execPath, [CLI, ...args], {
    cwd: opts.cwd,
    env: { ...process.env, NO_COLOR: '1', ...opts.env },
    input: opts.input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return { status: res.status, stdout: res.stdout, stderr: res.stderr, json: () => JSON.parse(res.stdout) };
}
