import { atRawRecord, readRawRecord, type RawEntry } from './diff-raw.js';
import { readNumstatRecord } from './diff-numstat.js';
import { ZTokens } from './z-tokens.js';

/** One changed path of `diff-tree -r -z --raw --numstat`: the raw record with its line counts. */
export interface DiffPair extends RawEntry {
  insertions: number;
  deletions: number;
  binary: boolean;
}

/**
 * Parses ONE `diff-tree -r -z --raw --numstat` output keeping object ids and modes (parseDiffChanges
 * keeps only what a FileChange needs). Raw records come first, then numstat records in the same order.
 */
export function parseDiffPairs(output: string): DiffPair[] {
  const tokens = new ZTokens(output, 'diff-tree --raw --numstat');
  const raw: RawEntry[] = [];
  while (atRawRecord(tokens)) raw.push(readRawRecord(tokens));
  const pairs = raw.map((entry) => {
    if (tokens.done) throw tokens.malformed(`${raw.length} raw records but fewer numstat records`);
    const num = readNumstatRecord(tokens);
    if (num.path !== entry.path)
      throw tokens.malformed(
        `raw record for ${JSON.stringify(entry.path)} paired with numstat record for ${JSON.stringify(num.path)}`,
      );
    return { ...entry, insertions: num.insertions, deletions: num.deletions, binary: num.binary };
  });
  if (!tokens.done) throw tokens.malformed(`more numstat records than the ${raw.length} raw records`);
  return pairs;
}
