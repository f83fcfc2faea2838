import { decodeBytes } from '../../fs/path-bytes.js';
import { readRawRecord, type RawEntry } from './diff-raw.js';
import { unparseable } from './nul-records.js';
import { ZTokens } from './z-tokens.js';

/** One `@@ -a,b +c,d @@` hunk of a `-U0` patch, with the lines it adds (bytes as latin1 characters). */
export interface Hunk {
  oldStart: number;
  oldCount: number;
  newStart: number;
  newCount: number;
  added: string[];
}

/** One file of one pair: its raw record, its patch text (for `git patch-id`) and its hunks. */
export interface PairFile {
  entry: RawEntry;
  /** The file's whole patch, latin1 (one character per byte, so it goes back to git unchanged). */
  patch: string;
  hunks: Hunk[];
}

export interface PairDiff {
  from: string;
  to: string;
  files: PairFile[];
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/**
 * Parses ONE `diff-tree --stdin -r -z --raw -p -U0` process fed the lines `<from> <to>` (tree ids)
 * in `pairs` order. For each pair git echoes the line, then the raw records (NUL-terminated), a
 * NUL, and the patch, in the same file order (a typechange is two patches: a deletion and an
 * addition). Pure; throws GIT_OUTPUT_UNPARSEABLE when the output does not have that shape.
 */
export function parseDiffStdin(buf: Buffer, pairs: ReadonlyArray<{ from: string; to: string }>): PairDiff[] {
  const text = buf.toString('latin1');
  const out: PairDiff[] = [];
  let pos = 0;
  pairs.forEach((pair, i) => {
    const header = `${pair.from} ${pair.to}\n`;
    if (!text.startsWith(header, pos)) throw unparseable('diff-tree --stdin', `missing header ${i}`);
    pos += header.length;
    const next = pairs[i + 1];
    const end = next === undefined ? text.length : headerAt(text, `${next.from} ${next.to}\n`, pos);
    out.push({ ...pair, files: parsePair(text.slice(pos, end)) });
    pos = end;
  });
  if (pos !== text.length) throw unparseable('diff-tree --stdin', 'output after the last pair');
  return out;
}

/** Where the next pair's header starts: at `from` or at the start of a later line. */
function headerAt(text: string, header: string, from: number): number {
  for (let at = text.indexOf(header, from); at >= 0; at = text.indexOf(header, at + 1))
    if (at === from || text[at - 1] === '\n') return at;
  throw unparseable('diff-tree --stdin', 'a pair header is missing');
}

function parsePair(chunk: string): PairFile[] {
  if (chunk === '') return [];
  const split = chunk.indexOf('\0\0');
  if (split < 0) throw unparseable('diff-tree --stdin', 'raw records without a patch');
  const tokens = new ZTokens(chunk.slice(0, split + 1), 'diff-tree --stdin --raw');
  const entries: RawEntry[] = [];
  while (!tokens.done) {
    const e = readRawRecord(tokens);
    entries.push({
      ...e,
      path: latinPath(e.path),
      oldPath: e.oldPath === null ? null : latinPath(e.oldPath),
    });
  }
  const patches = splitPatches(chunk.slice(split + 2));
  const files: PairFile[] = [];
  let p = 0;
  for (const entry of entries) {
    const take = entry.status === 'T' ? 2 : 1;
    const parts = patches.slice(p, p + take);
    if (parts.length !== take) throw unparseable('diff-tree --stdin', 'fewer patches than raw records');
    p += take;
    const patch = parts.join('');
    files.push({ entry, patch, hunks: parseHunks(patch) });
  }
  if (p !== patches.length) throw unparseable('diff-tree --stdin', 'more patches than raw records');
  return files;
}

/**
 * `file` as git's diff gives it without `--text` where `binary` says a side's blob is binary (the
 * caller decides from content): such a patch keeps its header and loses its hunks. A typechange
 * is two patches, the old side's and the new side's, each judged on its own blob. Pure.
 */
export function withoutBinaryHunks(file: PairFile, binary: (id: string) => boolean): PairFile {
  const e = file.entry;
  const parts = splitPatches(file.patch);
  const sides: boolean[] =
    e.status === 'T' ? [binary(e.srcId), binary(e.dstId)] : [binary(e.srcId) || binary(e.dstId)];
  if (!sides.some(Boolean)) return file;
  const patch = parts.map((p, i) => (sides[i] === true ? headerOf(p) : p)).join('');
  return { entry: e, patch, hunks: parseHunks(patch) };
}

/** A file's patch up to its hunks, with git's line for a binary file in their place (none: as it is). */
function headerOf(part: string): string {
  const cut = [part.indexOf('\n--- '), part.indexOf('\n@@ ')].filter((i) => i >= 0);
  return cut.length === 0 ? part : `${part.slice(0, Math.min(...cut) + 1)}Binary files differ\n`;
}

function latinPath(s: string): string {
  return decodeBytes(Buffer.from(s, 'latin1'));
}

/** Splits a patch at each `diff --git` line (content lines always start with a prefix character). */
function splitPatches(patch: string): string[] {
  if (patch === '') return [];
  if (!patch.startsWith('diff --git ')) throw unparseable('diff-tree --stdin', 'patch does not start a file');
  const out: string[] = [];
  let start = 0;
  for (let at = patch.indexOf('\ndiff --git ', 0); at >= 0; at = patch.indexOf('\ndiff --git ', at + 1)) {
    out.push(patch.slice(start, at + 1));
    start = at + 1;
  }
  out.push(patch.slice(start));
  return out;
}

/**
 * The hunks of one file's patch as `-U0` gives them (none for a binary file or a mode change),
 * whatever its context: with context lines (`-U3`), each run of removed and added lines between
 * two context lines is one hunk, numbered as git numbers a `-U0` hunk (a side with no lines
 * names the line before). Pure; GIT_OUTPUT_UNPARSEABLE when a hunk does not hold what its
 * header says.
 */
export function parseHunks(patch: string): Hunk[] {
  const hunks: Hunk[] = [];
  // The next line's number on each side, and what the current @@ hunk has left to show.
  let at: { old: number; new: number; oldLeft: number; newLeft: number } | null = null;
  let block: Hunk | null = null;
  const close = (): void => {
    if (block === null) return;
    if (block.oldCount === 0) block.oldStart -= 1;
    if (block.newCount === 0) block.newStart -= 1;
    hunks.push(block);
    block = null;
  };
  const end = (): void => {
    close();
    if (at !== null && (at.oldLeft !== 0 || at.newLeft !== 0))
      throw unparseable('diff-tree --stdin', 'a hunk does not hold what its header says');
    at = null;
  };
  for (const line of patch.split('\n')) {
    const m = HUNK.exec(line);
    if (line.startsWith('diff --git ')) end();
    else if (m) {
      end();
      const [oldCount, newCount] = [
        m[2] === undefined ? 1 : Number(m[2]),
        m[4] === undefined ? 1 : Number(m[4]),
      ];
      at = {
        old: Number(m[1]) + (oldCount === 0 ? 1 : 0),
        new: Number(m[3]) + (newCount === 0 ? 1 : 0),
        oldLeft: oldCount,
        newLeft: newCount,
      };
    } else if (at !== null && (at.oldLeft > 0 || at.newLeft > 0)) {
      const c = line[0];
      if (c === '-' || c === '+') {
        block ??= { oldStart: at.old, oldCount: 0, newStart: at.new, newCount: 0, added: [] };
        if (c === '-') {
          block.oldCount += 1;
          at.old += 1;
          at.oldLeft -= 1;
        } else {
          block.newCount += 1;
          block.added.push(line.slice(1));
          at.new += 1;
          at.newLeft -= 1;
        }
      } else if (c === ' ') {
        // A context line (the hardening keeps its space: diff.suppressBlankEmpty=false) ends the run of changes.
        close();
        at.old += 1;
        at.new += 1;
        at.oldLeft -= 1;
        at.newLeft -= 1;
      }
    }
  }
  end();
  return hunks;
}
