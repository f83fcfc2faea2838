/**
 * The one place that starts the user's own commands: a gate's check and the agent under `iterate`.
 * (git is started only by src/git/runner.ts.) The command gets the caller's environment (less the
 * variables that tell git which repository to use: see `commandEnv`) and a working directory; we
 * never interpret its argv through a shell.
 */
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import type { Writable } from 'node:stream';
import { endMarked, MARK_VARIABLE, newMark } from './escapees.js';
import { groupReaper } from './group-reaper.js';

export interface UserCommandOptions {
  argv: readonly string[];
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /**
   * `inherit`: the command uses our stdin, stdout and stderr as they are (a terminal stays a
   * terminal); with `stdoutToStderr` its stdout is our stderr. `tee`: its output is piped, copied
   * to `echo` (stdout and stderr, or both to stderr with `stdoutToStderr`) and to `log`.
   */
  stdio: 'inherit' | 'tee';
  stdoutToStderr?: boolean;
  /** Where a teed command's output is kept whole, in the order it arrived. */
  log?: Writable;
  /** Echo targets of a teed command (default: process.stdout and process.stderr). */
  echo?: { stdout: Writable; stderr: Writable };
  /** Kill the command (its whole process group when `group`) after this long. */
  timeoutMs?: number;
  /**
   * Start the command in a process group of its own, so that a timeout or a forwarded signal
   * reaches everything it started. Off for an interactive agent: a background group cannot read
   * the terminal.
   */
  group?: boolean;
  /** Forward these signals we receive to the command while it runs. */
  forwardSignals?: readonly NodeJS.Signals[];
}

export interface UserCommandResult {
  /** Null when it was ended by a signal or never started. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** Until the command itself exited (not what outlived it: see `outlived`). */
  durationMs: number;
  timedOut: boolean;
  /** Set when the command could not start: `ENOENT` (not found), `EACCES` (not executable), ... */
  spawnError: NodeJS.ErrnoException | null;
  /** The signal we received and forwarded, if any. */
  forwarded: NodeJS.Signals | null;
  /**
   * A process the command started outside its group (`setsid`, a daemon) still held the output
   * pipes OUTLIVED_GRACE_MS after the command itself ended: we stopped reading and did not wait.
   */
  outlived: boolean;
}

/** How long a timed-out group gets between SIGTERM and SIGKILL. */
const KILL_GRACE_MS = 2_000;

/** How long the output pipes may stay open after the command itself ended (what is still in them is read). */
export const OUTLIVED_GRACE_MS = 2_000;

/** The first signal this process received and passed on to a user's command (see `receivedSignal`). */
let firstForwarded: NodeJS.Signals | null = null;

/**
 * The signal this process was sent while a command it forwards signals to ran, or null. Forwarding
 * keeps the process alive to record what the command did; a caller that would go on to other work
 * afterwards (`serve`'s next request) asks this and stops instead, as the signal asked.
 */
export function receivedSignal(): NodeJS.Signals | null {
  return firstForwarded;
}

/** The status a shell gives a process that `signal` ended: 128 + its number (143 for SIGTERM). */
export function signalExitStatus(signal: NodeJS.Signals): number {
  return 128 + (osConstants.signals[signal] ?? 0);
}

/**
 * What tells git which repository, work tree, index or object store to use. We judge (and capture)
 * the repository of the directory the command runs in, found as git finds it there; one of these
 * inherited from the caller (an orchestrator that exported GIT_DIR, a git hook's GIT_INDEX_FILE)
 * would send the command's `git status`, `git stash -u` or `git add -A` to another repository.
 */
export const REPOSITORY_VARIABLES = [
  'GIT_DIR',
  'GIT_WORK_TREE',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'GIT_COMMON_DIR',
  'GIT_NAMESPACE',
  'GIT_PREFIX',
  'GIT_QUARANTINE_PATH',
] as const;

/** The environment a user's command gets: `env` without REPOSITORY_VARIABLES. */
export function commandEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const name of REPOSITORY_VARIABLES) delete copy[name];
  return copy;
}

/** Runs the command to its end; never throws for anything the command itself does. */
export function runUserCommand(options: UserCommandOptions): Promise<UserCommandResult> {
  const started = performance.now();
  const [file, ...args] = options.argv;
  if (file === undefined || file === '') {
    const error = Object.assign(new Error('empty command'), { code: 'ENOENT' }) as NodeJS.ErrnoException;
    return Promise.resolve(notStarted(error, started));
  }
  const stdio: StdioOptions =
    options.stdio === 'inherit'
      ? ['inherit', options.stdoutToStderr ? process.stderr : 'inherit', 'inherit']
      : ['ignore', 'pipe', 'pipe'];
  return new Promise((resolve) => {
    let child: ChildProcess | null = null;
    let forwarded: NodeJS.Signals | null = null;
    const kill = (signal: NodeJS.Signals) => {
      if (child?.pid === undefined) return;
      try {
        if (options.group) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // Already gone.
      }
    };
    const forward = (signal: NodeJS.Signals) => {
      forwarded = signal;
      firstForwarded ??= signal;
      kill(signal);
    };
    // Listening before the command starts: a signal sent the moment it runs (by the command itself,
    // `kill $PPID`, or a CI cancel) would otherwise end us by default, unrecorded. Node runs the
    // listener once this synchronous start is over, when the command is there to receive it.
    for (const signal of options.forwardSignals ?? []) process.on(signal, forward);
    // A check's processes carry a mark, so that those that leave its group are found at its end.
    const mark = options.group === true ? newMark() : null;
    // Killed with SIGKILL, we could not end the group ourselves: a watcher does (see group-reaper.ts).
    const reaper = mark === null ? null : groupReaper(mark);
    try {
      child = spawn(file, args, {
        cwd: options.cwd,
        env: {
          ...commandEnv(options.env ?? process.env),
          ...(mark === null ? {} : { [MARK_VARIABLE]: mark }),
        },
        stdio,
        detached: options.group === true,
        windowsHide: true,
      });
    } catch (error) {
      // An argument Node refuses: nothing started, so nothing listens for it.
      for (const s of options.forwardSignals ?? []) process.off(s, forward);
      reaper?.release();
      throw error;
    }
    if (child.pid !== undefined) reaper?.watch(child.pid);
    let timedOut = false;
    let exited: { code: number | null; signal: NodeJS.Signals | null; at: number } | null = null;
    let outlived = false;
    let settled = false;
    let spawnError: NodeJS.ErrnoException | null = null;
    const timers: NodeJS.Timeout[] = [];
    if (options.timeoutMs !== undefined) {
      timers.push(
        setTimeout(() => {
          // The limit bounds the command, not a process that outlived it.
          if (exited !== null) return;
          timedOut = true;
          kill('SIGTERM');
          timers.push(setTimeout(() => kill('SIGKILL'), KILL_GRACE_MS).unref());
        }, options.timeoutMs),
      );
    }
    if (options.stdio === 'tee') tee(child.stdout, child.stderr, options);
    child.on('error', (error: NodeJS.ErrnoException) => {
      spawnError = error;
    });
    // A group may outlive its leader (a background job of the check): end it with the command.
    // At the leader's exit, not at 'close': a background job holding the output pipes open
    // would otherwise keep 'close' (and the caller) waiting for it. What it wrote is still read.
    const endGroup = () => {
      if (!options.group || child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Nothing left.
      }
    };
    const finish = (code: number | null, signal: NodeJS.Signals | null) => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      for (const s of options.forwardSignals ?? []) process.off(s, forward);
      endGroup();
      reaper?.release();
      const result: UserCommandResult =
        spawnError !== null
          ? notStarted(spawnError, started)
          : {
              exitCode: code,
              signal,
              // The command's own time: until it exited, not until a process it left behind let go of the pipes.
              durationMs: Math.round((exited?.at ?? performance.now()) - started),
              timedOut,
              spawnError: null,
              forwarded,
              outlived,
            };
      // What left the group goes too, before the caller looks at what the command did (escapees.ts).
      if (mark === null) resolve(result);
      else
        void endMarked(mark).then(
          () => resolve(result),
          () => resolve(result),
        );
    };
    child.on('exit', (code, signal) => {
      exited = { code, signal, at: performance.now() };
      endGroup();
      // A process in a session of its own (setsid) escapes the group kill and may hold the pipes for
      // ever: after a grace, stop reading them and report the command's own exit.
      timers.push(
        setTimeout(() => {
          outlived = true;
          child.stdout?.destroy();
          child.stderr?.destroy();
          finish(code, signal);
        }, OUTLIVED_GRACE_MS),
      );
    });
    child.on('close', (code, signal) => finish(exited?.code ?? code, exited?.signal ?? signal));
  });
}

/** Copies each output to its echo target and the log, pausing the command's pipe while either is full (bounded memory). */
function tee(
  stdout: NodeJS.ReadableStream | null,
  stderr: NodeJS.ReadableStream | null,
  options: UserCommandOptions,
): void {
  const echo = options.echo ?? { stdout: process.stdout, stderr: process.stderr };
  for (const target of [echo.stdout, echo.stderr]) survivingEcho(target);
  const route = (from: NodeJS.ReadableStream | null, to: Writable) => {
    from?.on('data', (chunk: Buffer) => {
      const targets = [options.log, to].filter((t): t is Writable => t !== undefined && !t.destroyed);
      const full = targets.filter((t) => !t.write(chunk));
      if (full.length === 0) return;
      from.pause();
      let waiting = full.length;
      for (const t of full) {
        const resume = () => {
          t.off('drain', resume);
          t.off('close', resume);
          if (--waiting === 0) from.resume();
        };
        t.on('drain', resume);
        t.on('close', resume);
      }
    });
  };
  route(stdout, options.stdoutToStderr ? echo.stderr : echo.stdout);
  route(stderr, echo.stderr);
}

const survived = new WeakSet<Writable>();

/**
 * An echo target that fails (a reader that went away: `gate ... 2>&1 | head`) must not end the
 * check: unheard, its error would kill us while the check runs on, unrecorded. It is destroyed, so
 * the echo skips it from then on; the log keeps the whole output. One listener per stream, kept:
 * a later write to it fails the same way.
 */
function survivingEcho(target: Writable): void {
  if (survived.has(target)) return;
  survived.add(target);
  target.on('error', () => undefined);
}

function notStarted(error: NodeJS.ErrnoException, started: number): UserCommandResult {
  return {
    exitCode: null,
    signal: null,
    durationMs: Math.round(performance.now() - started),
    timedOut: false,
    spawnError: error,
    forwarded: null,
    outlived: false,
  };
}
