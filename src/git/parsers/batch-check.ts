import { OBJECT_ID_SOURCE } from '../../../types/ids.js';
import { GitOutputUnparseableError } from '../../errors.js';

/** What `cat-file --batch-check` (default format) said about one input name. */
export type BatchCheckAnswer =
  | { name: string; found: true; id: string; type: string; size: number }
  | { name: string; found: false; reason: 'missing' | 'ambiguous' };

const FOUND = new RegExp(`^(${OBJECT_ID_SOURCE}) ([a-z]+) ([0-9]+)$`);

/**
 * Pairs each input name of `cat-file --batch-check` with its answer line: `<id> <type> <size>` when
 * the name resolves, `<name> missing` or `<name> ambiguous` when it does not. The names are given
 * because an answer for a name that contains spaces cannot be split on its own.
 */
export function parseBatchCheck(names: readonly string[], output: string): BatchCheckAnswer[] {
  const lines = output.split('\n');
  if (lines.pop() !== '' || lines.length !== names.length) {
    throw malformed(`${names.length} names asked, ${lines.length} answer lines`);
  }
  return names.map((name, i) => answer(name, lines[i] as string));
}

function answer(name: string, line: string): BatchCheckAnswer {
  if (line === `${name} missing`) return { name, found: false, reason: 'missing' };
  if (line === `${name} ambiguous`) return { name, found: false, reason: 'ambiguous' };
  const m = FOUND.exec(line);
  if (m === null) throw malformed(`answer for ${JSON.stringify(name)}: ${JSON.stringify(line)}`);
  return { name, found: true, id: m[1] as string, type: m[2] as string, size: Number(m[3]) };
}

function malformed(reason: string): GitOutputUnparseableError {
  return new GitOutputUnparseableError(`unexpected output from git cat-file --batch-check: ${reason}`, {
    details: { parser: 'cat-file --batch-check', reason },
  });
}
