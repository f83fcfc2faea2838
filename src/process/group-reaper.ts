/**
 * A user's command in a process group of its own outlives us when we are killed with SIGKILL (no
 * handler runs, and the group is no child of our terminal's): a killed `gate` left its check
 * running, editing the workspace or an isolated checkout that the next call sweeps. A watcher in a
 * session of its own holds a pipe from us: at our normal end we tell it so; when we die any other
 * way the pipe closes unsaid, and it ends the group (SIGTERM, then SIGKILL after a grace).
 */
import { spawn } from 'node:child_process';

export interface GroupReaper {
  /** The group to end should we die: given as soon as the command has started. */
  watch(pgid: number): void;
  /** The group ended as it should (or never started): the watcher leaves it alone and exits. */
  release(): void;
}

/** How long the group gets between SIGTERM and SIGKILL (as for a timeout). */
const GRACE_SECONDS = 2;

/**
 * Reads the group id, then waits for a line: `done`, or the end of the pipe (we died) and then
 * the group is ended. POSIX sh: `kill -s SIG -- -PGID` names a process group.
 */
const WATCHER = `read g || exit 0
read s
[ "$s" = done ] && exit 0
kill -s TERM -- "-$g" 2>/dev/null || exit 0
sleep ${GRACE_SECONDS}
kill -s KILL -- "-$g" 2>/dev/null
exit 0`;

const NONE: GroupReaper = { watch: () => undefined, release: () => undefined };

/**
 * A watcher, started before the command so that the group is watched from the moment it exists (a
 * call killed just after starting the command would otherwise leave it unwatched); never throws.
 */
export function groupReaper(): GroupReaper {
  if (process.platform === 'win32') return NONE;
  try {
    const watcher = spawn('/bin/sh', ['-c', WATCHER], {
      stdio: ['pipe', 'ignore', 'ignore'],
      // A session of its own: neither a terminal's Ctrl-C nor its hang-up ends it before us.
      detached: true,
      windowsHide: true,
    });
    const pipe = watcher.stdin;
    // A watcher that could not start or died (EPIPE) watches nothing: the command runs on regardless.
    watcher.on('error', () => undefined);
    pipe?.on('error', () => undefined);
    // Neither keeps us alive: the pipe is only there to close when we end.
    watcher.unref();
    (pipe as unknown as { unref?: () => void } | null)?.unref?.();
    return {
      watch: (pgid) => pipe?.write(`${pgid}\n`),
      release: () => pipe?.end('done\n'),
    };
  } catch {
    return NONE;
  }
}
