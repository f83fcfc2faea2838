import { decodeBytes } from '../../fs/path-bytes.js';
import { OBJECT_ID_SOURCE } from '../../../types/ids.js';
import { unparseable } from './nul-records.js';

/** One line of `git blame --porcelain`: the commit that last changed it, its number there and now, and its path there. */
export interface BlameLine {
  commit: string;
  origLine: number;
  finalLine: number;
  /** The file's path in `commit` (renames are followed by blame). */
  filename: string;
}

const LINE_HEADER = new RegExp(`^(${OBJECT_ID_SOURCE}) (\\d+) (\\d+)(?: (\\d+))?$`);

/**
 * Parses `git blame --porcelain`: per line a header `<commit> <orig> <final> [<count>]`, the
 * commit's headers the first time it appears (`filename` with every group), then the content after
 * a TAB. Content may hold any byte but a newline and is not kept. Pure.
 */
export function parseBlamePorcelain(buf: Buffer): BlameLine[] {
  const text = buf.toString('latin1');
  const out: BlameLine[] = [];
  const names = new Map<string, string>();
  let pending: { commit: string; origLine: number; finalLine: number } | null = null;
  let pos = 0;
  while (pos < text.length) {
    let eol = text.indexOf('\n', pos);
    if (eol < 0) eol = text.length;
    // A content line (after a TAB) is not kept: skipped without copying it.
    const content = pending !== null && text.charCodeAt(pos) === 9;
    const line = content ? '\t' : text.slice(pos, eol);
    pos = eol + 1;
    if (pending === null) {
      const m = LINE_HEADER.exec(line);
      if (!m) throw unparseable('blame --porcelain', 'expected a line header', line);
      pending = { commit: m[1] as string, origLine: Number(m[2]), finalLine: Number(m[3]) };
    } else if (line.startsWith('\t')) {
      const filename = names.get(pending.commit);
      if (filename === undefined) throw unparseable('blame --porcelain', `no filename for ${pending.commit}`);
      out.push({ ...pending, filename });
      pending = null;
    } else if (line.startsWith('filename ')) {
      names.set(pending.commit, unquotePath(line.slice(9)));
    }
  }
  if (pending !== null) throw unparseable('blame --porcelain', 'output ends inside a line');
  return out;
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
