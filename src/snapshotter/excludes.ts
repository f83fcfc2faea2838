import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { isInside } from '../git/repo.js';

/**
 * Workspace-relative paths that are never snapshotted: an artifacts directory or an agentgate
 * home placed inside the workspace would otherwise end up in the commit they describe.
 */
export function workspaceExcludes(topLevel: string, dirs: { home: string; artifactsDir: string }): string[] {
  return [dirs.artifactsDir, dirs.home].filter((dir) => dir !== topLevel && isInside(topLevel, dir)).map((dir) => relative(topLevel, dir));
}

/** Whether a directory that is not a repository yet holds anything besides our own home or artifacts. */
export async function hasUserFiles(dir: string, dirs: { home: string; artifactsDir: string }): Promise<boolean> {
  const ours = [dirs.home, dirs.artifactsDir];
  const entries = await readdir(dir);
  return entries.some((name) => !ours.some((own) => isInside(join(dir, name), own)));
}
