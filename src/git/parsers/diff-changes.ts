import type { FileChange } from '../../../types/snapshot.js';
import { atRawRecord, FILE_STATUS, readRawRecord, type RawEntry } from './diff-raw.js';
import { readNumstatRecord, type NumstatEntry } from './diff-numstat.js';
import { ZTokens } from './z-tokens.js';

/**
 * Parses the output of ONE `diff-tree -r -z --raw --numstat` process into FileChanges. git prints
 * every raw record first, then every numstat record, both walking the same queue of file pairs in
 * the same order, so the n-th numstat record belongs to the n-th raw record. Status, paths and
 * rename sources come from the raw part; line counts and the binary flag from the numstat part.
 * Throws GIT_FAILED if the two halves do not line up, rather than guessing.
 */
export function parseDiffChanges(output: string): FileChange[] {
  const tokens = new ZTokens(output, 'diff-tree --raw --numstat');
  const raw: RawEntry[] = [];
  while (atRawRecord(tokens)) raw.push(readRawRecord(tokens));
  const changes: FileChange[] = [];
  for (const entry of raw) {
    if (tokens.done)
      throw tokens.malformed(`${raw.length} raw records but only ${changes.length} numstat records`);
    changes.push(combine(entry, readNumstatRecord(tokens), tokens));
  }
  if (!tokens.done) throw tokens.malformed(`more numstat records than the ${raw.length} raw records`);
  return changes;
}

function combine(raw: RawEntry, num: NumstatEntry, tokens: ZTokens): FileChange {
  if (raw.path !== num.path || raw.oldPath !== num.oldPath) {
    throw tokens.malformed(
      `raw record for ${JSON.stringify(raw.path)} paired with numstat record for ${JSON.stringify(num.path)}`,
    );
  }
  return {
    path: raw.path,
    oldPath: raw.oldPath,
    status: FILE_STATUS[raw.status],
    insertions: num.insertions,
    deletions: num.deletions,
    binary: num.binary,
  };
}
