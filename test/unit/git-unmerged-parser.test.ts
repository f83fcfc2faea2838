import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseUnmergedPaths } from '../../src/git/parsers/ls-files-unmerged.js';

const canned = readFileSync(new URL('../../fixtures/git-output/ls-files-unmerged.bin', import.meta.url));

describe('parseUnmergedPaths', () => {
  it('lists each conflicted path once, from a real conflicted merge', () => {
    expect(parseUnmergedPaths(canned)).toEqual([
      'both-add.txt',
      'both-mod.txt',
      'del-ours.txt',
      'del-theirs.txt',
    ]);
  });

  it('keeps names with spaces, tabs and newlines whole, and reads empty output as no conflicts', () => {
    const id = 'a'.repeat(40);
    expect(parseUnmergedPaths(`100644 ${id} 1\ta b\tc\nd\u0000100644 ${id} 2\ta b\tc\nd\u0000`)).toEqual([
      'a b\tc\nd',
    ]);
    expect(parseUnmergedPaths('')).toEqual([]);
  });

  it('refuses output it does not recognise with GIT_OUTPUT_UNPARSEABLE', () => {
    expect(() => parseUnmergedPaths('garbage\u0000')).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
  });
});
