import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseIndexEntries, uncomparedOf } from '../../src/git/parsers/ls-files-tagged.js';

/** The parsers as state.ts uses them: every index entry, then the ones git does not compare. */
const parseUncompared = (text: string) => uncomparedOf(parseIndexEntries(text));

const canned = readFileSync(new URL('../../fixtures/git-output/ls-files-v.bin', import.meta.url), 'utf8');

describe('parseUncompared (ls-files -z -v -s)', () => {
  it('names the entries with a lower-case tag (assume-unchanged) or S (skip-worktree), whatever their names hold', () => {
    expect(parseUncompared(canned).map((e) => e.path)).toEqual([
      'assumed.txt',
      'odd name\nh.txt',
      'skipped.txt',
    ]);
    expect(parseUncompared(canned).every((e) => /^[0-9a-f]{40}$/.test(e.oid))).toBe(true);
    expect(parseUncompared(canned).map((e) => e.skipWorktree)).toEqual([false, false, true]);
  });

  it('a path marked both ways (tag s) is skip-worktree', () => {
    const oid = 'a'.repeat(40);
    const both = parseUncompared(`s 100644 ${oid} 0\tboth.txt\0h 100644 ${oid} 0\tassumed.txt\0`);
    expect(both.map((e) => e.skipWorktree)).toEqual([true, false]);
  });

  it('an empty index has none; a record it cannot read is GIT_OUTPUT_UNPARSEABLE', () => {
    expect(parseUncompared('')).toEqual([]);
    expect(() => parseUncompared('H\0')).toThrow(expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }));
    expect(() => parseUncompared('h 100644 xyz 0\tx\0')).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
  });
});
