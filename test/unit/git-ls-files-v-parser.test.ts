import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseAssumedUnchanged } from '../../src/git/parsers/ls-files-tagged.js';

const canned = readFileSync(new URL('../../fixtures/git-output/ls-files-v.bin', import.meta.url), 'utf8');

describe('parseAssumedUnchanged (ls-files -z -v)', () => {
  it('names the entries with a lower-case tag, whatever their names hold; skip-worktree (S) is not one', () => {
    expect(parseAssumedUnchanged(canned)).toEqual(['assumed.txt', 'odd name\nh.txt']);
  });

  it('an empty index has none; a record it cannot read is GIT_OUTPUT_UNPARSEABLE', () => {
    expect(parseAssumedUnchanged('')).toEqual([]);
    expect(() => parseAssumedUnchanged('H\0')).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
    expect(() => parseAssumedUnchanged('12 x\0')).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
  });
});
