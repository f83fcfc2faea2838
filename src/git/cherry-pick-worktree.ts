/**
 * The throw-away linked worktree a cherry-pick onto another branch runs in: made in the temporary
 * directory, owned through a lock file beside it (`<dir>.lock`: our pid and start time), removed
 * afterwards. A pick killed there (SIGKILL gives no chance to clean up) leaves the checkout and its
 * registration in the repository (`git worktree list`); the next cherry-pick sweeps them, and
 * what a kill before or after the worktree's life left in the temp directory.
 */
import { readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { InvalidArgumentError } from '../errors.js';
import { commonDir } from '../fs/git-locks.js';
import { isProvablyDead, readOwner, withLock } from '../fs/lock.js';
import { sweepOwnedDirs } from '../fs/sweep.js';
import { isInside, type Repo } from './repo.js';
import { runGit } from './runner.js';
import { makeTempDir } from '../fs/temp-dir.js';

const PREFIX = 'agentgate-pick-';
/** mkdtemp's name: the prefix and six characters. */
const PICK_NAME = /^agentgate-pick-[A-Za-z0-9]{6}$/;

/** Runs `fn` in a new linked worktree of `repo` detached at `sha`, and removes the worktree afterwards. */
export async function withPickWorktree<T>(
  repo: Repo,
  sha: string,
  fn: (path: string) => Promise<T>,
): Promise<T> {
  const dir = await makeTempDir(PREFIX);
  if (isInside(repo.topLevel, dir)) {
    await rm(dir, { recursive: true, force: true });
    throw new InvalidArgumentError(
      `the temp directory ${dir} is inside the workspace; set TMPDIR elsewhere`,
      {
        details: { tmpdir: dir },
      },
    );
  }
  // Named after the unique temp dir, so git's admin dir for it is unique too.
  const path = join(dir, basename(dir));
  // Taken before the worktree is registered, let go once it is removed: a sweeper that finds the
  // registration of a live pick finds its owner alive.
  return withLock(`${dir}.lock`, { timeoutMs: 0, purpose: 'cherry-pick worktree' }, async () => {
    let failure: unknown = null;
    try {
      await runGit(repo, ['worktree', 'add', '--detach', '--quiet', path, sha]);
      return await fn(path);
    } catch (error) {
      failure = error;
      throw error;
    } finally {
      await removeWorktree(repo, dir, path, failure !== null);
    }
  });
}

/**
 * Removes the pick worktrees registered in `repo` (any of its worktrees: the registrations live in
 * the common dir) whose owner is gone: a dead pid, or no owner at all (a version that kept none).
 * Only registrations of our own layout, `<tmp>/agentgate-pick-XXXXXX/agentgate-pick-XXXXXX`, are
 * looked at. Then the temp directory's unregistered leftovers (see sweepPickTemps). Returns the
 * removed worktrees' paths.
 */
export async function sweepPickWorktrees(repo: Repo): Promise<string[]> {
  const removed = await sweepRegistered(repo);
  await sweepPickTemps();
  return removed;
}

async function sweepRegistered(repo: Repo): Promise<string[]> {
  const admin = join(await commonDir(repo.gitDir), 'worktrees');
  const removed: string[] = [];
  for (const name of await readdir(admin).catch(() => [] as string[])) {
    if (!PICK_NAME.test(name)) continue;
    const gitFile = (await readFile(join(admin, name, 'gitdir'), 'utf8').catch(() => '')).trim();
    // A pick killed inside `worktree add` may leave the admin dir without its gitdir file: its
    // checkout is then where this process would have made it, and its lock must say it is dead.
    const path = gitFile === '' ? join(tmpdir(), name, name) : dirname(gitFile);
    if (basename(path) !== name || basename(dirname(path)) !== name) continue;
    const dir = dirname(path);
    const owner = await readOwner(`${dir}.lock`);
    if (owner === null ? gitFile === '' : !isProvablyDead(owner)) continue;
    await removeWorktree(repo, dir, path, true);
    await rm(`${dir}.lock`, { force: true }).catch(() => undefined);
    removed.push(path);
  }
  return removed;
}

/**
 * A pick killed before its worktree was registered or after it was removed leaves its directory or
 * its lock in the temp directory: removed when the lock's owner is dead, or, with no lock, when
 * older than any pick lasts. A directory still registered in another repository is that
 * repository's next pick's to unregister (its checkout gone, the registration goes).
 */
async function sweepPickTemps(): Promise<void> {
  await sweepOwnedDirs(
    tmpdir(),
    (name) => PICK_NAME.test(name),
    (dir) => rm(dir, { recursive: true, force: true }).catch(() => undefined),
  );
}

/**
 * Removes a pick worktree: `worktree remove`, then the directory and git's admin dir for it
 * (`<common dir>/worktrees/<name>`) in case removal failed half-way. Not `worktree prune`: that
 * would also drop the user's own worktrees that are merely unreachable (an unmounted drive).
 * A cleanup failure never hides the error that got us here (`quiet`).
 */
async function removeWorktree(repo: Repo, dir: string, path: string, quiet: boolean): Promise<void> {
  try {
    const admin = join(await commonDir(repo.gitDir), 'worktrees', basename(path));
    await runGit(repo, ['worktree', 'remove', '--force', '--force', path]).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
    await rm(admin, { recursive: true, force: true });
  } catch (error) {
    if (!quiet) throw error;
  }
}
