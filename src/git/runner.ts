import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { once } from 'node:events';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { DEFAULT_GIT_TIMEOUT_MS, DEFAULT_IDENTITY, type Identity } from '../../types/config.js';
import { timeoutProblem } from '../../types/duration.js';
import {
  GitFailedError,
  GitNotFoundError,
  GitTimeoutError,
  InvalidArgumentError,
  OutputTooLargeError,
  WriteFailedError,
} from '../errors.js';
import { gitFailure } from './failures.js';

// The classifier of git's failures lives in failures.ts; callers and tests still find it here.
export { gitFailure };
import {
  buildEnv,
  HARDENING_CONFIG,
  parseConfigEntries,
  userConfigFiles,
  type ConfigPair,
} from './hardening.js';
import { decodeBytes } from '../fs/path-bytes.js';
import { hideCredentials } from './url-credentials.js';

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
  /** Stops git when aborted (a caller's time budget, as for agent hooks); reported as GIT_TIMEOUT. */
  signal?: AbortSignal;
  /** Extra settings of command scope, e.g. the filters named in this repository's own config emptied. */
  config?: readonly ConfigPair[];
  /** Test seam: the git binary to run. */
  binary?: string;
}

export interface RunOptions {
  /**
   * Bytes for git's standard input (closed after them). Without it, stdin is /dev/null. An async
   * iterable is written as it yields, so that git starts before all of its input is known (a
   * `cat-file --batch` given more names as another process finds them); stdin is closed when it
   * ends, or when it throws (git then answers what it was given).
   */
  input?: string | Buffer | AsyncIterable<string | Buffer>;
  /** Exit codes that are answers rather than failures (e.g. 1 from `merge-base --is-ancestor`). */
  okExitCodes?: readonly number[];
  /** Internal: the call that reads the user's own settings runs without them. */
  withoutUserSettings?: boolean;
  /** Given git's stderr (its first 64 KiB, decoded) when it succeeded: warnings that matter (refs.ts listRefRecords). */
  onStderr?: (stderr: string) => void;
}

export interface GitResult<T> {
  stdout: T;
  exitCode: number;
}

/*
 * Why git is spawned here rather than through simple-git (measured with simple-git 4.0.2):
 * - it waits 50 ms after every command that prints nothing (update-ref, add, cat-file -e, ...),
 *   which was most of our per-iteration overhead;
 * - its default error rule treats a non-zero exit with an empty stderr as success, the silent
 *   failure that once turned a failed commit into an empty snapshot id;
 * - it keeps all of stdout in memory, so a 200 MB patch could not be streamed to disk.
 * The hardening it offers (refusing program-running config keys, stripping ambient GIT_*) is done
 * here by construction: the child's environment is built from scratch and every program-running
 * key is switched off in the config of command scope we pass.
 */

let spawned = 0;

/** How many git processes this process has started so far (tests use it to prove that work is batched). */
export function gitCallCount(): number {
  return spawned;
}

/** Runs one git command with the hardened environment and configuration; stdout as UTF-8 text. */
export async function runGit(
  opts: GitOptions,
  args: readonly string[],
  run: RunOptions = {},
): Promise<GitResult<string>> {
  const result = await runGitBuffer(opts, args, run);
  return { stdout: result.stdout.toString('utf8'), exitCode: result.exitCode };
}

/** Like runGit, but returns stdout as raw bytes (object contents, `-z` output with arbitrary names). */
export async function runGitBuffer(
  opts: GitOptions,
  args: readonly string[],
  run: RunOptions = {},
): Promise<GitResult<Buffer>> {
  const chunks: Buffer[] = [];
  const exitCode = await spawnGit(opts, args, run, async (stdout) => {
    for await (const chunk of stdout) chunks.push(chunk as Buffer);
  });
  return { stdout: Buffer.concat(chunks), exitCode };
}

/**
 * Runs git with its stdout streamed into a new file, for output that can be hundreds of MB
 * (patches), never held in memory. Both git's exit code and every write are checked (git's own
 * `--output` ignores write errors: a full disk would give a truncated patch and exit 0).
 * With `maxBytes`, git is stopped once its output passes that size: OUTPUT_TOO_LARGE.
 * Returns the number of bytes written.
 */
export async function runGitToFile(
  opts: GitOptions,
  args: readonly string[],
  file: string,
  limit: { maxBytes?: number } = {},
): Promise<number> {
  const out = createWriteStream(file, { flags: 'wx', mode: 0o644 });
  await spawnGit(opts, args, {}, (stdout) =>
    pipeline(stdout, byteLimit(limit.maxBytes ?? Infinity, file), out).catch((cause: unknown) => {
      if (cause instanceof OutputTooLargeError) throw cause;
      throw new WriteFailedError(
        `could not write ${file} (${errnoText(cause)}); check free space and permissions`,
        { cause, details: { path: file } },
      );
    }),
  );
  return out.bytesWritten;
}

/** Passes bytes through until more than `maxBytes` went by, then fails (git is stopped, the file removed). */
function byteLimit(maxBytes: number, file: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen <= maxBytes) done(null, chunk);
      else
        done(
          new OutputTooLargeError(`${file} would be larger than ${maxBytes} bytes`, {
            details: { path: file, maxBytes },
          }),
        );
    },
  });
}

/**
 * Runs git with its stdout handed to `consume` as a stream (e.g. hashed chunk by chunk), for
 * output too large to hold. A failure thrown by `consume` stops git and is rethrown.
 */
export async function runGitStream(
  opts: GitOptions,
  args: readonly string[],
  consume: (stdout: Readable) => Promise<unknown>,
  run: RunOptions = {},
): Promise<number> {
  return spawnGit(opts, args, run, consume);
}

/**
 * The one place git is started: explicit environment, hardening config, location options,
 * timeout, stdin, and a verdict on the exit code alone. `consume` reads stdout; if it fails (a
 * write error), git is stopped and that error is thrown.
 */
async function spawnGit(
  opts: GitOptions,
  args: readonly string[],
  run: RunOptions,
  consume: (stdout: Readable) => Promise<unknown>,
): Promise<number> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_GIT_TIMEOUT_MS;
  // A longer timer fires at once (Node's limit): every git call would fail as timed out.
  const tooLong = timeoutProblem(timeoutMs, 'the git timeout (gitTimeoutMs)');
  if (tooLong !== null) throw new InvalidArgumentError(tooLong, { details: { gitTimeoutMs: timeoutMs } });
  spawned += 1;
  const signal =
    opts.signal === undefined
      ? AbortSignal.timeout(timeoutMs)
      : AbortSignal.any([AbortSignal.timeout(timeoutMs), opts.signal]);
  const safeDirectories = run.withoutUserSettings ? [] : (await userSettings()).safeDirectories;
  // Passed in the environment, key and value apart (buildEnv): `-c` splits at the first `=`, so a
  // driver named `x=y` would be left running.
  const config = [...HARDENING_CONFIG, ...safeDirectories, ...(opts.config ?? [])];
  const fullArgs = [...locationArgs(opts), ...args];
  // A remote URL's credentials are kept out of every error (git/url-credentials.ts).
  const details = { args: fullArgs.map(hideCredentials), cwd: opts.cwd };
  // Under a caller's time budget (an agent hook), git runs in a process group of its own, and the
  // whole group is stopped when the budget runs out: `repack` and `gc` start further git processes
  // that would outlive it, and would write the store beside the next call that takes its lock.
  const budgeted = opts.signal !== undefined;
  const child = spawn(opts.binary ?? 'git', fullArgs, {
    cwd: opts.cwd,
    env: buildEnv(opts.identity ?? DEFAULT_IDENTITY, opts.indexFile, config),
    stdio: [run.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    signal,
    detached: budgeted,
  });
  if (budgeted) stopGroupOnAbort(child, signal);
  // Kept as bytes and decoded once whole: a name in git's message that is not UTF-8 keeps its bytes.
  const stderrChunks: Buffer[] = [];
  let stderrBytes = 0;
  child.stderr?.on('data', (chunk: Buffer) => {
    if (stderrBytes >= 65_536) return;
    stderrChunks.push(chunk);
    stderrBytes += chunk.length;
  });
  if (child.stdin) {
    // git may exit before reading all of its input (e.g. on a bad revision); that is not our error.
    child.stdin.on('error', () => undefined);
    if (typeof run.input === 'string' || Buffer.isBuffer(run.input)) child.stdin.end(run.input);
    else if (run.input !== undefined) void feed(child.stdin, run.input);
  }
  const exited = new Promise<number>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code ?? -1));
  });
  let consumeError: unknown = null;
  const consumed = consume(child.stdout as Readable).catch((error: unknown) => {
    consumeError = error;
    child.kill();
  });
  let exitCode: number;
  try {
    [exitCode] = await Promise.all([exited, consumed]);
  } catch (cause) {
    // git is stopped, but a program it started (ssh, a remote helper) may still hold its pipes
    // open: closed here, or this process would wait for that program before it could exit.
    for (const stream of [child.stdin, child.stdout, child.stderr]) stream?.destroy();
    if (opts.signal?.aborted === true) {
      throw new GitTimeoutError(`git ${args[0] ?? ''} was stopped: the caller's time budget ran out`, {
        cause,
        details,
      });
    }
    if (signal.aborted) {
      throw new GitTimeoutError(
        `git ${args[0] ?? ''} did not finish within ${timeoutMs} ms and was stopped; raise gitTimeoutMs in config.yaml if the repository is very large`,
        { cause, details: { ...details, timeoutMs } },
      );
    }
    if ((cause as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new GitNotFoundError('git was not found on PATH; install git (2.38 or newer) and try again', {
        cause,
        details,
      });
    }
    throw new GitFailedError(`could not run git ${args[0] ?? ''}: ${(cause as Error).message}`, {
      cause,
      details,
    });
  }
  if (consumeError !== null) throw consumeError;
  if (exitCode !== 0 && !(run.okExitCodes ?? []).includes(exitCode)) {
    const stderr = hideCredentials(decodeBytes(Buffer.concat(stderrChunks)).trim());
    throw gitFailure(args, exitCode, stderr, { ...details, exitCode, stderr });
  }
  if (run.onStderr !== undefined && stderrChunks.length > 0)
    run.onStderr(decodeBytes(Buffer.concat(stderrChunks)));
  return exitCode;
}

/** On `signal`, SIGTERM to the child's whole process group (it leads one: spawned detached), until it has exited. */
function stopGroupOnAbort(child: ChildProcess, signal: AbortSignal): void {
  const stop = () => {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    } catch {
      // The group is gone already.
    }
  };
  if (signal.aborted) return stop();
  signal.addEventListener('abort', stop, { once: true });
  child.once('close', () => signal.removeEventListener('abort', stop));
}

/** Writes what `input` yields to git's stdin, waiting when the pipe is full, then closes it. */
async function feed(stdin: Writable, input: AsyncIterable<string | Buffer>): Promise<void> {
  try {
    for await (const chunk of input) {
      if (stdin.destroyed) break;
      if (!stdin.write(chunk)) await Promise.race([once(stdin, 'drain'), once(stdin, 'close')]);
    }
  } catch {
    // The source failed: git answers what it was given; the caller sees the source's own error.
  } finally {
    stdin.end();
  }
}

/** What we read of the user's own system and global config, on purpose (see userSettings). */
interface UserSettings {
  /** `safe.directory=<value>` pairs, every value. */
  safeDirectories: string[];
  /** The settings that decide what a file's content is to git, the last value of each (see userContentConfig). */
  content: Map<string, string>;
}

/** The keys of UserSettings.content (git prints them in lower case). */
export const USER_CONTENT_PATTERN = '^core\\.(autocrlf|eol|excludesfile|attributesfile)$';

let userSettingsRead: Promise<UserSettings> | undefined;

/**
 * A few settings of the user's own system and global config, read once per process; our calls
 * ignore those files otherwise. `safe.directory`: git refuses a repository owned by another user
 * (the usual case in container CI jobs) unless the user allowed it. The content settings: see
 * userContentConfig.
 */
function userSettings(): Promise<UserSettings> {
  userSettingsRead ??= (async () => {
    const { system, global } = userConfigFiles();
    // git parses only a file that names a key or an include (followed, as the user's git follows
    // them; a condition on a repository is false here): one without these words cannot set them,
    // and most do not. Read synchronously: a few small files, once per
    // process, and this is the first git call's path, where a thread-pool round trip per step
    // cost about 5 ms more (measured).
    const perFile = await Promise.all(
      [...system, ...global].map(async (file) => {
        const text = readTextOrEmpty(file);
        if (!/directory|autocrlf|eol|excludesfile|attributesfile|include/i.test(text)) return [];
        const res = await runGit(
          { cwd: '/' },
          [
            'config',
            '--file',
            file,
            '--includes',
            '-z',
            '--get-regexp',
            `^safe\\.directory$|${USER_CONTENT_PATTERN}`,
          ],
          { okExitCodes: [1], withoutUserSettings: true },
        ).catch(() => null);
        return res?.exitCode === 0 ? parseConfigEntries(res.stdout) : [];
      }),
    );
    const safeDirectories: string[] = [];
    const content = new Map<string, string>();
    for (const { key, value } of perFile.flat()) {
      if (key === 'safe.directory') safeDirectories.push(`safe.directory=${value}`);
      else content.set(key, value);
    }
    return { safeDirectories, content };
  })();
  return userSettingsRead;
}

/**
 * The user's `core.autocrlf`, `core.eol`, `core.excludesFile` and `core.attributesFile`, as `-c`
 * pairs, for the keys the repository does not set itself (`repoKeys`, asked only when there is
 * something to add; a repository's own value wins, as in git). They decide what the user's own
 * git takes a file's content to be: without them a workspace `git status` calls clean is dirty
 * to us (CRLF files under a global autocrlf), and a secret the user's global ignore file keeps out
 * (a `.env`) is committed. Only run snapshots use them: checkpoints are byte-exact and mirror the
 * ignore file themselves.
 */
export async function userContentConfig(repoKeys: () => Promise<ReadonlySet<string>>): Promise<string[]> {
  const wanted = new Map((await userSettings()).content);
  // git's default ignore and attributes files follow $XDG_CONFIG_HOME, which our calls do not pass on.
  const xdg = process.env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg))
    for (const [key, name] of [
      ['core.excludesfile', 'ignore'],
      ['core.attributesfile', 'attributes'],
    ] as const)
      if (!wanted.has(key)) wanted.set(key, join(xdg, 'git', name));
  if (wanted.size === 0) return [];
  const own = await repoKeys();
  return [...wanted].filter(([key]) => !own.has(key)).map(([key, value]) => `${key}=${value}`);
}

function readTextOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

function locationArgs(opts: GitOptions): string[] {
  const out: string[] = [];
  if (opts.gitDir !== undefined) out.push(`--git-dir=${opts.gitDir}`);
  if (opts.workTree !== undefined) out.push(`--work-tree=${opts.workTree}`);
  return out;
}

function errnoText(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException).code;
  return typeof code === 'string' ? code : String(cause);
}
