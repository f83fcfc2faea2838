import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { StoreMeta } from '../../types/checkpoint.js';
import { readRegularText } from '../fs/regular-file.js';
import { dirname, join } from 'node:path';

/**
 * Where one workspace's checkpoint store lives:
 *
 *     <home>/checkpoints/<projectId>/<worktreeKey>/
 *       git/         private git dir: objects, refs/checkpoints/*, config, info/attributes
 *       index        the persistent index (GIT_INDEX_FILE): repeated captures only re-stat files
 *       store.json   { workspace, projectId, createdAt, workspaceId }, written last when the store is created
 *                    (workspaceId: the directory's identity, which a move keeps: moved-store.ts)
 *       upkeep.json  what automatic packing and pruning did last (upkeep.ts)
 *       probe.json   what git said about the workspace, with the stamps that keep it true (probe-cache.ts)
 *       budget.json  the last object count of a track and its commit, while it holds (budget-count.ts)
 *       tracked-ignored.json  the workspace's tracked files that its ignore rules match (tracked-ignored.ts)
 *       lock         cross-process lock serialising every operation that writes the store
 *       tmp/         temporary indexes used while writing files back
 *
 * `projectId` is the workspace repository's root commit (so clones and worktrees of one project
 * group together), or `path-<hash of the real path>` outside a repository or before the first
 * commit. `worktreeKey` is `wt-<hash of the work tree's real path>`: worktrees sharing a root
 * commit each get their own git dir and index, because an index describes one work tree.
 *
 * An existing store is found by its worktree key under any project id, so a repository that makes
 * its first commit, or rewrites its history, keeps its checkpoints.
 */
export interface StoreLocation {
  projectId: string;
  worktreeKey: string;
  dir: string;
  gitDir: string;
  indexFile: string;
  metaFile: string;
  /** What automatic upkeep did last (upkeep.ts). */
  upkeepFile: string;
  /** The workspace probe's cached answer (probe-cache.ts). */
  probeFile: string;
  /** Prompt numbers claimed per session (prompt-numbers.ts). */
  promptsDir: string;
  lockPath: string;
  tempDir: string;
}

/** `<16 hex>` of SHA-256 over a real path: short, stable, collision-unlikely for one machine. */
export function pathKey(realPath: string): string {
  return createHash('sha256').update(realPath).digest('hex').slice(0, 16);
}

/** The file layout for a store directory. Pure. */
export function storeLayout(checkpointsDir: string, projectId: string, worktreeKey: string): StoreLocation {
  const dir = join(checkpointsDir, projectId, worktreeKey);
  return {
    projectId,
    worktreeKey,
    dir,
    gitDir: join(dir, 'git'),
    indexFile: join(dir, 'index'),
    metaFile: join(dir, 'store.json'),
    upkeepFile: join(dir, 'upkeep.json'),
    probeFile: join(dir, 'probe.json'),
    promptsDir: join(dir, 'prompts'),
    lockPath: join(dir, 'lock'),
    tempDir: join(dir, 'tmp'),
  };
}

/**
 * Finds the store for the work tree at `root` (a real path), or decides where a new one goes.
 * `rootCommit` is asked only when no store exists yet.
 */
export async function locateStore(
  checkpointsDir: string,
  root: string,
  rootCommit: () => Promise<string | null>,
): Promise<StoreLocation> {
  const existing = await existingStore(checkpointsDir, root);
  if (existing !== null) return existing;
  const projectId = (await rootCommit()) ?? `path-${pathKey(root)}`;
  return storeLayout(checkpointsDir, projectId, `wt-${pathKey(root)}`);
}

/** The store whose `store.json` names the work tree at `root` (a real path), under any project id; null if none. */
export async function existingStore(
  checkpointsDir: string,
  root: string,
  projects?: readonly string[],
): Promise<StoreLocation | null> {
  const worktreeKey = `wt-${pathKey(root)}`;
  for (const projectId of projects ?? (await listDir(checkpointsDir))) {
    const candidate = storeLayout(checkpointsDir, projectId, worktreeKey);
    if ((await storeOf(candidate, root)) !== 'none') return candidate;
  }
  return null;
}

/**
 * Outside git, the nearest directory above `dir` that already has a store (below the home
 * directory and the root, which never do): an agent's shell event in a subdirectory belongs to the
 * workspace its session started in, as git's top level decides inside a repository. Null if none.
 */
export async function storeAbove(
  checkpointsDir: string,
  dir: string,
  home: string,
): Promise<{ root: string; location: StoreLocation } | null> {
  const projects = await listDir(checkpointsDir);
  for (let at = dirname(dir); at !== dirname(at) && at !== home; at = dirname(at)) {
    const location = await existingStore(checkpointsDir, at, projects);
    if (location !== null) return { root: at, location };
  }
  return null;
}

/**
 * Whether the store at `location` is the one of the work tree at `root`: `intact` when its
 * `store.json` names `root`; `damaged` when that file is missing or does not read but the store's
 * repository is there (its directory is named by root's hash: the checkpoints are read as ever,
 * and the next track writes the file again); else `none`.
 */
export async function storeOf(location: StoreLocation, root: string): Promise<'intact' | 'damaged' | 'none'> {
  const text = await readRegularText(location.metaFile);
  try {
    const read = text === null ? null : StoreMeta.safeParse(JSON.parse(text));
    if (read?.success === true) return read.data.workspace === root ? 'intact' : 'none';
  } catch {
    // Not JSON: damaged, as below.
  }
  const head = await stat(join(location.gitDir, 'HEAD')).catch(() => null);
  return head?.isFile() === true ? 'damaged' : 'none';
}

/** The names in `dir`, sorted; none when it cannot be read. */
export async function listDir(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return [];
  }
}
