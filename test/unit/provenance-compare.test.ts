/** The one comparison of anchors (verify --anchor, report --anchor, fetch): every difference named, none missed. */
import { describe, expect, it } from 'vitest';
import { anchorDifferences, sameAnchor } from '../../src/provenance/compare.js';
import type { Anchor, AnchorFile } from '../../types/anchor.js';

const file = (path: string, lines: number): AnchorFile => ({
  path,
  oldPath: null,
  status: 'modified',
  linesAdded: lines,
  linesFromRuns: lines,
  method: 'tree',
  origins: [{ runId: 'r1', iteration: 1, lines }],
});
const anchor: Anchor = {
  commit: 'a'.repeat(40),
  tree: 'b'.repeat(40),
  parents: ['c'.repeat(40)],
  createdAt: '2026-01-01T00:00:00.000Z',
  treeMatch: { runId: 'r1', iteration: 1, afterSha: 'd'.repeat(40) },
  runs: [{ runId: 'r1', iterations: [1] }],
  files: [file('a.txt', 1), file('b.txt', 2)],
  coverage: { files: 2, filesFromRuns: 2, linesAdded: 3, linesFromRuns: 3 },
  onlyRuns: null,
};

describe('anchorDifferences', () => {
  it('is empty for the same anchor recomputed later or with onlyRuns left out', () => {
    const without: Anchor = { ...anchor };
    delete without.onlyRuns;
    for (const other of [{ ...anchor, createdAt: '2027-01-01T00:00:00.000Z' }, without]) {
      expect(anchorDifferences(anchor, other)).toEqual([]);
      expect(sameAnchor(anchor, other)).toBe(true);
    }
  });

  it('names a duplicated file entry, a reordered list, a missing or changed file and a field', () => {
    const cases: Array<[Partial<Anchor>, string[]]> = [
      [{ files: [...anchor.files, file('a.txt', 1)] }, ['files[a.txt] (listed 2 times)']],
      [{ files: [file('b.txt', 2), file('a.txt', 1)] }, ['files (order)']],
      [{ files: [file('a.txt', 1)] }, ['files[b.txt]']],
      [{ files: [file('a.txt', 5), file('b.txt', 2)] }, ['files[a.txt]']],
      [{ coverage: { ...anchor.coverage, linesFromRuns: 0 } }, ['coverage']],
      [{ onlyRuns: ['r1'] }, ['onlyRuns']],
    ];
    for (const [change, named] of cases) {
      const recorded = { ...anchor, ...change };
      expect(anchorDifferences(recorded, anchor)).toEqual(named);
      // One comparison: sameAnchor is false exactly when a difference is named.
      expect(sameAnchor(recorded, anchor)).toBe(false);
    }
  });
});
