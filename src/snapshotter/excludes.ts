import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isInside, type Repo } from '../git/repo.js';
import { hasChangesOutside, readStatus, type RepoState } from '../git/state.js';

/**
 * Workspace-relative paths that are never snapshotted: an artifacts directory or an agentgate
 * home placed inside the workspace would otherwise end up in the commit they describe.
 */
export function workspaceExcludes(topLevel: string, dirs: { home: string; artifactsDir: string }): string[] {
  return [dirs.artifactsDir, dirs.home].filter((dir) => dir !== topLevel && isInside(topLevel, dir)).map((dir) => relative(topLevel, dir));
}

/**
 * Whether the workspace has changes apart from the excluded directories: our own artifacts inside
 * the workspace must not make it look dirty (a WIP commit with nothing in it, or DIRTY_WORKSPACE
 * with `--on-dirty error`). Costs one more status only when there are excludes and it looks dirty.
 */
export async function isDirtyOutside(repo: Repo, state: RepoState, excludes: readonly string[]): Promise<boolean> {
  if (!state.isDirty || excludes.length === 0) return state.isDirty;
  return hasChangesOutside((await readStatus(repo)).entries, excludes);
}

/** Whether a directory that is not a repository yet holds anything besides our own home or artifacts. */
export async function hasUserFiles(dir: string, dirs: { home: string; artifactsDir: string }): Promise<boolean> {
  const ours = [dirs.home, dirs.artifactsDir];
  const entries = await readdir(dir);
  return entries.some((name) => !ours.some((own) => isInside(join(dir, name), own)));
}
