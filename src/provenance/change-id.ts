import { createHash } from 'node:crypto';
import type { PairFile } from '../git/parsers/diff-stdin.js';

/**
 * The identity of one file's change, as the `patch-id` method compares it: the file's names and
 * every line of its hunks, context included, byte for byte, without the hunks' line numbers (the
 * patch of a diff with context, `-U3`). Two changes with one id add and remove the same lines
 * between the same neighbours, wherever the file has moved; `git patch-id` hashes only the added
 * and removed lines, so a person's line that the run also wrote elsewhere in the file would match.
 * null for a change with no hunk (a mode change, a binary file): nothing to compare. Pure.
 */
export function changeId(file: PairFile): string | null {
  const hash = createHash('sha256');
  hash.update(`${file.entry.oldPath ?? file.entry.path}\0${file.entry.path}\0`, 'utf8');
  let inHunk = false;
  let lines = 0;
  for (const line of file.patch.split('\n')) {
    if (line.startsWith('diff --git ')) inHunk = false;
    else if (line.startsWith('@@ ')) {
      inHunk = true;
      hash.update('@@\n', 'latin1');
    } else if (inHunk) {
      hash.update(`${line}\n`, 'latin1');
      lines += 1;
    }
  }
  return lines === 0 ? null : hash.digest('hex');
}
