/**
 * A snapshot saved and not linked into its run (the link failed, or the process died between the
 * two): the retry must not store a second snapshot of the iteration, and the first call that takes
 * the repository lock over must link it, whichever run that call is for.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { deadPid, finished, printed, spawnTs } from '../helpers/node-child.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { expectCode, newSnapshotter } from '../helpers/snapshotter.js';

const snapshotFiles = (home: string): string[] => readdirSync(join(home, 'snapshots'));

describe('a snapshot its run does not link', () => {
  it('is not left behind when linking fails: the retry stores the iteration once', async () => {
    const home = tempDir('agentgate-home-');
    const s = newSnapshotter({ home, lockTimeoutMs: 200 });
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    await s.captureBeforeState(dir, { runId: 'r' });
    writeFiles(dir, { 'a.txt': 'changed\n' });
    // Another process holds the run's record lock past the timeout: the link fails after the save.
    const holder = spawnTs('lock-child.ts', ['hold', join(home, 'locks', 'run-r.lock')]);
    const done = finished(holder);
    try {
      await printed(holder, 'held');
      await expectCode(s.captureAfterState(dir, null, { runId: 'r', iteration: 1 }), 'LOCK_TIMEOUT');
    } finally {
      holder.kill('SIGKILL');
      await done;
    }
    const snap = await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 });
    expect(snapshotFiles(home)).toEqual([`${snap.id}.json`]);
    expect((await s.store.loadRun('r'))?.snapshotIds).toEqual([snap.id]);
    expect((await s.verify({ all: true })).ok).toBe(true);
  });

  it("is linked by another run's call that takes the dead holder's repository lock over", async () => {
    const home = tempDir('agentgate-home-');
    const s = newSnapshotter({ home });
    const dir = repoWithCommit({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    await s.captureBeforeState(dir, { runId: 'b' });
    writeFiles(dir, { 'b.txt': 'changed\n' });
    const orphan = await s.captureAfterState(dir, null, { runId: 'b', iteration: 1 });
    // As a process killed between saving that snapshot and linking it leaves the run and the lock.
    const runFile = join(home, 'runs', 'b.json');
    const run = JSON.parse(readFileSync(runFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(runFile, JSON.stringify({ ...run, snapshotIds: [], beforeUsedBy: null }));
    const owner = { pid: await deadPid(), hostname: hostname(), token: 'f'.repeat(24), purpose: 'killed' };
    writeFileSync(
      join(dir, '.git', 'agentgate.lock'),
      JSON.stringify({ ...owner, createdAt: new Date(Date.now() - 60_000).toISOString() }),
    );
    await s.captureBeforeState(dir, { runId: 'a' });
    expect((await s.store.loadRun('b'))?.snapshotIds).toEqual([orphan.id]);
    writeFiles(dir, { 'a.txt': 'changed\n' });
    await s.captureAfterState(dir, null, { runId: 'a', iteration: 1 });
    // The retry of the killed call finds its iteration recorded: no second snapshot of it.
    await expectCode(s.captureAfterState(dir, null, { runId: 'b', iteration: 1 }), 'ITERATION_EXISTS');
    expect(snapshotFiles(home)).toHaveLength(2);
    expect((await s.verify({ all: true })).ok).toBe(true);
  });
});
