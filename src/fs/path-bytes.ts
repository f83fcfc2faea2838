/**
 * File names are bytes; JavaScript strings are UTF-16. To keep every name lossless end to end,
 * bytes are decoded the way PEP 383 ("surrogateescape") does: valid UTF-8 becomes the usual
 * characters, and each byte that is not part of valid UTF-8 becomes the lone surrogate
 * U+DC80..U+DCFF (U+DC00 + the byte). No valid UTF-8 text decodes to a lone surrogate, so the
 * mapping is reversible, and a name that is valid UTF-8 is the plain string everyone expects.
 * JSON output writes a lone surrogate as `\udcNN`: escaped, but lossless.
 */

const LOW = 0xdc80;
const HIGH = 0xdcff;

/** Decodes bytes (a file name, or git's -z output) losslessly: invalid UTF-8 bytes become U+DC80+byte. */
export function decodeBytes(buf: Buffer): string {
  // Fast path: fully valid UTF-8 round-trips through the ordinary decoder.
  const plain = buf.toString('utf8');
  if (!plain.includes('\ufffd') || Buffer.from(plain, 'utf8').equals(buf)) return plain;
  let out = '';
  let i = 0;
  while (i < buf.length) {
    const len = validSequenceLength(buf, i);
    if (len === 0) {
      out += String.fromCharCode(0xdc00 + (buf[i] as number));
      i += 1;
    } else {
      out += buf.toString('utf8', i, i + len);
      i += len;
    }
  }
  return out;
}

/** The inverse of decodeBytes. */
export function encodeBytes(text: string): Buffer {
  if (!hasEscapedBytes(text)) return Buffer.from(text, 'utf8');
  const parts: Buffer[] = [];
  let run = '';
  for (const ch of text) {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= LOW && code <= HIGH) {
      if (run !== '') parts.push(Buffer.from(run, 'utf8'));
      run = '';
      parts.push(Buffer.from([code - 0xdc00]));
    } else {
      run += ch;
    }
  }
  if (run !== '') parts.push(Buffer.from(run, 'utf8'));
  return Buffer.concat(parts);
}

/** True if `text` holds bytes that are not valid UTF-8 (escaped as lone surrogates). */
export function hasEscapedBytes(text: string): boolean {
  return /[\udc80-\udcff]/.test(text) && /(?<![\ud800-\udbff])[\udc80-\udcff]/.test(text);
}

/** `\udcNN` in a text, NN from 80 to ff: how JSON output writes a byte of a name that is not UTF-8. */
const ESCAPED_BYTE = /\\udc([89a-f][0-9a-f])/gi;

/**
 * A name given as JSON output prints it, each `\udcNN` read as the byte 0xNN (U+DC00 + it, as
 * decodeBytes keeps it); null when the text holds no such escape. A command line cannot carry
 * such a byte itself (Node turns it into U+FFFD): this is how one names that file there.
 */
export function readEscapedBytes(text: string): string | null {
  if (text.search(ESCAPED_BYTE) === -1) return null;
  return text.replace(ESCAPED_BYTE, (_, hex: string) =>
    String.fromCharCode(0xdc00 + Number.parseInt(hex, 16)),
  );
}

/** A path for node:fs calls: the plain string, or its bytes when it holds escaped bytes. */
export function fsPath(path: string): string | Buffer {
  return hasEscapedBytes(path) ? encodeBytes(path) : path;
}

/** Length of the valid UTF-8 sequence starting at `i`, or 0 when the byte there starts none. */
function validSequenceLength(buf: Buffer, i: number): number {
  const b0 = buf[i] as number;
  if (b0 < 0x80) return 1;
  const cont = (k: number): boolean => i + k < buf.length && ((buf[i + k] as number) & 0xc0) === 0x80;
  if (b0 >= 0xc2 && b0 <= 0xdf) return cont(1) ? 2 : 0;
  if (b0 >= 0xe0 && b0 <= 0xef) {
    if (!cont(1) || !cont(2)) return 0;
    const b1 = buf[i + 1] as number;
    if (b0 === 0xe0 && b1 < 0xa0) return 0; // overlong
    if (b0 === 0xed && b1 >= 0xa0) return 0; // UTF-16 surrogates are not valid UTF-8
    return 3;
  }
  if (b0 >= 0xf0 && b0 <= 0xf4) {
    if (!cont(1) || !cont(2) || !cont(3)) return 0;
    const b1 = buf[i + 1] as number;
    if (b0 === 0xf0 && b1 < 0x90) return 0;
    if (b0 === 0xf4 && b1 >= 0x90) return 0;
    return 4;
  }
  return 0;
}
