/**
 * What a checkpoint keeps of what its capture skipped, and how a restore to it reads that back:
 * a path it skipped (or one below a skipped directory) is never deleted (pure: no git).
 */
import { describe, expect, it } from 'vitest';
import type { RefRecord } from '../../src/git/parsers/for-each-ref.js';
import type { TreeEntry } from '../../src/git/parsers/ls-tree.js';
import { encodeMessage, type CheckpointMeta } from '../../src/checkpoints/message.js';
import { planChanges, restoreDesired } from '../../src/checkpoints/plan.js';
import {
  sameSkips,
  SKIPPED_CHARS,
  skippedBy,
  skipRecord,
  type Skip,
} from '../../src/checkpoints/skip-rules.js';

const skip = (path: string, reason: Skip['reason']): Skip => ({ path, reason, size: null, indexed: false });

/** A checkpoint ref record whose commit message is what `track` writes for `meta`. */
function record(ref: string, tree: string, extra: Partial<CheckpointMeta> = {}): RefRecord {
  const meta: CheckpointMeta = {
    label: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    kind: 'track',
    ...extra,
  };
  const body = encodeMessage(meta).split('\n\n').slice(1).join('\n\n');
  return { ref, oid: `c${tree.slice(1)}`, tree, date: meta.createdAt, body };
}

const T1 = '1'.repeat(40);

describe('skipped paths kept with a checkpoint', () => {
  it('are kept by reason, and a restore to that checkpoint never deletes them or what is below them', () => {
    const kept = skipRecord([
      skip('big.bin', 'too-large'),
      skip('sub', 'nested-repository'),
      skip('b2', 'too-large'),
    ]);
    expect(kept).toEqual({ skipped: { 'too-large': ['big.bin', 'b2'], 'nested-repository': ['sub'] } });
    const records = [record('refs/checkpoints/a', T1, kept)];
    const skipped = skippedBy(records, 'refs/checkpoints/a');
    expect(
      ['big.bin', 'sub', 'sub/f', 'sub/deep/g', 'subway', 'big.bin2', 'x/big.bin'].filter(skipped),
    ).toEqual(['big.bin', 'sub', 'sub/f', 'sub/deep/g']);
    // By tree id (or its start) every checkpoint of that tree counts.
    expect(skippedBy(records, T1.slice(0, 8))('big.bin')).toBe(true);

    const entry = (path: string): TreeEntry => ({ path, oid: 'a'.repeat(40), mode: '100644', type: 'blob' });
    const current = new Map(['big.bin', 'sub/f', 'new.txt'].map((p) => [p, entry(p)]));
    const plan = planChanges(restoreDesired(new Map(), current), current, skipped);
    expect(plan.deletes).toEqual(['new.txt']);
    expect(plan.uncovered).toEqual(['big.bin', 'sub/f']);
  });

  it("a checkpoint made before skips were kept, or that skipped nothing, keeps today's behaviour", () => {
    expect(skipRecord([])).toEqual({});
    const old = [record('refs/checkpoints/old', T1)];
    expect(skippedBy(old, 'refs/checkpoints/old')('big.bin')).toBe(false);
    expect(skippedBy(old, 'refs/checkpoints/none')('big.bin')).toBe(false);
  });

  it('past SKIPPED_CHARS only "many" is kept, and a restore to it deletes nothing it does not hold', () => {
    const many = Array.from({ length: SKIPPED_CHARS / 10 }, (_, i) =>
      skip(`data/file-${i}.bin`, 'too-large'),
    );
    const kept = skipRecord(many);
    expect(kept).toEqual({ skipped: 'many' });
    const skipped = skippedBy([record('refs/checkpoints/m', T1, kept)], 'refs/checkpoints/m');
    expect(['anything', 'a/b/c'].every(skipped)).toBe(true);
  });

  it('names that are not UTF-8 and control characters round-trip through the commit message', () => {
    const odd = 'caf\udce9/\u0001line\nbreak.bin';
    const kept = skipRecord([skip(odd, 'unreadable')]);
    const records = [record('refs/checkpoints/o', T1, kept)];
    expect(skippedBy(records, 'refs/checkpoints/o')(`${odd}`)).toBe(true);
    expect(sameSkips(records[0] as RefRecord, kept)).toBe(true);
    expect(sameSkips(records[0] as RefRecord, {})).toBe(false);
  });
});
