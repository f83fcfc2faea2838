import { lstat, rename, rmdir } from 'node:fs/promises';
import { join } from 'node:path';
import { StoreMeta } from '../../types/checkpoint.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { makeDirs } from '../fs/make-dirs.js';
import { readRegularText } from '../fs/regular-file.js';
import { listDir, locateStore, storeLayout, storeOf, type StoreLocation } from './project-id.js';

/**
 * A workspace moved or renamed (`mv`, `git worktree move`) keeps its checkpoints. A store is found
 * by the work tree's path (project-id.ts), so a moved workspace found none, and its next track
 * started an empty store beside the old one. Each store records in `store.json` the identity of
 * its workspace directory (`workspaceId`: device, inode and birth time, which a rename keeps and
 * a copy or a new clone does not). When a workspace has no store of its own, a store of its
 * project (or one named by its path: outside git, or before a repository's first commit) whose
 * recorded workspace is gone, or is now another directory, and whose identity is this
 * directory's, is taken along: its `store.json` names the new path, then its directory is renamed
 * to the new path's key. Stores made before the identity was recorded cannot be told from another
 * workspace's, and stay where they are.
 */

/**
 * `<device>:<inode>:<birth time in ns>` of the directory at `path`; null when there is none. The
 * birth time tells a directory from a later one that reuses a removed one's inode (0 where the
 * file system keeps none).
 */
export async function workspaceIdentity(path: string): Promise<string | null> {
  const st = await lstat(path, { bigint: true }).catch(() => null);
  return st?.isDirectory() === true ? `${st.dev}:${st.ino}:${st.birthtimeNs}` : null;
}

type Meta = StoreMeta & { workspaceId: string };

/** The store's `store.json` when it reads and names its workspace's identity, else null. */
async function readMeta(location: StoreLocation): Promise<Meta | null> {
  try {
    const read = StoreMeta.safeParse(JSON.parse((await readRegularText(location.metaFile)) ?? 'null'));
    const id = read.success ? read.data.workspaceId : null;
    return read.success && typeof id === 'string' ? { ...read.data, workspaceId: id } : null;
  } catch {
    return null;
  }
}

/**
 * Moves the store of the workspace now at `root` (a real path) to `target`, the location a new
 * store of it would take, when that workspace was moved here; returns `target` then, else null.
 */
export async function adoptMovedStore(
  checkpointsDir: string,
  target: StoreLocation,
  root: string,
): Promise<StoreLocation | null> {
  const id = await workspaceIdentity(root);
  if (id === null) return null;
  // A store named by its path (outside git, or made before a repository's first commit) may be in
  // any `path-` project; one of a repository's own is in its project. An inode reused without a
  // birth time is no proof where no project narrows the search.
  const own = target.projectId.startsWith('path-') ? [] : [target.projectId];
  const byPath = id.endsWith(':0')
    ? []
    : (await listDir(checkpointsDir)).filter((p) => p.startsWith('path-'));
  const projects = [...own, ...byPath];
  const found: Array<{ location: StoreLocation; meta: Meta }> = [];
  for (const projectId of projects)
    for (const key of await listDir(join(checkpointsDir, projectId))) {
      if (!key.startsWith('wt-') || (projectId === target.projectId && key === target.worktreeKey)) continue;
      const location = storeLayout(checkpointsDir, projectId, key);
      const meta = await readMeta(location);
      if (meta === null || meta.workspaceId !== id) continue;
      // Still there (a bind mount, the same directory by another name): not moved.
      if (meta.workspace !== root && (await workspaceIdentity(meta.workspace)) === id) continue;
      found.push({ location, meta });
    }
  if (found.length !== 1) return null;
  const { location, meta } = found[0] as { location: StoreLocation; meta: Meta };
  // Named first, moved second: a call that finds it half done (named, not moved) takes it the same way.
  try {
    await writeJsonAtomic(location.metaFile, { ...meta, workspace: root, projectId: target.projectId });
    await makeDirs(join(checkpointsDir, target.projectId));
    await rename(location.dir, target.dir);
  } catch {
    // Another call moved it first, or a store appeared at the new path meanwhile: use what is there.
    return (await storeOf(target, root)) === 'none' ? null : target;
  }
  if (location.projectId !== target.projectId)
    await rmdir(join(checkpointsDir, location.projectId)).catch(() => undefined);
  return target;
}

/** locateStore, then a moved store taken along when the work tree at `root` has none (adoptMovedStore). */
export async function locateOrAdopt(
  checkpointsDir: string,
  root: string,
  rootCommit: () => Promise<string | null>,
): Promise<StoreLocation> {
  const location = await locateStore(checkpointsDir, root, rootCommit);
  if ((await storeOf(location, root)) !== 'none') return location;
  return (await adoptMovedStore(checkpointsDir, location, root)) ?? location;
}
