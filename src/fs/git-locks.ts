import { readdir, readFile, readlink, rm, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

/**
 * Stale git lock recovery, in one place. git takes `<file>.lock` before changing the index, HEAD,
 * packed-refs or a loose ref, and a git killed half-way leaves it behind, refusing every later call.
 * Such a file is provably ours, and dead, only when our own lock's previous holder died while
 * holding it: call this from a lock takeover (LockHandle.recovered), never otherwise.
 */
export interface OrphanedLocks {
  gitDir: string;
  /** The index file git used (a private index for a checkpoint store); default `<gitDir>/index`. */
  indexFile?: string;
  /**
   * When the dead holder took our lock (ms since the epoch). A lock file older than that belongs to
   * someone else (the user's own git) and is left alone; 0 when nobody else ever uses this git dir.
   */
  ownerSince: number;
}

/** Removes git's lock files that a dead holder of our lock left behind. Returns the removed paths. */
export async function removeOrphanedGitLocks(o: OrphanedLocks): Promise<string[]> {
  if (!Number.isFinite(o.ownerSince)) return [];
  const common = await commonDir(o.gitDir);
  const refLocks = (await readdir(join(common, 'refs'), { recursive: true }).catch(() => []))
    .filter((name) => name.endsWith('.lock'))
    .map((name) => join(common, 'refs', name));
  const candidates = [
    `${o.indexFile ?? join(o.gitDir, 'index')}.lock`,
    join(o.gitDir, 'HEAD.lock'),
    join(common, 'packed-refs.lock'),
    ...refLocks,
  ];
  const removed: string[] = [];
  for (const path of candidates) {
    const info = await stat(path).catch(() => null);
    // One second of slack for filesystems with coarse timestamps.
    if (info?.isFile() && info.mtimeMs >= o.ownerSince - 1000) {
      await rm(path, { force: true });
      removed.push(path);
    }
  }
  return removed;
}

/**
 * Removes one lock file older than `olderThanMs`. For a git dir only we use, while holding our
 * lock: a git call of ours times out sooner than that, so its owner was killed.
 */
export async function removeLockOlderThan(path: string, olderThanMs: number): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  if (info === null || Date.now() - info.mtimeMs < olderThanMs) return false;
  await rm(path, { force: true });
  return true;
}

/** The repository's common dir, where refs live: a linked worktree's git dir names it in its `commondir` file. */
export async function commonDir(gitDir: string): Promise<string> {
  const named = (await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => '')).trim();
  if (named === '') return gitDir;
  return isAbsolute(named) ? named : join(gitDir, named);
}

/** How long a lock with no holder must stay before it counts as abandoned (git renames it away at once). */
const LOCK_SETTLE_MS = 300;

/**
 * A lock file no process holds open and that does not go away by itself was left by a git that
 * died (a crash, a killed job): it is removed. 'held' when a live process has it open or nobody
 * can tell (no /proc): such a lock is never taken.
 */
export async function removeAbandonedLock(path: string): Promise<'absent' | 'removed' | 'held'> {
  if ((await stat(path).catch(() => null)) === null) return 'absent';
  for (const round of [0, 1]) {
    if (round === 1) await new Promise((resolve) => setTimeout(resolve, LOCK_SETTLE_MS));
    if ((await stat(path).catch(() => null)) === null) return 'absent';
    // git closes a lock file just before renaming it into place: only a lock that outlives a
    // moment with no holder is abandoned.
    if ((await openedBy(path)) !== 0) return 'held';
  }
  await rm(path, { force: true });
  return 'removed';
}

/** How many processes hold `path` open (Linux: /proc/<pid>/fd); -1 when that cannot be known. */
async function openedBy(path: string): Promise<number> {
  const pids = await readdir('/proc').catch(() => null);
  if (pids === null || (await stat('/proc/self/fd').catch(() => null)) === null) return -1;
  let holders = 0;
  for (const pid of pids) {
    if (!/^\d+$/.test(pid)) continue;
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    for (const fd of fds) {
      if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === path) {
        holders += 1;
        break;
      }
    }
  }
  return holders;
}
