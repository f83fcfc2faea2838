import { readdir } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { UnsafeWorkspaceError } from '../errors.js';
import { isInside } from '../git/repo.js';
import { realPathOf } from '../fs/inside.js';

/** Our own directories, as configured. */
export interface OwnDirs {
  home: string;
  artifactsDir: string;
}

/**
 * Workspace-relative paths that are never snapshotted: an artifacts directory or an agentgate
 * home inside the workspace would otherwise end up in the commit they describe. Compared by real
 * path, so a home reached through a symlinked path is still recognised. A home or artifacts
 * directory that is the workspace itself cannot be left out of it: UNSAFE_WORKSPACE.
 */
export async function workspaceExcludes(topLevel: string, dirs: OwnDirs): Promise<string[]> {
  const out: string[] = [];
  for (const [what, dir] of [
    ['agentgate home', dirs.home],
    ['artifacts directory', dirs.artifactsDir],
  ] as const) {
    const real = await realPathOf(dir);
    if (real === topLevel) {
      throw new UnsafeWorkspaceError(
        `the ${what} ${dir} is the workspace itself, so its files would be snapshotted; put it outside the workspace (--home, --artifacts-dir)`,
        {
          details: { workspace: topLevel, [what === 'agentgate home' ? 'home' : 'artifactsDir']: dir },
        },
      );
    }
    if (isInside(topLevel, real)) out.push(relative(topLevel, real));
  }
  return out;
}

/** Whether a directory that is not a repository yet holds anything besides our own home or artifacts. */
export async function hasUserFiles(dir: string, dirs: OwnDirs): Promise<boolean> {
  const ours = [await realPathOf(dirs.home), await realPathOf(dirs.artifactsDir)];
  const entries = await readdir(dir);
  return entries.some((name) => !ours.some((own) => isInside(join(dir, name), own)));
}
