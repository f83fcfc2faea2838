import { describe, expect, it } from 'vitest';
import {
  ownerOf,
  sessionChanges,
  thinnable,
  linePosition,
  ownsStep,
} from '../../src/checkpoints/sessions.js';

describe('ownerOf: whose change the step before a checkpoint is', () => {
  it("a session's change or restore is the session's; a baseline, prompt, manual or safety checkpoint is nobody's", () => {
    expect(ownerOf({ session: 'a', role: 'change' })).toBe('a');
    expect(ownerOf({ session: 'a', role: 'restore' })).toBe('a');
    expect(ownerOf({ session: 'a', role: 'baseline' })).toBeNull();
    expect(ownerOf({ session: 'a', role: 'prompt', prompt: 1 })).toBeNull();
    expect(ownerOf({})).toBeNull();
    expect(ownerOf({ kind: 'safety' })).toBeNull();
  });

  it('records made before roles: a prompt number means a prompt checkpoint, else a tool of the session', () => {
    expect(ownerOf({ session: 'a', prompt: 2 })).toBeNull();
    expect(ownerOf({ session: 'a' })).toBe('a');
  });
});

describe('sessionChanges', () => {
  it("the session's paths, and those someone else changed after the session last did", () => {
    const { changed, conflicts } = sessionChanges('a', [
      { owner: 'a', paths: ['x', 'y', 'z'] },
      { owner: 'b', paths: ['y', 'w'] },
      { owner: null, paths: ['z'] },
      { owner: 'a', paths: ['z'] },
      { owner: null, paths: ['v'] },
    ]);
    expect(changed).toEqual(['x', 'y', 'z']);
    // y: b after a; z: a person, then a again (a last: no conflict).
    expect(conflicts).toEqual(['y']);
  });

  it('another session only: nothing of ours', () => {
    expect(sessionChanges('a', [{ owner: 'b', paths: ['x'] }])).toEqual({ changed: [], conflicts: [] });
  });
});

describe('thinnable: checkpoints.keep as checkpoints are made', () => {
  const cp = (oid: string, session?: string, role?: 'baseline' | 'prompt' | 'change' | 'restore') => ({
    oid,
    ...(session === undefined ? {} : { session }),
    ...(role === undefined ? {} : { role }),
  });

  it("past keep, drops a session's change only when the next newer checkpoint is that session's change too", () => {
    // Newest first.
    const line = [
      cp('a5', 'a', 'change'),
      cp('a4', 'a', 'change'),
      cp('b2', 'b', 'change'),
      cp('a3', 'a', 'change'),
      cp('a2', 'a', 'change'),
      cp('ap', 'a', 'prompt'),
      cp('a1', 'a', 'change'),
      cp('a0', 'a', 'change'),
      cp('ab', 'a', 'baseline'),
      cp('m'),
    ];
    expect(thinnable(line, 0, new Set()).map((e) => e.oid)).toEqual(['a4', 'a2', 'a0']);
    // The newest `keep` and what a marker points at stay.
    expect(thinnable(line, 2, new Set(['a2'])).map((e) => e.oid)).toEqual(['a0']);
  });

  it('keeps baselines, prompts, restores, records without a role and manual checkpoints however many there are', () => {
    const line = [
      cp('n', 'a', 'change'),
      cp('r', 'a', 'restore'),
      cp('p', 'a', 'prompt'),
      cp('l', 'a'),
      cp('b', 'a', 'baseline'),
      cp('m'),
    ];
    expect(thinnable(line, 0, new Set())).toEqual([]);
  });
});

describe('linePosition and ownsStep: a pruned step is not handed to the next owner', () => {
  const change = (session: string) => ({ kind: 'track' as const, session, role: 'change' as const });
  const prompt = (session: string) => ({
    kind: 'track' as const,
    session,
    role: 'prompt' as const,
    prompt: 1,
  });

  it("counts the line and reaches back over one owner's run of changes only", () => {
    const p = { ...prompt('a'), ...linePosition(null, prompt('a')) };
    const a1 = { ...change('a'), ...linePosition(p, change('a')) };
    const a2 = { ...change('a'), ...linePosition(a1, change('a')) };
    const b1 = { ...change('b'), ...linePosition(a2, change('b')) };
    expect([p, a1, a2, b1].map((e) => [e.seq, e.span])).toEqual([
      [1, 0],
      [2, 1],
      [3, 1],
      [4, 3],
    ]);
    expect(ownsStep(p, a2)).toBe(true); // a1 pruned: a2 covers it, both a's
    expect(ownsStep(a1, b1)).toBe(false); // a2 pruned: its change would be b's
    expect(ownsStep(a2, b1)).toBe(true);
  });

  it('takes records without a position as they come', () => {
    expect(ownsStep({}, { seq: 9, span: 8 })).toBe(true);
    expect(ownsStep({ seq: 2 }, {})).toBe(true);
    expect(linePosition({ ...change('a') }, change('a'))).toEqual({ seq: 1, span: 0 });
  });
});

describe('sessionChanges: a path blocked by another change above or below it', () => {
  it('is a conflict: a file where the directory was, or files where the file was', () => {
    const steps = [
      { owner: 'a', paths: ['d/x', 'f'] },
      { owner: 'b', paths: ['d', 'f/y'] },
    ];
    expect(sessionChanges('a', steps)).toEqual({ changed: ['d/x', 'f'], conflicts: ['d/x', 'f'] });
    expect(sessionChanges('a', [{ owner: 'b', paths: ['d'] }, ...steps.slice(0, 1)]).conflicts).toEqual([]);
  });
});
