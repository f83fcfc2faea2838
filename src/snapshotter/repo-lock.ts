import { join } from 'node:path';
import { removeOrphanedGitLocks } from '../fs/git-locks.js';
import type { Repo } from '../git/repo.js';
import { withLock } from '../store/lock.js';

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
export async function withRepoLock<T>(repo: Repo, timeoutMs: number, fn: (recovered: boolean) => Promise<T>): Promise<T> {
  return withLock(join(repo.gitDir, 'agentgate.lock'), { timeoutMs, purpose: `snapshot ${repo.topLevel}` }, async (lock) => {
    if (lock.recovered) await removeOrphanedGitLocks({ gitDir: repo.gitDir, ownerSince: Date.parse(lock.recovered.createdAt) });
    return fn(lock.recovered !== null);
  });
}
