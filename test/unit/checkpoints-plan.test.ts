import { describe, expect, it } from 'vitest';
import type { TreeEntry } from '../../src/git/parsers/ls-tree.js';
import { decodeMessage, encodeMessage, newCheckpointRef, refTime } from '../../src/checkpoints/message.js';
import { knownPaths } from '../../src/checkpoints/record.js';
import {
  changedBetween,
  firstPatchWins,
  inTheWay,
  planChanges,
  restoreDesired,
  WRITE_BATCH,
  WRITE_BATCH_BYTES,
  writeBatches,
} from '../../src/checkpoints/plan.js';
import { assertRetention, selectRemovals } from '../../src/checkpoints/retention.js';

const entry = (path: string, oid: string, mode = '100644'): TreeEntry => ({
  path,
  oid: oid.repeat(40).slice(0, 40),
  mode,
  type: 'blob',
});
const tree = (...entries: TreeEntry[]): Map<string, TreeEntry> => new Map(entries.map((e) => [e.path, e]));

describe('checkpoint planning (pure)', () => {
  const current = tree(
    entry('same.txt', 'a'),
    entry('changed.txt', 'b'),
    entry('created.txt', 'c'),
    entry('mode.sh', 'd'),
  );
  const target = tree(
    entry('same.txt', 'a'),
    entry('changed.txt', 'e'),
    entry('deleted.txt', 'f'),
    entry('mode.sh', 'd', '100755'),
  );

  it('inTheWay: what the capture shows where a write goes, once the plan has deleted its own', () => {
    const now = tree(
      entry('d', 'a'),
      entry('e/f', 'b'),
      entry('l', 'c'),
      entry('s/big', 'd'),
      entry('u', 'e'),
    );
    const plan = planChanges(
      [
        ['d/x', entry('', '1')], // a file stands where its directory goes
        ['e', entry('', '2')], // a directory stands where it goes
        ['l', null],
        ['l/y', entry('', '3')], // below a file the plan deletes first: fine
        ['s/big', null], // under a skipped path
        ['s/new', null], // in neither, under a skipped path (a nested repository): it may stand there
        ['u', null],
        ['gone', null],
      ],
      now,
      (p) => p === 'u', // skipped by the target: stays
    );
    expect(inTheWay(plan, now, ['s'])).toEqual(['d/x', 'e', 's/big', 's/new', 'u']);
  });

  it('restore writes changed and deleted files, removes created ones, leaves equal ones', () => {
    const plan = planChanges(restoreDesired(target, current), current);
    expect(plan.writes.map((w) => w.path).sort()).toEqual(['changed.txt', 'deleted.txt', 'mode.sh']);
    expect(plan.deletes).toEqual(['created.txt']);
    expect(plan.uncovered).toEqual([]);
  });

  it('revert plans only the named files; a file absent from both is uncovered', () => {
    const plan = planChanges(
      [
        ['created.txt', null],
        ['never.txt', null],
        ['changed.txt', target.get('changed.txt') ?? null],
      ],
      current,
    );
    expect(plan).toMatchObject({ deletes: ['created.txt'], uncovered: ['never.txt'] });
    expect(plan.writes.map((w) => w.path)).toEqual(['changed.txt']);
  });

  it('selects changed paths under files or directories', () => {
    const a = tree(
      entry('src/x.ts', 'a'),
      entry('src/y.ts', 'b'),
      entry('docs/r.md', 'c'),
      entry('srcfile', 'd'),
    );
    const b = tree(
      entry('src/x.ts', 'a'),
      entry('src/y.ts', 'e'),
      entry('docs/r.md', 'f'),
      entry('srcfile', 'e'),
    );
    expect(changedBetween(a, b, null)).toEqual(['docs/r.md', 'src/y.ts', 'srcfile']);
    expect(changedBetween(a, b, ['src'])).toEqual(['src/y.ts']);
    expect(changedBetween(a, b, [''])).toEqual(['docs/r.md', 'src/y.ts', 'srcfile']);
  });

  it('first patch naming a file wins', () => {
    const wins = firstPatchWins([
      ['a', 'h1'],
      ['b', 'h1'],
      ['b', 'h2'],
      ['c', 'h2'],
    ]);
    expect([...wins]).toEqual([
      ['a', 'h1'],
      ['b', 'h1'],
      ['c', 'h2'],
    ]);
  });

  it('retention keeps the newest and every marked checkpoint', () => {
    const refs = ['r5', 'r4', 'r3', 'r2', 'r1'].map((ref) => ({ ref, oid: `${ref}-oid` }));
    expect(selectRemovals(refs, 2, new Set(['r1-oid'])).map((r) => r.ref)).toEqual(['r3', 'r2']);
    expect(selectRemovals(refs, 0, new Set()).length).toBe(5);
    expect(() => assertRetention(-1, 'now')).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => assertRetention(1, '--exec=x')).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );
    expect(() => assertRetention(1, '2.weeks.ago')).not.toThrow();
  });

  it('checkpoint messages round-trip labels of any text; ref names sort by time', () => {
    const meta = {
      label: 'multi\nline "quoted"',
      createdAt: '2025-01-02T03:04:05.000Z',
      kind: 'safety' as const,
    };
    const body = encodeMessage(meta).split('\n\n').slice(1).join('\n\n');
    expect(decodeMessage(body, '2025-01-01T00:00:00Z')).toEqual(meta);
    expect(decodeMessage('not ours', '2025-01-01T00:00:00+00:00')).toEqual({
      label: null,
      createdAt: '2025-01-01T00:00:00.000Z',
      kind: 'track',
    });
    const first = newCheckpointRef(1_000);
    const second = newCheckpointRef(1_000);
    expect(first).toMatch(/^refs\/checkpoints\/19700101T000001000Z-[0-9a-f]{6}$/);
    expect(second > first).toBe(true);
    // Never before the newest checkpoint (a clock stepped back); a time no name holds is no floor.
    const later = newCheckpointRef(1_000, Date.UTC(2030, 0, 1));
    expect(refTime(later)).toMatch(/^2030-01-01T00:00:00\.\d{3}Z$/);
    const after = [newCheckpointRef(5_000, 8.64e15), newCheckpointRef(6_000, Number.NaN)];
    expect(after.map((r) => r.slice(0, 21))).toEqual(['refs/checkpoints/2030', 'refs/checkpoints/2030']);
    expect((after[0] as string) > later && (after[1] as string) > (after[0] as string)).toBe(true);
  });
});

describe('knownPaths', () => {
  it('holds every path and every directory above one, nothing else', () => {
    expect([...knownPaths(['a/b/c.txt', 'a/d.txt', 'e'])].sort()).toEqual([
      'a',
      'a/b',
      'a/b/c.txt',
      'a/d.txt',
      'e',
    ]);
    expect(knownPaths([]).size).toBe(0);
  });
});

describe('writeBatches: what a restore reads from git at once', () => {
  it('is bounded by bytes as well as by count: large blobs are never read all at once', () => {
    const mib = 1024 * 1024;
    const big = Array.from({ length: 40 }, (_, i) => entry(`big${i}`, (i % 10).toString()));
    const sizes = new Map(big.map((e) => [e.oid, 10 * mib]));
    const batches = writeBatches(big, sizes);
    expect(batches.flat()).toEqual(big);
    for (const b of batches) expect(b.length * 10 * mib).toBeLessThanOrEqual(WRITE_BATCH_BYTES);
    // A blob above the bound is read alone; small ones still go WRITE_BATCH at a time.
    const huge = entry('huge', 'f');
    expect(writeBatches([huge, big[0] as TreeEntry], new Map([[huge.oid, WRITE_BATCH_BYTES * 2]]))).toEqual([
      [huge],
      [big[0]],
    ]);
    const small = Array.from({ length: WRITE_BATCH + 1 }, (_, i) => entry(`s${i}`, 'a'));
    expect(writeBatches(small, new Map()).map((b) => b.length)).toEqual([WRITE_BATCH, 1]);
  });
});
