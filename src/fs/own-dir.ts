import { lstat, mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { WriteFailedError } from '../errors.js';
import { errnoOf, fsyncDir, writeFileAtomic } from './atomic.js';
import { randomHex } from './random.js';
import { makeDirs } from './make-dirs.js';

/** What marks a directory as ours: git ignores everything in it, this file included (as pytest's cache and venv do). */
export const OWN_DIR_GITIGNORE = '# Made by agentgate-snapshot: its own data, never to be committed.\n*\n';

/**
 * Makes `dir` (and its parents) when it does not exist, holding a `.gitignore` of `*`, so that no
 * later call with other settings, no checkpoint and no `git add -A` of the user's ever takes it
 * into a commit when it lies inside a workspace. It is built beside its place and renamed into it
 * whole, so that it is never seen unmarked (a call killed half-way leaves a hidden `.making`
 * directory that git ignores as well). A directory already there is left as it is: it may be the
 * user's. Returns whether this call made it. WRITE_FAILED when it cannot be made.
 */
export async function makeOwnDir(dir: string): Promise<boolean> {
  if (await exists(dir)) return false;
  const parent = dirname(dir);
  const building = join(parent, `.${basename(dir)}.${process.pid}.${randomHex(6)}.making`);
  try {
    await makeDirs(parent);
    await mkdir(building);
    await writeFileAtomic(join(building, '.gitignore'), OWN_DIR_GITIGNORE);
    await rename(building, dir);
  } catch (cause) {
    await rm(building, { recursive: true, force: true }).catch(() => undefined);
    // Another process made it first (a rename onto a directory with files in it fails).
    if (await exists(dir)) return false;
    if (cause instanceof WriteFailedError) throw cause;
    throw new WriteFailedError(
      `could not create ${dir} (${errnoOf(cause)}); check that no file stands in its path, free space and permissions, then retry`,
      { cause, details: { path: dir } },
    );
  }
  await fsyncDir(parent);
  return true;
}

async function exists(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => null)) !== null;
}
