import { describe, expect, it } from 'vitest';
import {
  decodeBytes,
  encodeBytes,
  fsPath,
  hasEscapedBytes,
  readEscapedBytes,
} from '../../src/fs/path-bytes.js';

describe('lossless file-name bytes (PEP 383 escapes)', () => {
  it('leaves valid UTF-8 as the usual string', () => {
    for (const text of ['plain.txt', 'café/ü.txt', 'emoji 😀 name', '']) {
      expect(decodeBytes(Buffer.from(text, 'utf8'))).toBe(text);
      expect(encodeBytes(text).equals(Buffer.from(text, 'utf8'))).toBe(true);
      expect(hasEscapedBytes(text)).toBe(false);
      expect(fsPath(text)).toBe(text);
    }
  });

  it('escapes each invalid byte as U+DC80..U+DCFF and round-trips every byte string', () => {
    expect(decodeBytes(Buffer.from([0x61, 0xff, 0xfe, 0x62]))).toBe('a\udcff\udcfeb');
    // Overlong forms, encoded surrogates, truncated sequences and stray continuation bytes.
    const odd = [
      [0xc0, 0xaf],
      [0xed, 0xa0, 0x80],
      [0xe2, 0x82],
      [0x80],
      [0xf4, 0x90, 0x80, 0x80],
      [0xe9, 0x2d],
    ];
    for (const bytes of odd) {
      const buf = Buffer.from(bytes);
      const text = decodeBytes(buf);
      expect(hasEscapedBytes(text)).toBe(true);
      expect(encodeBytes(text).equals(buf)).toBe(true);
      expect(Buffer.isBuffer(fsPath(text))).toBe(true);
    }
    for (let seed = 0; seed < 200; seed += 1) {
      const buf = Buffer.from(Array.from({ length: 12 }, (_, i) => (seed * 131 + i * 71) % 256));
      expect(encodeBytes(decodeBytes(buf)).equals(buf)).toBe(true);
    }
  });

  it('JSON shows escaped bytes as \\udcNN, and reading the JSON back gives the same bytes', () => {
    const name = decodeBytes(Buffer.from([0x63, 0xe9, 0x2e, 0x74]));
    const json = JSON.stringify({ path: name });
    expect(json).toBe('{"path":"c\\udce9.t"}');
    expect(
      encodeBytes((JSON.parse(json) as { path: string }).path).equals(Buffer.from([0x63, 0xe9, 0x2e, 0x74])),
    ).toBe(true);
  });

  it('reads a name given as JSON prints it: \\udcNN (NN 80 to ff) is the byte, nothing else is touched', () => {
    const name = decodeBytes(Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x2e, 0x74]));
    expect(readEscapedBytes(JSON.stringify(name).slice(1, -1))).toBe(name);
    expect(readEscapedBytes('caf\\uDCE9.t')).toBe('caf\udce9.t');
    for (const text of ['plain.txt', 'caf\\udc7f.txt', 'caf\\u00e9.txt', 'caf\udce9.txt'])
      expect(readEscapedBytes(text)).toBe(null);
  });
});
