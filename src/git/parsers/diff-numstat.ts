import { ZTokens } from './z-tokens.js';

/** One `--numstat -z` record. Binary files have no line counts (`-\t-`): both are 0 and `binary` is set. */
export interface NumstatEntry {
  insertions: number;
  deletions: number;
  binary: boolean;
  /** The path after the change (the destination of a rename or copy). */
  path: string;
  /** The source of a rename or copy, otherwise null. */
  oldPath: string | null;
}

const COUNTS = /^(?:([0-9]+)\t([0-9]+)|(-)\t-)\t/;

/**
 * Consumes one `--numstat -z` record: `<ins>\t<del>\t<path>\0`, or for a rename or copy
 * `<ins>\t<del>\t\0<src>\0<dst>\0`. Only the first two tabs are separators: a path may hold tabs.
 */
export function readNumstatRecord(tokens: ZTokens): NumstatEntry {
  const field = tokens.next();
  const m = COUNTS.exec(field);
  if (m === null) throw tokens.malformed(`not a numstat record: ${JSON.stringify(field)}`);
  const binary = m[3] === '-';
  const insertions = binary ? 0 : Number(m[1]);
  const deletions = binary ? 0 : Number(m[2]);
  const rest = field.slice(m[0].length);
  if (rest !== '') return { insertions, deletions, binary, path: rest, oldPath: null };
  const oldPath = tokens.next();
  return { insertions, deletions, binary, path: tokens.next(), oldPath };
}

/** Parses a whole `diff-tree -r -z --numstat` output. */
export function parseDiffNumstat(output: string): NumstatEntry[] {
  const tokens = new ZTokens(output, 'diff-tree --numstat');
  const entries: NumstatEntry[] = [];
  while (!tokens.done) entries.push(readNumstatRecord(tokens));
  return entries;
}
