import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from '../runner.js';
import type { ShadowStore } from './store.js';

/**
 * Packs the store and drops unreachable objects older than `pruneAge` (a git date such as
 * `2.weeks.ago` or `now`). The caller holds the store lock and sweeps temporary files afterwards.
 */
export async function gcStore(store: ShadowStore, pruneAge: string): Promise<void> {
  await runGit(store, ['gc', '--quiet', `--prune=${pruneAge}`]);
}

/** Names git gives to half-written packs and objects: left behind only when a process died mid-write. */
const TEMPORARY = /^(tmp_pack_|tmp_idx_|tmp_rev_|tmp_mtimes_|\.tmp-|tmp_obj_)/;

/**
 * Removes temporary packs and objects (`objects/pack/tmp_pack_*`, `.tmp-*`, loose `tmp_obj_*`) and
 * a stale `gc.pid`. Only safe while holding the store lock, when no git process of ours is
 * writing. Returns the removed paths.
 */
export async function sweepTemporaryFiles(gitDir: string): Promise<string[]> {
  const removed: string[] = [];
  const objects = join(gitDir, 'objects');
  const dirs = [objects, join(objects, 'pack'), ...(await listDir(objects)).filter((n) => /^[0-9a-f]{2}$/.test(n)).map((n) => join(objects, n))];
  for (const dir of dirs) {
    for (const name of await listDir(dir)) {
      if (!TEMPORARY.test(name)) continue;
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
