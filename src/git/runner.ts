import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { simpleGit, type SimpleGitOptions } from 'simple-git';
import { DEFAULT_IDENTITY, type Identity } from '../../types/config.js';
import { GitFailedError, GitNotFoundError, GitTimeoutError, WriteFailedError } from '../errors.js';
import { buildEnv, HARDENING_CONFIG } from './hardening.js';

export const DEFAULT_GIT_TIMEOUT_MS = 120_000;

/** How to reach one repository: where git runs, and optionally a private git dir, work tree and index. */
export interface GitOptions {
  /** Directory git runs in. */
  cwd: string;
  /** Private object store (checkpoints): passed as `--git-dir`, with `workTree` as `--work-tree`. */
  gitDir?: string;
  workTree?: string;
  /** Private index file (`GIT_INDEX_FILE`). */
  indexFile?: string;
  identity?: Identity;
  timeoutMs?: number;
  /** Extra `-c key=value` pairs, e.g. the filters named in this repository's own config. */
  config?: readonly string[];
  /** Test seam: the git binary to run. */
  binary?: string;
}

export interface RunOptions {
  /** Bytes for git's standard input. */
  input?: string | Buffer;
  /** Exit codes that are answers rather than failures (e.g. 1 from `merge-base --is-ancestor`). */
  okExitCodes?: readonly number[];
}

export interface GitResult<T> {
  stdout: T;
  exitCode: number;
}

/**
 * simple-git refuses every config key and environment variable that can make git run a program,
 * unless the instance opts in. We opt in for exactly the keys we set, and we set each of them to
 * switch the program off (see hardening.ts), never to name one.
 */
const UNSAFE_OPT_INS: SimpleGitOptions['unsafe'] = {
  allowUnsafeHooksPath: true, // core.hooksPath=/dev/null
  allowUnsafeFsMonitor: true, // core.fsmonitor=false
  allowUnsafePager: true, // core.pager=cat
  allowUnsafeEditor: true, // core.editor=:
  allowUnsafeDiffExternal: true, // diff.external= and diff.<driver>.command=
  allowUnsafeDiffTextConv: true, // diff.<driver>.textconv=
  allowUnsafeFilter: true, // filter.<name>.clean=/smudge=/process=
  allowUnsafeMergeDriver: true, // merge.<name>.driver=
  allowUnsafeConfigPaths: true, // --git-dir/--work-tree of our own checkpoint stores
};

/** Runs one git command with the hardened environment and configuration. Never inherits GIT_* from the caller. */
export async function runGit(opts: GitOptions, args: readonly string[], run: RunOptions = {}): Promise<GitResult<string>> {
  const result = await execute(opts, args, run, false);
  return { stdout: result.stdout.toString('utf8'), exitCode: result.exitCode };
}

/** Like runGit, but returns stdout as raw bytes (object contents, `-z` output with arbitrary names). */
export async function runGitBuffer(opts: GitOptions, args: readonly string[], run: RunOptions = {}): Promise<GitResult<Buffer>> {
  return execute(opts, args, run, true);
}

let spawned = 0;

/** How many git processes this process has started so far (tests use it to prove that work is batched). */
export function gitCallCount(): number {
  return spawned;
}

async function execute(opts: GitOptions, args: readonly string[], run: RunOptions, raw: boolean): Promise<GitResult<Buffer>> {
  spawned += 1;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const env = buildEnv(opts.identity ?? DEFAULT_IDENTITY, opts.indexFile);
  const fullArgs = [...locationArgs(opts), ...args];
  let exitCode = 0;
  let stderr = '';
  const chunks: Buffer[] = [];
  const git = simpleGit({
    baseDir: opts.cwd,
    binary: opts.binary ?? 'git',
    maxConcurrentProcesses: 1,
    config: [...HARDENING_CONFIG, ...(opts.config ?? [])],
    unsafe: UNSAFE_OPT_INS,
    allowEnvironment: Object.keys(env),
    abort: signal,
    completion: { onClose: true, onExit: false },
    // simple-git neither writes nor closes stdin for zero-length input, leaving git waiting until the
    // timeout; an empty Buffer is truthy, so it is written and stdin is closed.
    ...(run.input === undefined ? {} : { input: () => (run.input?.length === 0 ? Buffer.alloc(0) : run.input) }),
    // simple-git's default treats a non-zero exit with an empty stderr as success: a silent
    // failure would hand back empty output. We decide on the exit code alone.
    errors: (error, result) => {
      exitCode = result.exitCode;
      stderr = Buffer.concat(result.stdErr).toString('utf8');
      if (error instanceof Error && !(exitCode > 0)) return error;
      return undefined;
    },
  }).env(env);
  if (raw) git.outputHandler((_cmd, stdout) => stdout.on('data', (c: Buffer) => chunks.push(c)));
  let text: string;
  try {
    text = await git.raw(fullArgs);
  } catch (cause) {
    throw classify(cause, { args: fullArgs, cwd: opts.cwd, timeoutMs, aborted: signal.aborted, exitCode, stderr });
  }
  if (exitCode !== 0 && !(run.okExitCodes ?? []).includes(exitCode)) {
    throw new GitFailedError(failureMessage(fullArgs, exitCode, stderr), {
      details: { args: fullArgs, cwd: opts.cwd, exitCode, stderr: stderr.trim() },
    });
  }
  return { stdout: raw ? Buffer.concat(chunks) : Buffer.from(text, 'utf8'), exitCode };
}

/**
 * Runs git with its stdout streamed into a new file, for output that can be hundreds of MB
 * (patches): simple-git keeps all of stdout in memory, so this one path spawns git itself, with
 * the same environment and configuration. Both git's exit code and every write are checked (git's
 * own `--output` ignores write errors: a full disk would give a truncated patch and exit 0).
 * Returns the number of bytes written.
 */
export async function runGitToFile(opts: GitOptions, args: readonly string[], file: string): Promise<number> {
  spawned += 1;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const fullArgs = [...[...HARDENING_CONFIG, ...(opts.config ?? [])].flatMap((c) => ['-c', c]), ...locationArgs(opts), ...args];
  const child = spawn(opts.binary ?? 'git', fullArgs, { cwd: opts.cwd, env: buildEnv(opts.identity ?? DEFAULT_IDENTITY, opts.indexFile), stdio: ['ignore', 'pipe', 'pipe'], signal });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    if (stderr.length < 65_536) stderr += chunk.toString('utf8');
  });
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? -1));
  });
  const out = createWriteStream(file, { flags: 'wx', mode: 0o644 });
  let written: unknown = null;
  const copied = pipeline(child.stdout, out).catch((cause: unknown) => {
    written = cause;
    child.kill();
  });
  let exitCode: number;
  try {
    [exitCode] = await Promise.all([exited, copied]);
  } catch (cause) {
    throw classify(cause, { args: fullArgs, cwd: opts.cwd, timeoutMs, aborted: signal.aborted, exitCode: -1, stderr });
  }
  if (written !== null) {
    throw new WriteFailedError(`could not write ${file} (${errnoText(written)}); check free space and permissions`, { cause: written, details: { path: file } });
  }
  if (exitCode !== 0) {
    throw new GitFailedError(failureMessage(fullArgs, exitCode, stderr), { details: { args: fullArgs, cwd: opts.cwd, exitCode, stderr: stderr.trim() } });
  }
  return out.bytesWritten;
}

function errnoText(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException).code;
  return typeof code === 'string' ? code : String(cause);
}

function locationArgs(opts: GitOptions): string[] {
  const out: string[] = [];
  if (opts.gitDir !== undefined) out.push(`--git-dir=${opts.gitDir}`);
  if (opts.workTree !== undefined) out.push(`--work-tree=${opts.workTree}`);
  return out;
}

interface FailureContext {
  args: string[];
  cwd: string;
  timeoutMs: number;
  aborted: boolean;
  exitCode: number;
  stderr: string;
}

function classify(cause: unknown, ctx: FailureContext): Error {
  const details = { args: ctx.args, cwd: ctx.cwd, exitCode: ctx.exitCode, stderr: ctx.stderr.trim() };
  if (ctx.aborted) {
    return new GitTimeoutError(`git ${ctx.args[0] ?? ''} did not finish within ${ctx.timeoutMs} ms and was stopped; raise gitTimeoutMs in config.yaml if the repository is very large`, { cause, details });
  }
  if (isSpawnNotFound(cause)) {
    return new GitNotFoundError('git was not found on PATH; install git (2.38 or newer) and try again', { cause, details });
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return new GitFailedError(failureMessage(ctx.args, ctx.exitCode, ctx.stderr || message), { cause, details });
}

function isSpawnNotFound(cause: unknown): boolean {
  for (let e: unknown = cause; e instanceof Error; e = e.cause) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT' || /spawn .* ENOENT/.test(e.message)) return true;
  }
  return false;
}

function failureMessage(args: readonly string[], exitCode: number, stderr: string): string {
  const command = args.filter((a) => !a.startsWith('--git-dir=') && !a.startsWith('--work-tree=')).slice(0, 3).join(' ');
  const reason = stderr.trim().split('\n').slice(-3).join(' ') || 'no message';
  return `git ${command} failed (exit ${exitCode}): ${reason}`;
}
