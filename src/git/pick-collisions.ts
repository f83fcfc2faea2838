/**
 * What a cherry-pick onto the checked-out branch would destroy that git does not protect. git
 * refuses to overwrite an untracked file, but takes an ignored one for expendable: a pick writes
 * its own version over it (and `cherry-pick --abort` after a conflict then removes even that). So
 * before picking, every path the commit writes is looked at in the work tree.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeBytes, fsPath } from '../fs/path-bytes.js';
import { withByteArgs } from './byte-args.js';
import { splitNul } from './parsers/nul-records.js';
import type { Repo } from './repo.js';
import { runGitBuffer } from './runner.js';

type Kind = 'absent' | 'dir' | 'other';

/**
 * The untracked or ignored paths of the work tree that picking the change `from`..`to` could
 * overwrite or remove: a file, link or anything else where the commit writes a path that `tracked`
 * (the index, which is HEAD's on a clean workspace) does not hold, or where it needs a directory;
 * and whatever untracked lies inside a directory standing where the commit writes a file.
 */
export async function untrackedInTheWay(
  repo: Repo,
  from: string,
  to: string,
  tracked: ReadonlySet<string>,
): Promise<string[]> {
  const res = await runGitBuffer(repo, [
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--name-only',
    '--diff-filter=d',
    from,
    to,
  ]);
  // A tracked path holds HEAD's content (the workspace is clean): git may replace it.
  const written = splitNul(decodeBytes(res.stdout)).filter((p) => !tracked.has(p));
  const kinds = new Map<string, Promise<Kind>>();
  const kindOf = (path: string): Promise<Kind> => {
    let kind = kinds.get(path);
    if (kind === undefined) {
      kind = lstat(fsPath(join(repo.topLevel, path))).then(
        (st) => (st.isDirectory() ? 'dir' : 'other'),
        () => 'absent' as const,
      );
      kinds.set(path, kind);
    }
    return kind;
  };
  const hits = new Set<string>();
  const dirs: string[] = [];
  await Promise.all(
    written.map(async (path) => {
      const leading = await leadingInTheWay(path, tracked, kindOf);
      const kind = leading === null ? await kindOf(path) : 'absent';
      if (leading !== null) hits.add(leading);
      if (kind === 'other') hits.add(path);
      if (kind === 'dir') dirs.push(path);
    }),
  );
  for (const path of await untrackedUnder(repo, dirs)) hits.add(path);
  return [...hits].sort();
}

/** The first leading directory of `path` that is an untracked file or link in the work tree, if any. */
async function leadingInTheWay(
  path: string,
  tracked: ReadonlySet<string>,
  kindOf: (path: string) => Promise<Kind>,
): Promise<string | null> {
  const parts = path.split('/');
  for (let i = 1; i < parts.length; i += 1) {
    const dir = parts.slice(0, i).join('/');
    if (tracked.has(dir)) return null;
    const kind = await kindOf(dir);
    if (kind === 'absent') return null;
    if (kind === 'other') return dir;
  }
  return null;
}

/** The untracked and ignored entries inside `dirs` (a wholly untracked directory named once). */
async function untrackedUnder(repo: Repo, dirs: readonly string[]): Promise<string[]> {
  if (dirs.length === 0) return [];
  const words = ['ls-files', '-o', '-z', '--directory', '--', ...dirs];
  const res = await withByteArgs(['--literal-pathspecs'], words, (args) => runGitBuffer(repo, args));
  return splitNul(decodeBytes(res.stdout)).map((p) => p.replace(/\/$/, ''));
}
