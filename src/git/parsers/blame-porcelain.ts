import { decodeBytes } from '../../fs/path-bytes.js';
import { unparseable } from './nul-records.js';

/** One line of `git blame --porcelain`: the commit that last changed it, its number there and now, and its path there. */
export interface BlameLine {
  commit: string;
  origLine: number;
  finalLine: number;
  /** The file's path in `commit` (renames are followed by blame). */
  filename: string;
}

/**
 * Parses `git blame --porcelain`: per line a header `<commit> <orig> <final> [<count>]`, the
 * commit's headers the first time it appears (`filename` with every group), then the content after
 * a TAB. Content may hold any byte but a newline and is not kept. Pure. A 5,000-line file is some
 * 10,000 lines of output: headers are read by character codes, and only a commit id and the
 * `filename` headers become strings.
 */
export function parseBlamePorcelain(buf: Buffer): BlameLine[] {
  const parser = new BlamePorcelainParser();
  parser.push(buf);
  return parser.end();
}

/**
 * The same parse, chunk by chunk as git writes (a line may span chunks; latin1 keeps each byte
 * one character, so a chunk boundary never splits one). `onCommit` hears each commit the first
 * time a line names it, while blame still works. A content line is skipped as it streams by,
 * however long.
 */
export class BlamePorcelainParser {
  private readonly out: BlameLine[] = [];
  private readonly names = new Map<string, string>();
  private readonly previous = new Map<string, string>();
  private readonly seen = new Set<string>();
  private pending: { commit: string; origLine: number; finalLine: number } | null = null;
  /** The start of a line whose end has not come yet (never a content line: those are skipped). */
  private rest = '';
  private skipping = false;

  constructor(private readonly onCommit: (commit: string) => void = () => undefined) {}

  push(chunk: Buffer): void {
    let text = chunk.toString('latin1');
    let pos = 0;
    if (this.skipping) {
      const nl = text.indexOf('\n');
      if (nl < 0) return;
      this.skipping = false;
      pos = nl + 1;
    }
    if (this.rest !== '') {
      text = this.rest + text.slice(pos);
      pos = 0;
      this.rest = '';
    }
    while (pos < text.length) {
      if (this.pending !== null && text.charCodeAt(pos) === TAB) {
        this.content();
        const nl = text.indexOf('\n', pos);
        if (nl < 0) {
          this.skipping = true;
          return;
        }
        pos = nl + 1;
        continue;
      }
      const eol = text.indexOf('\n', pos);
      if (eol < 0) {
        this.rest = text.slice(pos);
        return;
      }
      this.header(text, pos, eol);
      pos = eol + 1;
    }
  }

  /** The lines, once git's output has ended. */
  end(): BlameLine[] {
    if (this.rest !== '') {
      const last = this.rest;
      this.rest = '';
      this.header(last, 0, last.length);
    }
    if (this.pending !== null) throw unparseable('blame --porcelain', 'output ends inside a line');
    return this.out;
  }

  /** A content line: the end of the pending line's record. */
  private content(): void {
    const p = this.pending as { commit: string; origLine: number; finalLine: number };
    const filename = this.names.get(p.commit);
    if (filename === undefined) throw unparseable('blame --porcelain', `no filename for ${p.commit}`);
    this.out.push({ commit: p.commit, origLine: p.origLine, finalLine: p.finalLine, filename });
    this.pending = null;
  }

  /** A line that is no content: a line header, or one of a commit's headers (only `filename` and `previous` are kept). */
  private header(text: string, start: number, eol: number): void {
    if (this.pending === null) {
      this.pending = lineHeader(text, start, eol);
      if (this.pending === null)
        throw unparseable('blame --porcelain', 'expected a line header', text.slice(start, eol));
      if (!this.seen.has(this.pending.commit)) {
        this.seen.add(this.pending.commit);
        this.onCommit(this.pending.commit);
      }
    } else if (text.startsWith('filename ', start)) {
      this.names.set(this.pending.commit, unquotePath(text.slice(start + 9, eol)));
    } else if (text.startsWith('previous ', start)) {
      // `previous <parent> <path>`: the path the lines had before this commit.
      const space = text.indexOf(' ', start + 9);
      if (space > 0 && space < eol)
        this.previous.set(this.pending.commit, unquotePath(text.slice(space + 1, eol)));
    }
  }

  /** The blamed commits that renamed the file: commit -> the file's path in its parent. */
  renames(): Map<string, string> {
    const out = new Map<string, string>();
    for (const [commit, before] of this.previous)
      if (before !== this.names.get(commit)) out.set(commit, before);
    return out;
  }
}

const TAB = 9;
const SPACE = 32;

/** `<commit> <orig> <final>[ <count>]` between `start` and `end`, else null (the same lines as OBJECT_ID_SOURCE and three or four decimal numbers). */
function lineHeader(
  text: string,
  start: number,
  end: number,
): { commit: string; origLine: number; finalLine: number } | null {
  let i = start;
  while (i < end && isLowerHex(text.charCodeAt(i))) i++;
  const idLength = i - start;
  if ((idLength !== 40 && idLength !== 64) || text.charCodeAt(i) !== SPACE) return null;
  const numbers: number[] = [];
  while (i < end && numbers.length < 3) {
    if (text.charCodeAt(i) !== SPACE) return null;
    let n = 0;
    const from = ++i;
    for (let c = text.charCodeAt(i); c >= 48 && c <= 57 && i < end; c = text.charCodeAt(++i))
      n = n * 10 + (c - 48);
    if (i === from) return null;
    numbers.push(n);
  }
  if (i !== end || numbers.length < 2) return null;
  return {
    commit: text.slice(start, start + idLength),
    origLine: numbers[0] as number,
    finalLine: numbers[1] as number,
  };
}

function isLowerHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102);
}

const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };

/** A path as git prints it in text output: C-quoted (with octal escapes for bytes) when it holds special characters. Input and output of the bytes are latin1. */
export function unquotePath(field: string): string {
  if (!field.startsWith('"')) return decodeBytes(Buffer.from(field, 'latin1'));
  if (!field.endsWith('"') || field.length < 2)
    throw unparseable('blame --porcelain', 'bad quoted path', field);
  const bytes: number[] = [];
  const body = field.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string;
    if (ch !== '\\') {
      bytes.push(ch.charCodeAt(0));
      continue;
    }
    const next = body[i + 1] ?? '';
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i + 1, i + 4), 8));
      i += 3;
    } else if (next in ESCAPES) {
      bytes.push(ESCAPES[next] as number);
      i += 1;
    } else throw unparseable('blame --porcelain', 'bad escape in a quoted path', field);
  }
  return decodeBytes(Buffer.from(bytes));
}
