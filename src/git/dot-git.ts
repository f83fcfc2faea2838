import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

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
  let text: string;
  try {
    text = readFileSync(dotGit, 'utf8');
  } catch {
    return false;
  }
  const named = /^gitdir: (.+)$/m.exec(text)?.[1]?.trim();
  return named !== undefined && isGitDir(resolve(dirname(dotGit), named));
}

function isGitDir(dir: string): boolean {
  const is = (name: string, kind: 'file' | 'dir') => {
    const s = statSync(join(dir, name), { throwIfNoEntry: false });
    return s !== undefined && (kind === 'file' ? s.isFile() : s.isDirectory());
  };
  return is('HEAD', 'file') && is('objects', 'dir') && is('refs', 'dir');
}
