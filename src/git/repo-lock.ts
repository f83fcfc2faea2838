import { join } from 'node:path';
import { IndexLockedError } from '../errors.js';
import { removeAbandonedLock, removeOrphanedGitLocks } from '../fs/git-locks.js';
import type { Repo } from './repo.js';
import { withLock } from '../fs/lock.js';

/**
 * Serialises our calls on one repository across processes and homes: the lock lives in the
 * repository's own git dir, next to git's index.lock.
 *
 * If the previous holder died (SIGKILL, OOM), a git process of ours may have died with it and left
 * `index.lock` or a ref's `.lock` behind, wedging every later git call. Such a file is provably ours
 * when it was created while the dead owner held our lock; only then is it removed. `fn` is told
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
      if (lock.recovered)
        await removeOrphanedGitLocks({
          gitDir: repo.gitDir,
          ownerSince: Date.parse(lock.recovered.createdAt),
        });
      await recoverIndexLock(repo, timeoutMs);
      return fn(lock.recovered !== null);
    },
  );
}

/**
 * A git that died outside our lock (the user's, or one killed with its job) may have left
 * `index.lock` behind: removed when no process could own it. While one could (a process holds it
 * open, or a git runs in this repository, such as a `git commit` waiting for its editor), we wait up
 * to the lock timeout, then INDEX_LOCKED before anything changes.
 */
async function recoverIndexLock(repo: Repo, timeoutMs: number): Promise<void> {
  const path = join(repo.gitDir, 'index.lock');
  const found = await removeAbandonedLock(path, { workTree: repo.topLevel, gitDir: repo.gitDir }, timeoutMs);
  if (found !== 'held') return;
  throw new IndexLockedError(
    `${path} still exists after ${timeoutMs / 1000} s and may belong to a running git in this repository (for example a "git commit" waiting for its editor), or its owner cannot be checked on this system; let that git finish, then retry (remove the file only once no git runs)`,
    { details: { lock: path } },
  );
}
