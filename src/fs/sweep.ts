import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { TEMP_NAME } from './atomic.js';
import { isProcessGone, isProvablyDead, readOwner } from './lock.js';

/**
 * Temp-file sweeping, in one place. Only files we create are ever removed, and only when their
 * owner cannot still be writing them: its pid is gone, or the file is older than TEMP_SWEEP_AGE_MS
 * (longer than any of our writes can take).
 */
/** Longer than any write of ours takes: a temp file this old has no writer left. */
export const TEMP_SWEEP_AGE_MS = 60 * 60 * 1000;

/**
 * Sweeps the directories under `root` that come with an owner lock beside them (`<name>.lock`,
 * lock.ts): a directory and its lock go when the lock's owner is provably dead, or, with no
 * owner to read, when the entry is older than TEMP_SWEEP_AGE_MS. `ours` says which names are
 * ours; `remove` removes one directory. Returns the removed directories.
 */
export async function sweepOwnedDirs(
  root: string,
  ours: (name: string) => boolean,
  remove: (dir: string) => Promise<void> | void,
): Promise<string[]> {
  const names = await listDir(root);
  const removed: string[] = [];
  for (const name of names) {
    const base = name.endsWith('.lock') ? name.slice(0, -'.lock'.length) : name;
    // A directory with its lock is judged once, through the lock.
    if (!ours(base) || (name === base && names.includes(`${name}.lock`))) continue;
    const path = join(root, name);
    const owner = name === base ? null : await readOwner(path);
    const info = owner === null ? await stat(path).catch(() => null) : null;
    const gone =
      owner === null
        ? info !== null && Date.now() - info.mtimeMs >= TEMP_SWEEP_AGE_MS
        : isProvablyDead(owner);
    if (!gone) continue;
    await remove(join(root, base));
    await rm(join(root, `${base}.lock`), { force: true });
    removed.push(join(root, base));
  }
  return removed;
}

export interface SweepOptions {
  /** Which names are ours; the first capture group is the owner's pid. Default: atomic.ts's TEMP_NAME. */
  pattern?: RegExp;
}

/** Removes our temp files (default: atomic writes, `.<name>.<pid>.<hex>.tmp`) from `dir`. Returns the removed paths. */
export async function sweepTempFiles(dir: string, opts: SweepOptions = {}): Promise<string[]> {
  const removed: string[] = [];
  for (const name of await listDir(dir)) {
    const m = (opts.pattern ?? TEMP_NAME).exec(name);
    if (m === null) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => null);
    if (info === null) continue;
    const pid = Number(m[1]);
    if ((pid !== process.pid && isProcessGone(pid)) || Date.now() - info.mtimeMs >= TEMP_SWEEP_AGE_MS) {
      await rm(path, { force: true });
      removed.push(path);
    }
  }
  return removed;
}

/** Names git gives to half-written packs and objects: left behind only when a process died mid-write. */
const GIT_TEMPORARY = /^(tmp_pack_|tmp_idx_|tmp_rev_|tmp_mtimes_|\.tmp-|tmp_obj_|sharedindex_)/;

/**
 * Removes git's temporary packs and objects (`objects/pack/tmp_pack_*`, `.tmp-*`, loose `tmp_obj_*`),
 * half-written shared indexes (`sharedindex_*`) and a stale `gc.pid` from a git dir only we use. Only safe while holding our lock, when no git
 * process of ours is writing. Returns the removed paths.
 */
export async function sweepGitTemporaries(gitDir: string): Promise<string[]> {
  const removed: string[] = [];
  const objects = join(gitDir, 'objects');
  const dirs = [
    gitDir,
    objects,
    join(objects, 'pack'),
    ...(await listDir(objects)).filter((n) => /^[0-9a-f]{2}$/.test(n)).map((n) => join(objects, n)),
  ];
  for (const dir of dirs) {
    for (const name of await listDir(dir)) {
      if (!GIT_TEMPORARY.test(name)) continue;
      const path = join(dir, name);
      await rm(path, { force: true, recursive: true });
      removed.push(path);
    }
  }
  await rm(join(gitDir, 'gc.pid'), { force: true });
  return removed;
}

async function listDir(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
