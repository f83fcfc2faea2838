/**
 * `gate --isolated`: a temporary checkout of exactly one tree under `<home>/tmp/gates/<name>/`,
 * made through a private index (src/git/checkout-tree.ts), so the workspace, its index, HEAD and
 * branches are never touched. Each checkout is owned through a lock file beside it
 * (`<name>.lock`, our pid and start time); a checkout whose owner was killed (SIGKILL gives no
 * chance to clean up) is swept by the next gate, isolated or not.
 */
import { rmSync } from 'node:fs';
import { realpath, rm, writeFile } from 'node:fs/promises';
import { basename, delimiter, dirname, join, resolve } from 'node:path';
import { withLock } from '../fs/lock.js';
import { sweepOwnedDirs } from '../fs/sweep.js';
import { checkoutTreeInto } from '../git/checkout-tree.js';
import { isInside, type Repo } from '../git/repo.js';
import { randomHex } from '../fs/random.js';
import { makeDirs } from '../fs/make-dirs.js';
import { commandEnv } from '../process/user-command.js';

const CHECKOUT_NAME = /^[0-9a-f]{16}$/;

/** Runs `fn` in a fresh checkout of `tree` under `root`, and removes the checkout afterwards. */
export async function withIsolatedCheckout<T>(
  repo: Repo,
  tree: string,
  root: string,
  fn: (dir: string) => Promise<T>,
): Promise<T> {
  await sweepIsolatedCheckouts(root);
  const base = join(root, randomHex(8));
  // The lock exists before the directory and outlives it: a sweeper never sees an unowned checkout of a live call.
  return withLock(`${base}.lock`, { timeoutMs: 0, purpose: 'isolated gate checkout' }, async () => {
    try {
      const dir = join(base, 'tree');
      await makeDirs(dir);
      await barrierIfUnnamable(dir);
      await checkoutTreeInto(repo, tree, dir, join(base, 'index'));
      return await fn(dir);
    } finally {
      removeTree(base);
    }
  });
}

/**
 * Removes the checkouts under `root` whose owner is provably dead (or, with no readable owner,
 * that are older than any call lasts), and their lock files. Returns the removed checkouts.
 */
export function sweepIsolatedCheckouts(root: string): Promise<string[]> {
  return sweepOwnedDirs(root, (name) => CHECKOUT_NAME.test(name), removeTree);
}

/**
 * Best effort: a check may leave files we cannot remove (a read-only directory it made); what is
 * left is swept by a later call once this process is gone.
 */
function removeTree(path: string): void {
  // Synchronous: Node's rmSync is native, about 2.5x faster than fs.promises.rm on a 1,000-file checkout.
  try {
    rmSync(path, { recursive: true, force: true, maxRetries: 2 });
  } catch {
    // left for the sweep
  }
}

/** What a `.git` file beside the checkout names: a path that cannot exist (under a device). */
const NO_REPOSITORY = 'gitdir: /dev/null/agentgate-isolated-checkout-has-no-repository\n';

/**
 * GIT_CEILING_DIRECTORIES is a list split at every `path.delimiter` (`:`), with no escape: a checkout
 * whose parent's path holds one (a home named `.ag:ci`) cannot be named in it, and git run by the
 * check would search up past the checkout, into the repository the home lies in (the workspace).
 * There, a `.git` file in the parent that names no repository stops the search instead: git says
 * "not a git repository" (even for what works outside one, such as `git diff --no-index`).
 */
async function barrierIfUnnamable(dir: string): Promise<void> {
  if (dirname(dir).includes(delimiter))
    await writeFile(join(dirname(dir), '.git'), NO_REPOSITORY, { flag: 'wx' });
}

/**
 * The check's environment in the isolated checkout `dir`: the caller's, except that git finds no
 * repository around it (runUserCommand drops the caller's GIT_DIR and the like, as for every command). The checkout is no repository, and the home holding it may lie inside one
 * (a home in the workspace, or a home directory kept in git): a check's `git stash -u`, `git add -A`
 * or `git reset --hard` would reach that repository, and `git ls-files` would answer for it.
 */
export function isolatedEnv(dir: string): NodeJS.ProcessEnv {
  const env = commandEnv(process.env);
  const ceilings = env.GIT_CEILING_DIRECTORIES;
  env.GIT_CEILING_DIRECTORIES = [dirname(dir), ...(ceilings ? [ceilings] : [])].join(delimiter);
  return env;
}

/**
 * A report committed in the tree is no report of this run: only what the check writes counts, so
 * the checkout's copies go first. Only inside the checkout, through real paths: a fetched
 * verdict's paths are untrusted, and the tree may hold symbolic links pointing out of it.
 */
export async function removeCommittedReports(dir: string, junit: readonly string[]): Promise<void> {
  const root = await realpath(dir);
  for (const file of junit) {
    const path = resolve(root, file);
    const parent = await realpath(dirname(path)).catch(() => null);
    if (parent !== null && isInside(root, parent))
      await rm(join(parent, basename(path)), { force: true }).catch(() => undefined);
  }
}
