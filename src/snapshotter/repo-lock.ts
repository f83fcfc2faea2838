import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
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
    if (lock.recovered) await removeOrphanedGitLocks(repo.gitDir, Date.parse(lock.recovered.createdAt));
    return fn(lock.recovered !== null);
  });
}

/** git's lock files that our calls can leave: the index, HEAD, packed refs and any loose ref. */
async function removeOrphanedGitLocks(gitDir: string, ownerSince: number): Promise<void> {
  if (!Number.isFinite(ownerSince)) return;
  const common = await commonDir(gitDir);
  const refLocks = (await readdir(join(common, 'refs'), { recursive: true }).catch(() => []))
    .filter((name) => name.endsWith('.lock'))
    .map((name) => join(common, 'refs', name));
  const candidates = [join(gitDir, 'index.lock'), join(gitDir, 'HEAD.lock'), join(common, 'packed-refs.lock'), ...refLocks];
  for (const path of candidates) {
    const info = await stat(path).catch(() => null);
    // A lock older than the dead owner's tenure belongs to someone else (the user's own git): leave it.
    if (info?.isFile() && info.mtimeMs >= ownerSince - 1000) await rm(path, { force: true });
  }
}

/** Where refs live: a linked worktree's git dir names the shared one in its `commondir` file. */
async function commonDir(gitDir: string): Promise<string> {
  const named = (await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => '')).trim();
  if (named === '') return gitDir;
  return isAbsolute(named) ? named : join(gitDir, named);
}
