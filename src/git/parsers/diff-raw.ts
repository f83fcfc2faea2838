import type { FileStatus } from '../../../types/snapshot.js';
import { ZTokens } from './z-tokens.js';

/** Status letters of `--raw` output that a tree-to-tree diff can produce. */
export type RawStatus = 'A' | 'C' | 'D' | 'M' | 'R' | 'T';

/** A raw record's status letter as the FileChange status it stands for. */
export const FILE_STATUS: Record<RawStatus, FileStatus> = {
  A: 'added',
  C: 'copied',
  D: 'deleted',
  M: 'modified',
  R: 'renamed',
  T: 'typechange',
};

/** One `--raw -z` record: `:<srcMode> <dstMode> <srcId> <dstId> <status>[score]\0<path>\0[<dst>\0]`. */
export interface RawEntry {
  srcMode: string;
  dstMode: string;
  srcId: string;
  dstId: string;
  status: RawStatus;
  /** Similarity of a rename or copy (or dissimilarity of a broken rewrite), in percent; else null. */
  score: number | null;
  /** The path after the change (the destination of a rename or copy). */
  path: string;
  /** The source of a rename or copy, otherwise null. */
  oldPath: string | null;
}

const HEADER = /^:([0-7]{6}) ([0-7]{6}) ([0-9a-f]{4,64}) ([0-9a-f]{4,64}) ([ACDMRT])([0-9]{0,3})$/;

/** True if the next field starts a `--raw` record (raw headers start with ':'; numstat never does). */
export function atRawRecord(tokens: ZTokens): boolean {
  return tokens.peek()?.startsWith(':') ?? false;
}

/** Consumes one `--raw -z` record. Renames and copies carry two paths, everything else one. */
export function readRawRecord(tokens: ZTokens): RawEntry {
  const header = tokens.next();
  const m = HEADER.exec(header);
  if (m === null) throw tokens.malformed(`not a raw record header: ${JSON.stringify(header)}`);
  const [, srcMode, dstMode, srcId, dstId, letter, digits] = m as unknown as [
    string,
    string,
    string,
    string,
    string,
    RawStatus,
    string,
  ];
  const twoPaths = letter === 'R' || letter === 'C';
  const first = tokens.next();
  const path = twoPaths ? tokens.next() : first;
  const score = digits === '' ? null : Number(digits);
  return { srcMode, dstMode, srcId, dstId, status: letter, score, path, oldPath: twoPaths ? first : null };
}

/** Parses a whole `diff-tree -r -z --raw` output. */
export function parseDiffRaw(output: string): RawEntry[] {
  const tokens = new ZTokens(output, 'diff-tree --raw');
  const entries: RawEntry[] = [];
  while (!tokens.done) entries.push(readRawRecord(tokens));
  return entries;
}
