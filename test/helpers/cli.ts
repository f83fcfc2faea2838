/** Runs the bundled CLI (dist/bin/, the package's `bin`, built by the global setup) as a child process. */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoWithCommit, tempDir, writeFiles } from './repo.js';
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

/** The CLI run in the workspace `ws` with its own home (a relative --artifacts-dir is taken from `ws`). */
export function cliIn(ws: string, home: string, args: string[], env: NodeJS.ProcessEnv = {}): CliResult {
  return runCli(['-C', ws, '--home', home, '--json', ...args], { cwd: ws, env });
}

/** cliIn for a call that must succeed: its parsed JSON. */
export function okIn<T>(ws: string, home: string, args: string[], env: NodeJS.ProcessEnv = {}): T {
  const res = cliIn(ws, home, args, env);
  if (res.status !== 0)
    throw new Error(`${args.join(' ')} failed (${res.status}): ${res.stdout}${res.stderr}`);
  return res.json() as T;
}

/** `iterate` of iteration `iteration` of run `run` in `ws`, whose agent is the shell script `script`: its JSON. */
export function iterateShell<T>(
  ws: string,
  home: string,
  script: string,
  { run = 'r', iteration = 1, options = [] }: { run?: string; iteration?: number; options?: string[] } = {},
): T {
  const args = [
    'iterate',
    '--run',
    run,
    '--iteration',
    String(iteration),
    ...options,
    '--',
    'sh',
    '-c',
    script,
  ];
  return okIn<T>(ws, home, args);
}

/** runCli without blocking: for CLI processes that must run at the same moment (Promise.all). */
export function runCliAsync(
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: opts.cwd,
      env: { ...process.env, NO_COLOR: '1', ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) =>
      resolve({ status, stdout, stderr, json: () => JSON.parse(stdout) as unknown }),
    );
  });
}

/**
 * The CLI with its stdout piped into `head -c 1`, which closes the pipe after one byte (stdin from
 * `stdinFile` when given): its exit status and what it wrote on stderr.
 */
export function runCliIntoClosedPipe(
  args: string[],
  scratchDir: string,
  stdinFile?: string,
): { status: number | null; stderr: string } {
  const errFile = join(scratchDir, 'closed-pipe-stderr.txt');
  const input = stdinFile === undefined ? '' : ' <"$IN_FILE"';
  const piped = spawnSync(
    'bash',
    [
      '-c',
      `"$0" "$@"${input} 2>"$ERR_FILE" | head -c 1 >/dev/null; exit "\${PIPESTATUS[0]}"`,
      process.execPath,
      CLI,
      ...args,
    ],
    { env: { ...process.env, ERR_FILE: errFile, IN_FILE: stdinFile ?? '' } },
  );
  return { status: piped.status, stderr: readFileSync(errFile, 'utf8') };
}

/**
 * A workspace (a README committed) with run r1's first iteration recorded through the CLI, the
 * iteration writing `files`; its own home; and the CLI bound to both.
 */
export function recordedCliRun(files: Record<string, string>): {
  dir: string;
  home: string;
  cli: (...args: string[]) => CliResult;
} {
  const dir = repoWithCommit({ 'README.md': 'hello\n' });
  const home = tempDir('agentgate-home-');
  const cli = (...args: string[]) => runCli(['-C', dir, '--home', home, ...args], { cwd: dir });
  if (cli('before', '--run', 'r1').status !== 0) throw new Error('before failed');
  writeFiles(dir, files);
  if (cli('after', '--run', 'r1', '--iteration', '1').status !== 0) throw new Error('after failed');
  return { dir, home, cli };
}
