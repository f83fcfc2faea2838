/**
 * A write that lands while a restore or revert is writing (after its safety capture) is in no
 * checkpoint: it is left alone and reported, never overwritten or deleted. The write is made from
 * inside the restore itself, at its first rename or unlink into the workspace (node:fs/promises
 * wrapped), so the test does not depend on timing.
 */
import { readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openCheckpoints, sessionHooks } from '../helpers/checkpoints.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** Runs once, just before the first rename or unlink whose path starts with `under`. */
const race = vi.hoisted(() => ({
  current: null as null | { op: 'rename' | 'unlink'; under: string; then: () => void },
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const trip = (op: 'rename' | 'unlink', path: unknown): void => {
    const r = race.current;
    if (r === null || r.op !== op || !String(path).startsWith(r.under)) return;
    race.current = null;
    r.then();
  };
  return {
    ...real,
    rename: async (from: string, to: string) => {
      trip('rename', to);
      return real.rename(from, to);
    },
    unlink: async (path: string) => {
      trip('unlink', path);
      return real.unlink(path);
    },
  };
});

afterEach(() => {
  race.current = null;
});

const read = (ws: string, path: string): string => readFileSync(join(ws, path), 'utf8');

/** At the restore's first `op` into `ws`, a person writes `path` (one the restore is still to do). */
function personWrites(ws: string, op: 'rename' | 'unlink', path: string): void {
  race.current = { op, under: `${ws}/`, then: () => writeFileSync(join(ws, path), 'PERSON\n') };
}

describe('a write during a restore or revert', () => {
  it('restore: a file rewritten after the safety capture is left alone and listed, the rest restored', async () => {
    const ws = repoWithCommit({ 'a.txt': 'base\n', 'b.txt': 'base\n', 'c.txt': 'base\n' });
    const cp = await openCheckpoints(ws);
    const start = await cp.track('start');
    writeFiles(ws, { 'a.txt': 'agent\n', 'b.txt': 'agent\n', 'c.txt': 'agent\n' });
    await cp.track();

    personWrites(ws, 'rename', 'c.txt');
    const r = await cp.restore(start.hash);
    expect(race.current).toBeNull(); // the write happened, during the restore
    expect([read(ws, 'a.txt'), read(ws, 'b.txt'), read(ws, 'c.txt')]).toEqual([
      'base\n',
      'base\n',
      'PERSON\n',
    ]);
    expect(r.leftAlone).toEqual([join(ws, 'c.txt')]);
  });

  it('restore and revert: a file the restore would delete, rewritten after the safety capture, is left alone', async () => {
    const ws = repoWithCommit({ 'keep.txt': 'base\n' });
    const cp = await openCheckpoints(ws);
    const start = await cp.track('start');
    writeFiles(ws, { 'n1.txt': 'agent\n', 'n2.txt': 'agent\n' });
    await cp.track();

    personWrites(ws, 'unlink', 'n2.txt');
    const r = await cp.revert(start.hash);
    expect(race.current).toBeNull();
    expect(r.deleted).toEqual([join(ws, 'n1.txt')]);
    expect(r.leftAlone).toEqual([join(ws, 'n2.txt')]);
    expect(read(ws, 'n2.txt')).toBe('PERSON\n');
  });

  it('revert of a file: a new file written where the revert puts one back is left alone', async () => {
    const ws = repoWithCommit({ 'a.txt': 'base\n', 'b.txt': 'base\n' });
    const cp = await openCheckpoints(ws);
    const start = await cp.track('start');
    writeFiles(ws, { 'a.txt': 'agent\n' });
    rmSync(join(ws, 'b.txt'));
    await cp.track();

    personWrites(ws, 'rename', 'b.txt');
    const r = await cp.revert(start.hash, [join(ws, 'a.txt'), join(ws, 'b.txt')]);
    expect(r.reverted).toEqual([join(ws, 'a.txt')]);
    expect(r.leftAlone).toEqual([join(ws, 'b.txt')]);
    expect([read(ws, 'a.txt'), read(ws, 'b.txt')]).toEqual(['base\n', 'PERSON\n']);
  });

  it('restore: a directory become a repository after the safety capture is left alone, the rest restored', async () => {
    const ws = repoWithCommit({ 'v/x': 'x0\n' });
    const cp = await openCheckpoints(ws);
    const start = await cp.track('start');
    writeFiles(ws, { 'v/x': 'agent\n', 'new.txt': 'agent\n' });
    await cp.track();

    // At the restore's unlink of new.txt, before it writes v/x: the safety capture held v/x as the project's.
    race.current = { op: 'unlink', under: `${ws}/`, then: () => void git(join(ws, 'v'), ['init', '-q']) };
    const r = await cp.restore(start.hash);
    expect(race.current).toBeNull();
    expect(r.leftAlone).toEqual([join(ws, 'v/x')]);
    expect(read(ws, 'v/x')).toBe('agent\n');
  });

  it('restore --prompt: a file the session changed, rewritten after the safety capture, is a conflict, even forced', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n', 'b.txt': 'b0\n' });
    const cp = await openCheckpoints(ws);
    const s = sessionHooks(cp, 'sess-a');
    await s.start();
    await s.prompt();
    writeFiles(ws, { 'a.txt': 'a1\n', 'b.txt': 'b1\n' });
    await s.tool();

    personWrites(ws, 'rename', 'b.txt');
    const r = await cp.restorePrompt(1, 'sess-a', { force: true });
    expect(r.restored).toEqual([join(ws, 'a.txt')]);
    expect(r.conflicts).toEqual([join(ws, 'b.txt')]);
    expect(r.leftAlone).toEqual([join(ws, 'b.txt')]); // the CLI's RESTORE_CONFLICT: still in conflict
    expect([read(ws, 'a.txt'), read(ws, 'b.txt')]).toEqual(['a0\n', 'PERSON\n']);
  });
  /** At the restore's first `op` below `under`, the directory `d` of `ws` becomes a link to `outside`. */
  function dirBecomesLink(ws: string, op: 'rename' | 'unlink', under: string, outside: string): void {
    race.current = {
      op,
      under,
      then: () => {
        renameSync(join(ws, 'd'), join(ws, 'd-moved'));
        symlinkSync(outside, join(ws, 'd'));
      },
    };
  }

  it('restore: a directory replaced by a link to outside after the safety capture is not written through', async () => {
    const ws = repoWithCommit({ 'a.txt': 'base\n', 'd/keep.txt': 'keep\n', 'd/new.txt': 'new\n' });
    const outside = tempDir('agentgate-cp-race-outside-');
    const cp = await openCheckpoints(ws);
    const start = await cp.track('start');
    writeFiles(ws, { 'a.txt': 'agent\n' });
    rmSync(join(ws, 'd/new.txt'));
    await cp.track();

    dirBecomesLink(ws, 'rename', `${ws}/`, outside);
    const r = await cp.restore(start.hash);
    expect(race.current).toBeNull();
    expect(readdirSync(outside)).toEqual([]);
    expect(r.leftAlone).toEqual([join(ws, 'd/new.txt')]);
    expect(read(ws, 'a.txt')).toBe('base\n');
  });

  it('restore: a delete below a directory replaced by a link since it was looked at is not made through it', async () => {
    const ws = repoWithCommit({ 'keep.txt': 'base\n' });
    const outside = tempDir('agentgate-cp-race-outside-');
    const cp = await openCheckpoints(ws);
    const start = await cp.track('start');
    writeFiles(ws, { 'd/a.txt': 'A\n', 'd/b.txt': 'B\n' });
    await cp.track();
    // The files the link leads to hold what the safety capture read at d/: only the path tells them apart.
    writeFiles(outside, { 'a.txt': 'A\n', 'b.txt': 'B\n' });

    // Swapped in during the unlink of d/a.txt, which is the window of one file; d/b.txt comes after.
    dirBecomesLink(ws, 'unlink', `${ws}/d/`, outside);
    const r = await cp.restore(start.hash);
    expect(race.current).toBeNull();
    expect(readdirSync(outside)).toEqual(['b.txt']);
    expect(r.leftAlone).toEqual([join(ws, 'd/b.txt')]);
  });
});
