import { describe, expect, it } from 'vitest';
import {
  cappedTouched,
  ownerOf,
  sessionChanges,
  stepParts,
  thinnable,
  linePosition,
  ownsStep,
  touchedOfStep,
  TOUCHED_MAX,
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

describe('a step whose tool named the paths it wrote (touched)', () => {
  it("is its owner's for those paths and what lies below them; the rest of it is nobody's, after the owner's part", () => {
    const paths = ['a.txt', 'd/x', 'd/y/z', 'dx', 's2.txt'];
    expect(stepParts('s1', paths, ['a.txt', 'd'])).toEqual([
      { owner: 's1', paths: ['a.txt', 'd/x', 'd/y/z'] },
      { owner: null, paths: ['dx', 's2.txt'] },
    ]);
    // No paths named (a shell tool), or nobody's step: the step as it is.
    expect(stepParts('s1', paths, undefined)).toEqual([{ owner: 's1', paths }]);
    expect(stepParts(null, paths, ['a.txt'])).toEqual([{ owner: null, paths }]);
    // The workspace root named: all of it.
    expect(stepParts('s1', paths, [''])[0]).toEqual({ owner: 's1', paths });
  });

  it("another session's file captured by the session's tool is no longer the session's to restore", () => {
    const steps = [...stepParts('s1', ['a.txt', 's2.txt'], ['a.txt']), { owner: 's2', paths: [] }];
    expect(sessionChanges('s1', steps)).toEqual({ changed: ['a.txt'], conflicts: [] });
    // A path of the owner's that another path of the same step blocks (a file where its directory was) is a conflict.
    expect(sessionChanges('s1', stepParts('s1', ['d/x', 'd'], ['d/x'])).conflicts).toEqual(['d/x']);
  });

  it('keeps at most TOUCHED_MAX paths (and TOUCHED_CHARS in all), sorted, without repeats; more is the whole step', () => {
    expect(cappedTouched(['b', 'a', 'b'])).toEqual(['a', 'b']);
    const many = Array.from({ length: TOUCHED_MAX }, (_, i) => `f${i}`);
    expect(cappedTouched(many)).toHaveLength(TOUCHED_MAX);
    expect(cappedTouched([...many, 'one-more'])).toBeUndefined();
    expect(cappedTouched(['x'.repeat(4000), 'y'.repeat(4000), 'z'.repeat(4000)])).toBeUndefined();
  });

  it("a run of one session's changes carries what its tools named together: a pruned step keeps every path of the owner's", () => {
    const change = (touched?: string[]) => ({
      kind: 'track' as const,
      session: 'a',
      role: 'change' as const,
      ...(touched === undefined ? {} : { touched }),
    });
    const p = { kind: 'track' as const, session: 'a', role: 'prompt' as const, prompt: 1, seq: 1, span: 0 };
    const a1 = { ...change(['x']), ...linePosition(p, change(['x'])) };
    expect(a1).toMatchObject({ seq: 2, span: 1 });
    expect(a1).not.toHaveProperty('runTouched');
    const a2 = { ...change(['y']), ...linePosition(a1, change(['y'])) };
    expect(a2).toMatchObject({ seq: 3, span: 1, runTouched: ['x', 'y'] });
    // A shell tool in the run: the run is all of it from there on (null), its own step too (no touched).
    const a3 = { ...change(), ...linePosition(a2, change()) };
    expect(a3).not.toHaveProperty('runTouched');
    const a4 = { ...change(['z']), ...linePosition(a3, change(['z'])) };
    expect(a4).toMatchObject({ runTouched: null });
    // The step from the checkpoint just before: its own paths; over pruned ones: the run's.
    expect(touchedOfStep(a1, a2)).toEqual(['y']);
    expect(touchedOfStep(p, a2)).toEqual(['x', 'y']);
    expect(touchedOfStep(a2, a4)).toBeUndefined();
    expect(touchedOfStep(a3, a4)).toEqual(['z']);
    // Another owner starts a run of its own.
    const b1 = { ...change(['w']), session: 'b', ...linePosition(a4, { ...change(['w']), session: 'b' }) };
    expect(b1).toMatchObject({ span: b1.seq - 1 });
    expect(b1).not.toHaveProperty('runTouched');
  });
});
