import { statSync, type Stats } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { commonDir } from '../fs/git-locks.js';
import { isInside, realPathOf } from '../fs/inside.js';
import { readSmallFileSync } from '../fs/regular-file.js';

/** The largest `.git` file git reads (setup.c, read_gitfile_gently: 1 MiB). */
const GITFILE_MAX = 1 << 20;

/**
 * Whether git takes this `.git` entry for a repository, as its discovery does: a directory that
 * is a git dir (a HEAD file, `objects` and `refs` directories), or a file naming one
 * (`gitdir: <path>`). An empty or half-made `.git` directory, or a `.git` file naming nothing,
 * leaves its directory part of the repository above it: git lists its files there. Synchronous:
 * a few stats, asked of one directory at a time by callers that walk up or across a tree.
 */
export function isRepositoryEntry(dotGit: string): boolean {
  const found = statOrNone(dotGit);
  if (found === undefined) return false;
  if (found.isDirectory()) return isGitDir(dotGit);
  // git reads a `.git` file only when it is a regular one of at most GITFILE_MAX bytes; never a
  // FIFO, whose read would wait for a writer with every timer stopped (a hook would hang for ever).
  const text = found.isFile() ? readSmallFileSync(dotGit, GITFILE_MAX) : null;
  if (text === null) return false;
  const named = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
  return named !== undefined && isGitDir(resolve(dirname(dotGit), named));
}

/**
 * What stat says of `path`, or undefined when it cannot be looked at: missing, or a name no file can
 * have (a NUL byte, a part over 255 bytes), or below a directory we may not search (EACCES), as git
 * takes no repository there either. Never throws: hook routing asks it of paths an event names.
 */
function statOrNone(path: string): Stats | undefined {
  try {
    return statSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

function isGitDir(dir: string): boolean {
  const is = (name: string, kind: 'file' | 'dir') => {
    const s = statOrNone(join(dir, name));
    return s !== undefined && (kind === 'file' ? s.isFile() : s.isDirectory());
  };
  return is('HEAD', 'file') && is('objects', 'dir') && is('refs', 'dir');
}

/**
 * The repository's git dirs (this work tree's `gitDir` and the common one, where config, refs and
 * objects live) that lie inside the work tree `topLevel` under another name than `.git`, relative
 * to it: a `.git` file or link naming `.realgit`, which an agent can write. git takes such a
 * directory for ordinary files, so a snapshot or checkpoint would take its config (a token in a
 * remote URL), its objects and its locks, and a restore would write them back. Left out of every
 * capture and never written, as `.git` itself is not.
 */
export async function gitDirsInside(topLevel: string, gitDir: string): Promise<string[]> {
  const [top, ...dirs] = await Promise.all([
    realPathOf(topLevel),
    realPathOf(gitDir),
    commonDir(gitDir).then(realPathOf),
  ]);
  const dotGit = join(top, '.git');
  const inside = dirs.filter((d) => d !== top && isInside(top, d) && !isInside(dotGit, d));
  return [...new Set(inside.map((d) => relative(top, d)))];
}
