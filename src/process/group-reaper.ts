/**
 * A user's command in a process group of its own outlives us when we are killed with SIGKILL (no
 * handler runs, and the group is no child of our terminal's): a killed `gate` left its check
 * running, editing the workspace or an isolated checkout that the next call sweeps. A watcher in a
 * session of its own holds a pipe from us: at our normal end we tell it so; when we die any other
 * way the pipe closes unsaid, and it ends the group and every process carrying the check's mark
 * (escapees.ts): SIGTERM, then SIGKILL after a grace.
 */
import { spawn } from 'node:child_process';
import { MARK_VARIABLE } from './escapees.js';

export interface GroupReaper {
  /** The group to end should we die: given as soon as the command has started. */
  watch(pgid: number): void;
  /** The group ended as it should (or never started): the watcher leaves it alone and exits. */
  release(): void;
}

/** How long the group gets between SIGTERM and SIGKILL (as for a timeout). */
const GRACE_SECONDS = 2;

/**
 * Given the mark line as $1, reads the group id, then waits for a line: `done`, or the end of the
 * pipe (we died), and then ends the group and every process that carries the mark (Linux `/proc`;
 * the mark alone when we died before the group id was written: the command may already run).
 * POSIX sh: `kill -s SIG -- -PGID` names a process group.
 */
const WATCHER = `m=$1
read g
read s
[ "$s" = done ] && exit 0
case $g in ''|0|*[!0-9]*) g= ;; esac
end() {
  [ -n "$g" ] && kill -s "$1" -- "-$g" 2>/dev/null
  for e in /proc/[0-9]*/environ; do
    tr '\\0' '\\n' < "$e" 2>/dev/null | grep -qxF -e "$m" || continue
    p=\${e#/proc/}
    kill -s "$1" "\${p%/environ}" 2>/dev/null
  done
}
end TERM
sleep ${GRACE_SECONDS}
end KILL
exit 0`;

const NONE: GroupReaper = { watch: () => undefined, release: () => undefined };

/**
 * A watcher, started before the command so that the group is watched from the moment it exists (a
 * call killed just after starting the command would otherwise leave it unwatched); never throws.
 */
export function groupReaper(mark: string): GroupReaper {
  if (process.platform === 'win32') return NONE;
  try {
    // The mark as an argument, not in its environment: the watcher is no process of the check.
    const watcher = spawn('/bin/sh', ['-c', WATCHER, 'agentgate-reaper', `${MARK_VARIABLE}=${mark}`], {
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
    let watched = false;
    return {
      watch: (pgid) => {
        watched = true;
        pipe?.write(`${pgid}\n`);
      },
      // Unwatched (the command never started), the group line is left empty.
      release: () => pipe?.end(watched ? 'done\n' : '\ndone\n'),
    };
  } catch {
    return NONE;
  }
}
