/**
 * What a cherry-pick onto the checked-out branch would destroy that git does not protect. git
 * refuses to overwrite an untracked file, but takes an ignored one for expendable: a pick writes
 * its own version over it (and `cherry-pick --abort` after a conflict then removes even that). So
 * before picking, git's merge previews the pick in the object store alone, and every path it would
 * write is looked at in the work tree.
 */
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeBytes, fsPath } from '../fs/path-bytes.js';
import type { CommitInfo } from '../../types/snapshot.js';
import { withByteArgs } from './byte-args.js';
import { commitTree } from './commit.js';
import { emptyTreeId } from './empty-tree.js';
import { assertGitId } from './ids.js';
import { splitNul, unparseable } from './parsers/nul-records.js';
import type { Repo } from './repo.js';
import { runGit, runGitBuffer } from './runner.js';

type Kind = 'absent' | 'dir' | 'other';

/** What picking a commit onto HEAD would do to the work tree, as git's merge machinery decides it. */
export interface PickPreview {
  /** The paths whose content or mode the pick would write (added or changed against HEAD). */
  writes: string[];
  /** The paths it would leave in conflict (empty: it applies cleanly). */
  conflicted: string[];
}

/**
 * Merges the change `source` makes to its first parent into HEAD (`head`) without touching the
 * work tree or the index, as the pick would (renames, directory renames and `~HEAD` names
 * included): `merge-tree --write-tree` of HEAD's tree and the source's tree, each committed on
 * that parent alone, so that it is their merge base (git 2.38 has no `--merge-base`). A root
 * commit has no parent to merge from: its whole tree is what it writes.
 */
export async function previewPick(repo: Repo, source: CommitInfo, head: string): Promise<PickPreview> {
  const base = source.parents[0];
  if (base === undefined) {
    return { writes: await writtenPaths(repo, await emptyTreeId(repo), source.sha), conflicted: [] };
  }
  const trees = (await runGit(repo, ['rev-parse', `${head}^{tree}`, `${source.sha}^{tree}`])).stdout;
  const [headTree, sourceTree] = trees.split('\n') as [string, string];
  const message = 'agentgate: cherry-pick preview\n';
  const ours = await commitTree(repo, headTree, [base], message);
  const theirs =
    source.parents.length === 1 ? source.sha : await commitTree(repo, sourceTree, [base], message);
  const args = ['merge-tree', '--write-tree', '-z', '--name-only', '--no-messages', ours, theirs];
  const res = await runGitBuffer(repo, args, { okExitCodes: [1] });
  const [tree, ...conflicted] = splitNul(decodeBytes(res.stdout));
  if (tree === undefined) throw unparseable('merge-tree --write-tree', 'no tree');
  return { writes: await writtenPaths(repo, head, assertGitId(tree, 'merge-tree')), conflicted };
}

/** The paths that `to` adds or changes against `from` (a deletion writes nothing). */
async function writtenPaths(repo: Repo, from: string, to: string): Promise<string[]> {
  const args = ['diff-tree', '-r', '-z', '--no-renames', '--name-only', '--diff-filter=d', from, to];
  return splitNul(decodeBytes((await runGitBuffer(repo, args)).stdout));
}

/**
 * The untracked or ignored paths of the work tree that writing `writes` could overwrite or remove:
 * a file, link or anything else at a path that `tracked` (the index, which is HEAD's on a clean
 * workspace) does not hold, or where a directory is needed; and whatever untracked lies inside a
 * directory standing where a file is written.
 */
export async function untrackedInTheWay(
  repo: Repo,
  writes: readonly string[],
  tracked: ReadonlySet<string>,
): Promise<string[]> {
  // A tracked path holds HEAD's content (the workspace is clean): git may replace it.
  const written = writes.filter((p) => !tracked.has(p));
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
