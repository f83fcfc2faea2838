import { splitNul, unparseable } from './nul-records.js';

/** What `ls-files -z -t --others --modified` reported: new files, changed tracked files, and nested repositories. */
export interface CandidateListing {
  untracked: string[];
  modified: string[];
  /** Directories git did not descend into because they hold their own repository (no trailing `/`). */
  nestedRepos: string[];
}

/** Parses `ls-files -z -t -o -m`: `? ` marks untracked entries (a trailing `/` marks a nested repository), `C ` changed ones. */
export function parseCandidateListing(text: string): CandidateListing {
  const out: CandidateListing = { untracked: [], modified: [], nestedRepos: [] };
  const seenModified = new Set<string>();
  for (const record of splitNul(text)) {
    const tag = record.slice(0, 2);
    const path = record.slice(2);
    if (path === '') throw unparseable('ls-files -t', 'record without a path', record);
    if (tag === '? ') {
      if (path.endsWith('/')) out.nestedRepos.push(path.slice(0, -1));
      else out.untracked.push(path);
    } else if (tag === 'C ' || tag === 'R ') {
      if (!seenModified.has(path)) out.modified.push(path);
      seenModified.add(path);
    } else {
      throw unparseable('ls-files -t', `unexpected tag ${JSON.stringify(tag)}`, record);
    }
  }
  return out;
}

/** One index entry as `ls-files -z -v -s` lists it: its tag, mode, object and path. */
export interface IndexEntry {
  /** `H` (cached), a lower-case letter (assume-unchanged), `S` (skip-worktree), ... */
  tag: string;
  /** `100644`, `100755`, `120000` (a symbolic link) or `160000` (a submodule's commit). */
  mode: string;
  oid: string;
  path: string;
}

/** The modes of a submodule's commit (a gitlink) and of a symbolic link in the index. */
export const GITLINK_MODE = '160000';
export const LINK_MODE = '120000';

/**
 * A tracked file git does not compare with the work tree, the mode and object the index holds for
 * it, and whether it is marked skip-worktree (as a sparse checkout marks the files it leaves out).
 */
export type UncomparedEntry = Omit<IndexEntry, 'tag'> & { skipWorktree: boolean };

/** Parses `ls-files -z -v -s` (`<tag> <mode> <oid> <stage>\t<path>`). */
export function parseIndexEntries(text: string): IndexEntry[] {
  return splitNul(text).map((record) => {
    const m = /^([A-Za-z?]) ([0-7]{6}) ([0-9a-f]{40,64}) [0-3]\t(.+)$/s.exec(record);
    if (m === null) throw unparseable('ls-files -v -s', 'unexpected record', record);
    return { tag: m[1] as string, mode: m[2] as string, oid: m[3] as string, path: m[4] as string };
  });
}

/**
 * The entries git never compares with the work tree, so that a change there is invisible to
 * status, diff and add: marked assume-unchanged (a lower-case tag) or skip-worktree (`S`, as a
 * sparse checkout marks the files it leaves out).
 */
export function uncomparedOf(entries: readonly IndexEntry[]): UncomparedEntry[] {
  return entries
    .filter((e) => e.tag !== e.tag.toUpperCase() || e.tag === 'S')
    .map(({ tag, path, mode, oid }) => ({ path, mode, oid, skipWorktree: tag === 'S' || tag === 's' }));
}
