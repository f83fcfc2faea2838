import { describe, expect, it } from 'vitest';
import type { FileLink } from '../../src/provenance/claims.js';
import { enoughBlocks, evidenceOf, MIN_EVIDENCE } from '../../src/provenance/evidence.js';

/** A FileLink adding `text` as lines `first`, `first + 1`, ... (one hunk each block). */
function adding(blocks: Array<{ first: number; text: string[] }>): FileLink {
  const hunks = blocks.map((b) => ({
    oldStart: 0,
    oldCount: 0,
    newStart: b.first,
    newCount: b.text.length,
    added: b.text,
  }));
  return {
    file: { entry: {} as FileLink['file']['entry'], patch: '', hunks },
    added: blocks.flatMap((b) => b.text.map((_, i) => b.first + i)),
    claims: [],
  };
}

describe('evidence (git blame’s 20 letters and digits)', () => {
  it('counts ASCII letters and digits and the bytes of other characters, nothing else', () => {
    expect(evidenceOf('  if (x) { }')).toBe(3);
    expect(evidenceOf('caf\xc3\xa9 = 1;')).toBe(6);
    expect(MIN_EVIDENCE).toBe(20);
  });

  it('keeps a block of carried lines with 20 or more, drops one with 19, each block on its own', () => {
    const twenty = 'abcdefghij0123456789';
    const f = adding([
      { first: 3, text: ['if (x) {', twenty.slice(0, 19), '}'] },
      { first: 10, text: [twenty.slice(0, 10), twenty.slice(10)] },
    ]);
    // Line 4 is the person's: lines 3 and 5 are blocks of their own, too small; 10-11 is one block of 20.
    expect(enoughBlocks(f, [1, null, 1, 2, 2])).toEqual([null, null, null, 2, 2]);
    expect(enoughBlocks(f, [1, 1, 1, null, null])).toEqual([1, 1, 1, null, null]);
    expect(enoughBlocks(f, [null, 1, null, 2, null])).toEqual([null, null, null, null, null]);
  });
});
