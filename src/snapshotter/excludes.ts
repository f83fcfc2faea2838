import { lstat, readdir, realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, sep } from 'node:path';
import { UnsafeWorkspaceError } from '../errors.js';
import { isInside } from '../git/repo.js';

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

/**
 * The real path of `path`, also when it does not exist yet: its nearest existing ancestor's real
 * path joined with the rest.
 */
export async function realPathOf(path: string): Promise<string> {
  const real = await realpath(path).catch(() => null);
  if (real !== null) return real;
  const parent = dirname(path);
  return parent === path ? path : join(await realPathOf(parent), basename(path));
}

/**
 * Before we write a file of ours (a patch artifact) that lands inside the workspace: no directory
 * between the workspace and the file may be a symbolic link, which the agent could have put there
 * to make us write elsewhere.
 */
export async function assertNoLinkInside(topLevel: string, file: string): Promise<void> {
  const real = await realPathOf(dirname(file));
  const lexical = relative(topLevel, file);
  const inside = isInside(topLevel, real) || (!lexical.startsWith('..') && lexical !== '');
  if (!inside) return;
  const rel = isInside(topLevel, file) ? lexical : relative(topLevel, join(real, basename(file)));
  let at = topLevel;
  for (const part of rel.split(sep).slice(0, -1)) {
    at = join(at, part);
    const info = await lstat(at).catch(() => null);
    if (info?.isSymbolicLink()) {
      throw new UnsafeWorkspaceError(
        `${at} inside the workspace is a symbolic link, so writing ${file} would follow it elsewhere; remove the link (or keep artifacts outside the workspace) and retry`,
        {
          details: { workspace: topLevel, path: at },
        },
      );
    }
  }
}

/** Whether a directory that is not a repository yet holds anything besides our own home or artifacts. */
export async function hasUserFiles(dir: string, dirs: OwnDirs): Promise<boolean> {
  const ours = [await realPathOf(dirs.home), await realPathOf(dirs.artifactsDir)];
  const entries = await readdir(dir);
  return entries.some((name) => !ours.some((own) => isInside(join(dir, name), own)));
}
