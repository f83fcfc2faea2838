import { OBJECT_ID_SOURCE } from '../../../types/ids.js';
import { unparseable } from './nul-records.js';

/** One object of `cat-file --batch` output. */
export type BatchObject =
  { kind: 'found'; oid: string; type: string; content: Buffer } | { kind: 'missing'; name: string };

const FOUND = new RegExp(`^(${OBJECT_ID_SOURCE}) ([a-z]+) (\\d+)$`);

/**
 * Parses `cat-file --batch` output: `<oid> SP <type> SP <size> LF <bytes> LF` per object, or
 * `<name> SP missing LF` (also `ambiguous`). Sizes are byte counts, so contents are sliced, never
 * scanned for separators.
 */
export function parseCatFileBatch(buf: Buffer): BatchObject[] {
  const out: BatchObject[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const eol = buf.indexOf(0x0a, pos);
    if (eol < 0) throw unparseable('cat-file --batch', 'output ends inside a header');
    const header = buf.toString('utf8', pos, eol);
    pos = eol + 1;
    const missing = /^(.*) (missing|ambiguous)$/.exec(header);
    if (missing) {
      out.push({ kind: 'missing', name: missing[1] ?? '' });
      continue;
    }
    const found = FOUND.exec(header);
    if (!found) throw unparseable('cat-file --batch', 'malformed header', header);
    const size = Number(found[3]);
    if (pos + size + 1 > buf.length || buf[pos + size] !== 0x0a)
      throw unparseable('cat-file --batch', `object ${found[1]} is truncated`);
    out.push({
      kind: 'found',
      oid: found[1] ?? '',
      type: found[2] ?? '',
      content: buf.subarray(pos, pos + size),
    });
    pos += size + 1;
  }
  return out;
}
