import { randomBytes } from 'node:crypto';
import { copyFile, lstat, mkdir, readlink, rename, rm, symlink } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WriteFailedError } from '../../errors.js';
import { runGit } from '../runner.js';
import { splitNul, type TreeEntry } from './parse.js';
import type { ShadowStore } from './store.js';

/**
 * Writes the given blobs into the work tree with two processes whatever their number: the entries
 * go into a temporary index (`update-index --index-info`), then `checkout-index -a -f` writes
 * exactly those into a staging directory beside that index, and each file is renamed into place.
 * git writes a file in place (truncate, then write), so a process killed half-way would leave a
 * half-written file; a rename replaces a file whole or not at all. A rename never follows a symbolic
 * link: a link standing where a file goes is replaced. The store's own index is left alone, and a
 * staging directory that a killed process left behind goes with the rest of `tempDir`.
 */
export async function checkoutEntries(store: ShadowStore, entries: readonly TreeEntry[], tempDir: string): Promise<void> {
  if (entries.length === 0) return;
  await mkdir(tempDir, { recursive: true });
  const token = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const tempIndex = join(tempDir, `index-${token}`);
  const staging = join(tempDir, `files-${token}`);
  const temp: ShadowStore = { ...store, indexFile: tempIndex };
  try {
    const info = entries.map((e) => `${e.mode} ${e.type} ${e.oid}\t${e.path}\0`).join('');
    await runGit(temp, ['update-index', '-z', '--index-info'], { input: info });
    await runGit(temp, ['checkout-index', '-a', '-f', `--prefix=${staging}/`]);
    for (const e of entries) {
      const dest = join(store.workTree, ...e.path.split('/'));
      await moveIntoPlace(join(staging, ...e.path.split('/')), dest, token).catch((cause: unknown) => {
        const code = (cause as NodeJS.ErrnoException).code ?? String(cause);
        throw new WriteFailedError(`could not write ${dest} (${code}); check free space and permissions, then retry`, { cause, details: { path: dest } });
      });
    }
  } finally {
    await rm(tempIndex, { force: true });
    await rm(`${tempIndex}.lock`, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
}

/**
 * Renames a staged file (or symlink) over `dest`. Across filesystems (the home and the workspace
 * on different mounts) it is first copied beside `dest`, so that the last step is still a rename.
 */
async function moveIntoPlace(src: string, dest: string, token: string): Promise<void> {
  await mkdir(dirname(dest), { recursive: true });
  try {
    await rename(src, dest);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  const beside = `${dest}.agentgate-${token}.tmp`;
  try {
    if ((await lstat(src)).isSymbolicLink()) await symlink(await readlink(src), beside);
    else await copyFile(src, beside);
    await rename(beside, dest);
  } finally {
    await rm(beside, { force: true });
  }
}

/** The subset of `paths` that the workspace's ignore rules match, whether or not the store tracks them (one process). */
export async function ignoredPaths(store: ShadowStore, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const res = await runGit(store, ['check-ignore', '-z', '--stdin', '--no-index'], { input: paths.map((p) => `${p}\0`).join(''), okExitCodes: [1] });
  return new Set(splitNul(res.stdout));
}
