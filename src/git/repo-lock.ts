import { join } from 'node:path';
import { IndexLockedError } from '../errors.js';
import { orphanedGitLocks, removeAbandonedLock } from '../fs/git-locks.js';
import type { Repo } from './repo.js';
import { heldSince, withLock } from '../fs/lock.js';

/**
 * Serialises our calls on one repository across processes and homes: the lock lives in the
 * repository's own git dir, next to git's index.lock.
 *
 * If the previous holder died (SIGKILL, OOM), a git process of ours may have died with it and left
 * `index.lock` or a ref's `.lock` behind, wedging every later git call. Such a file is ours when it
 * was created while the dead owner held our lock (or an owner before it, dead too, whose lock it
 * took over: heldSince); it is removed once no process can own it. A kill
 * of node alone leaves its git children running (an orphaned `git add` still writing `index.lock`):
 * removing the lock of a live git would let it rename our own git's lock file over the index. Such
 * a lock is waited for up to the lock timeout, then INDEX_LOCKED, untouched. `fn` is told
 * whether the lock was taken over from a dead owner, so that it can finish what that owner left
 * half-done.
 */
export async function withRepoLock<T>(
  repo: Repo,
  timeoutMs: number,
  fn: (recovered: boolean) => Promise<T>,
): Promise<T> {
  return withLock(
    join(repo.gitDir, 'agentgate.lock'),
    { timeoutMs, purpose: `snapshot ${repo.topLevel}` },
    async (lock) => {
      if (lock.recovered) {
        const left = await orphanedGitLocks({
          gitDir: repo.gitDir,
          ownerSince: Date.parse(heldSince(lock.recovered)),
        });
        for (const path of left) await recoverLock(repo, path, timeoutMs);
      }
      await recoverLock(repo, join(repo.gitDir, 'index.lock'), timeoutMs);
      return fn(lock.recovered !== null);
    },
  );
}

/**
 * A git that died (the user's, one killed with its job, or ours with a killed holder of our lock)
 * may have left `index.lock` or a ref's `.lock` behind: removed when no process could own it. While
 * one could (a process holds it open, or a git runs in this repository, such as a `git commit`
 * waiting for its editor, or an orphaned git of a killed call still at work), we wait up to the lock
 * timeout, then INDEX_LOCKED before anything changes.
 */
async function recoverLock(repo: Repo, path: string, timeoutMs: number): Promise<void> {
  const found = await removeAbandonedLock(path, { workTree: repo.topLevel, gitDir: repo.gitDir }, timeoutMs);
  if (found !== 'held') return;
  throw new IndexLockedError(
    `${path} still exists after ${timeoutMs / 1000} s and may belong to a running git in this repository (for example a "git commit" waiting for its editor, or a git that a killed call of ours left running), or its owner cannot be checked on this system; let that git finish, then retry (remove the file only once no git runs)`,
    { details: { lock: path } },
  );
}
