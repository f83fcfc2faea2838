import { realpath, stat } from 'node:fs/promises';
import { dirname, join, parse, resolve } from 'node:path';
import { accountHome } from '../fs/home-dir.js';
import { isRepositoryEntry } from '../git/dot-git.js';
import { isInside } from '../fs/inside.js';

/**
 * Cursor on Windows sends `/c:/Users/...`: on Windows that is `c:/Users/...`. Elsewhere a path is
 * taken as it is.
 */
export function nativePath(path: string, platform: NodeJS.Platform = process.platform): string {
  return platform === 'win32' && /^\/[A-Za-z]:[\\/]/.test(path) ? path.slice(1) : path;
}

/**
 * The workspace an event names, or why it is not one to checkpoint: not a directory, the file
 * system root, the home directory or a directory that holds it (an agent started there would
 * checkpoint everything below, the user's dotfiles and keys too).
 */
export async function hookWorkspace(
  candidate: string,
  opts: { homeDir?: string } = {},
): Promise<{ workspace: string } | { refused: string }> {
  const path = resolve(nativePath(candidate));
  const isDir = await stat(path).then(
    (st) => st.isDirectory(),
    () => false,
  );
  if (!isDir) return { refused: `the workspace ${path} is not a directory` };
  const real = await realpath(path);
  const given = opts.homeDir ?? homeOrNone();
  const home = await realpath(given).catch(() => given);
  if (parse(real).root === real) return { refused: `the workspace ${real} is the file system root` };
  if (real === home) return { refused: `the workspace ${real} is the home directory` };
  // A directory that holds the home directory (`/home`, `/Users`) would checkpoint all of it; a
  // repository's top level may (a build that keeps HOME in the project), its ignore rules apply.
  if (home !== '' && isInside(real, home) && !isRepositoryEntry(join(real, '.git')))
    return { refused: `the workspace ${real} holds the home directory ${home}` };
  return { workspace: real };
}

/** The account's home directory, or '' when it has none (then no workspace is refused as the home). */
function homeOrNone(): string {
  try {
    return accountHome();
  } catch {
    return '';
  }
}

/**
 * The top of the repository of its own that holds `dir`, below `project`: the nearest directory
 * with a `.git` from `dir` up to (not including) `project` (a nested repository, a submodule), or
 * undefined. Its events go to that repository's store, as they do for an agent that names no
 * project: the project's store skips nested repositories. One lstat per level, no git process.
 */
export async function nestedRepository(project: string, dir: string): Promise<string | undefined> {
  for (let at = dir; at !== project && at !== dirname(at) && isInside(project, at); at = dirname(at)) {
    if (isRepositoryEntry(join(at, '.git'))) return at;
  }
  return undefined;
}
