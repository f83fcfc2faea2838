import { closeSync, constants, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { commonDir } from '../fs/git-locks.js';
import { isInside, realPathOf } from '../fs/inside.js';

/**
 * Whether git takes this `.git` entry for a repository, as its discovery does: a directory that
 * is a git dir (a HEAD file, `objects` and `refs` directories), or a file naming one
 * (`gitdir: <path>`). An empty or half-made `.git` directory, or a `.git` file naming nothing,
 * leaves its directory part of the repository above it: git lists its files there. Synchronous:
 * a few stats, asked of one directory at a time by callers that walk up or across a tree.
 */
export function isRepositoryEntry(dotGit: string): boolean {
  const found = statSync(dotGit, { throwIfNoEntry: false });
  if (found === undefined) return false;
  if (found.isDirectory()) return isGitDir(dotGit);
  const text = gitFileText(dotGit);
  if (text === null) return false;
  const named = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
  return named !== undefined && isGitDir(resolve(dirname(dotGit), named));
}

/** More than a `gitdir: <path>` line can hold (a path is at most 4096 bytes). */
const GIT_FILE_MAX = 8192;

/**
 * The first bytes of a `.git` file, or null when it is no regular file. Opened without blocking
 * and checked on the descriptor: a FIFO an agent planted as `sub/.git` would wait for a writer
 * for ever (git itself takes only a regular file), and a device such as `/dev/zero` never ends.
 */
function gitFileText(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return null;
  }
  try {
    if (!fstatSync(fd).isFile()) return null;
    const buf = Buffer.alloc(GIT_FILE_MAX);
    return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

function isGitDir(dir: string): boolean {
  const is = (name: string, kind: 'file' | 'dir') => {
    const s = statSync(join(dir, name), { throwIfNoEntry: false });
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
