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

/** A tracked file git does not compare with the work tree, and the blob the index holds for it. */
export interface UncomparedEntry {
  path: string;
  oid: string;
}

/**
 * Parses `ls-files -z -v -s` (`<tag> <mode> <oid> <stage>\t<path>`): the entries git never
 * compares with the work tree, so that a change there is invisible to status, diff and add:
 * marked assume-unchanged (a lower-case tag) or skip-worktree (`S`, as a sparse checkout marks
 * the files it leaves out).
 */
export function parseUncompared(text: string): UncomparedEntry[] {
  const out: UncomparedEntry[] = [];
  for (const record of splitNul(text)) {
    const m = /^([A-Za-z?]) [0-7]{6} ([0-9a-f]{40,64}) [0-3]\t(.+)$/s.exec(record);
    if (m === null) throw unparseable('ls-files -v -s', 'unexpected record', record);
    const letter = m[1] as string;
    if (letter !== letter.toUpperCase() || letter === 'S')
      out.push({ path: m[3] as string, oid: m[2] as string });
  }
  return out;
}
