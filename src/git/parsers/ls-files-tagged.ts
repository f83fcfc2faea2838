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

/**
 * Parses `ls-files -z -v`: the paths git never compares with the work tree, so that a change there
 * is invisible to status, diff and add: marked assume-unchanged (a lower-case tag) or skip-worktree
 * (`S`, as a sparse checkout marks the files it leaves out).
 */
export function parseUncompared(text: string): string[] {
  const out: string[] = [];
  for (const record of splitNul(text)) {
    const tag = record.slice(0, 2);
    if (!/^[A-Za-z?] $/.test(tag) || record.length < 3)
      throw unparseable('ls-files -v', `unexpected tag ${JSON.stringify(tag)}`, record);
    const letter = tag[0] as string;
    if (letter !== letter.toUpperCase() || letter === 'S') out.push(record.slice(2));
  }
  return out;
}
