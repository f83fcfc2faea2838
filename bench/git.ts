// Plain git for the harness itself (generation, resets, the baselines). Benchmarks are not src/,
// so they may spawn git directly; nothing here goes through the library's runner.
import { spawn, spawnSync } from 'node:child_process';

/** The identity every contestant commits with, passed through the environment (never written to config). */
export const BENCH_IDENTITY = { name: 'agentgate-bench', email: 'bench@localhost' };

/** A child environment without the caller's GIT_* variables, with a fixed identity and no user config. */
export function gitEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_AUTHOR_NAME: BENCH_IDENTITY.name,
    GIT_AUTHOR_EMAIL: BENCH_IDENTITY.email,
    GIT_COMMITTER_NAME: BENCH_IDENTITY.name,
    GIT_COMMITTER_EMAIL: BENCH_IDENTITY.email,
    LC_ALL: 'C',
    ...extra,
  };
}

/** Runs git synchronously and returns stdout; throws with stderr on a non-zero exit. */
export function git(
  cwd: string,
  args: readonly string[],
  opts: { input?: string | Buffer; env?: Record<string, string> } = {},
): string {
  const res = spawnSync('git', args, { cwd, env: gitEnv(opts.env), input: opts.input, maxBuffer: 1 << 30 });
  if (res.error) throw res.error;
  if (res.status !== 0)
    throw new Error(
      `git ${args.join(' ')} failed in ${cwd} (exit ${res.status}): ${res.stderr.toString().trim()}`,
    );
  return res.stdout.toString('utf8');
}

/** Runs a command asynchronously, failing on a non-zero exit; resolves with stdout. */
export function run(
  cmd: string,
  args: readonly string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: opts.env ?? gitEnv(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.on('error', reject);
    child.on('close', (code) => {
      const stdout = Buffer.concat(out).toString('utf8');
      if (code === 0) resolve(stdout);
      else
        reject(
          new Error(
            `${cmd} ${args.join(' ')} failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim().slice(-2000)}`,
          ),
        );
    });
  });
}

/** `git version 2.39.5` -> `2.39.5`. */
export function gitVersion(): string {
  return git(process.cwd(), ['--version'])
    .trim()
    .replace(/^git version /, '');
}
