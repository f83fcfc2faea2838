import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseIndexStat } from '../../src/git/parsers/ls-files-debug.js';

const canned = readFileSync(new URL('../../fixtures/git-output/ls-files-debug.bin', import.meta.url), 'utf8');

describe('parseIndexStat (ls-files -z -v -s --debug)', () => {
  it('reads each entry with its tag, mode, blob and cached stat data, whatever its name holds', () => {
    const entries = parseIndexStat(canned);
    expect(entries.map((e) => [e.tag, e.path])).toEqual([
      ['h', 'assumed.txt'],
      ['h', 'odd name\nh.txt'],
      ['H', 'plain.txt'],
      ['S', 'skipped.txt'],
    ]);
    for (const e of entries) {
      expect(e.mode).toBe('100644');
      expect(e.oid).toMatch(/^[0-9a-f]{40}$/);
      expect(e.ctime).toBeGreaterThan(1_600_000_000);
      expect(e.mtime).toBeGreaterThan(1_600_000_000);
      expect(e.ino).toBeGreaterThan(0n);
    }
  });

  it('reads the seconds, not the nanoseconds, and the inode as git keeps it', () => {
    const oid = 'a'.repeat(40);
    const stat =
      '  ctime: 12:999\n  mtime: 34:5\n  dev: 1\tino: 4294967295\n  uid: 0\tgid: 0\n  size: 3\tflags: 0\n';
    expect(parseIndexStat(`H 100644 ${oid} 0\tx\0${stat}`)).toEqual([
      { tag: 'H', mode: '100644', oid, path: 'x', ctime: 12, mtime: 34, ino: 4294967295n },
    ]);
  });

  it('an empty index has none; output it cannot read is GIT_OUTPUT_UNPARSEABLE', () => {
    expect(parseIndexStat('')).toEqual([]);
    const unparseable = expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' });
    expect(() => parseIndexStat(`H 100644 ${'a'.repeat(40)} 0\tx\0`)).toThrow(unparseable);
    expect(() => parseIndexStat(`H 100644 ${'a'.repeat(40)} 0\tx\0  ctime: 1:2\n`)).toThrow(unparseable);
    expect(() => parseIndexStat(`H 100644 ${'a'.repeat(40)} 0\tx`)).toThrow(unparseable);
  });
});
