import { describe, expect, it } from 'vitest';
import { afterDates, orderTime, sortGateResults } from '../../types/gate-rules.js';

const AFTER = 'a'.repeat(40);
const snapshots = [{ afterSha: AFTER, createdAt: '2026-11-27T10:00:00.000Z' }];
const v = (id: string, startedAt: string, receivedAt?: string) => ({
  id,
  startedAt,
  afterSha: AFTER,
  ...(receivedAt === undefined ? {} : { receivedAt }),
});

describe('the one order of verdicts (docs/gates.md, "Which verdict is the newest")', () => {
  it('a verdict recorded here counts at its startedAt', () => {
    expect(orderTime(v('x', '2099-01-01T00:00:00.000Z'))).toBe(Date.parse('2099-01-01T00:00:00.000Z'));
  });

  it('a received verdict is bounded: not after it was received, not before its after commit', () => {
    const dates = afterDates(snapshots);
    const late = v('x', '2099-01-01T00:00:00.000Z', '2026-11-27T11:00:00.000Z');
    expect(orderTime(late, dates)).toBe(Date.parse('2026-11-27T11:00:00.000Z'));
    const early = v('y', '1970-01-01T00:00:00.000Z', '2026-11-27T11:00:00.000Z');
    expect(orderTime(early, dates)).toBe(Date.parse('2026-11-27T10:00:00.000Z'));
    const honest = v('z', '2026-11-27T10:30:00.000Z', '2026-11-27T11:00:00.000Z');
    expect(orderTime(honest, dates)).toBe(Date.parse('2026-11-27T10:30:00.000Z'));
  });

  it('a verdict recorded here after the fetch supersedes the fetched one, even at the same moment', () => {
    const fetched = v('a-fetched', '2099-01-01T00:00:00.000Z', '2026-11-27T11:00:00.000Z');
    const here = v('b-here', '2026-11-27T11:00:00.000Z');
    const before = v('c-here', '2026-11-27T10:59:59.000Z');
    expect(sortGateResults([here, fetched, before], snapshots).map((g) => g.id)).toEqual([
      'c-here',
      'a-fetched',
      'b-here',
    ]);
  });
});

describe('verdicts the bounds move to one moment keep their own order', () => {
  it('two fetched verdicts dated before their after commit stay in startedAt order, whatever their ids', () => {
    const first = v('z-first', '2026-01-01T10:00:00.000Z', '2026-11-27T11:00:00.000Z');
    const second = v('a-second', '2026-01-01T11:00:00.000Z', '2026-11-27T11:00:00.000Z');
    expect(sortGateResults([second, first], snapshots).map((g) => g.id)).toEqual(['z-first', 'a-second']);
  });
});
