/**
 * A recorded restart must agree with the commits: one that no `before --restart-from` declared,
 * written into a run record (or a travelling record), would set a failed iteration aside that the
 * run's line was built on, and `verify --each-iteration`, `attest` and the report would hide it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRestart } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { git, writeFiles } from '../helpers/repo.js';
import { forge, recordOf, runIterations, world, type Machine } from '../helpers/sharing.js';

const failed = (r: VerifyReport) => r.checks.filter((c) => !c.ok).map((c) => `${c.snapshotId} ${c.check}`);

function setRestarts(m: Machine, runId: string, restarts: RunRestart[]): void {
  const file = join(m.home, 'runs', `${runId}.json`);
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), restarts }));
}

describe('a recorded restart the commits contradict', () => {
  it('fails continuity on the first iteration after it, and a declared one still passes', async () => {
    const w = world();
    try {
      const a = w.machine('a');
      await runIterations(a, 'r', 3, 1);
      const [one, two, three] = (await a.snap.listByRun('r')) as [Snapshot, Snapshot, Snapshot];
      expect((await a.snap.verify({ runId: 'r' })).ok).toBe(true);
      const at = '2026-11-28T01:14:31.000Z';
      // Iteration 3 built on iteration 2: no restart from 1 happened after it.
      setRestarts(a, 'r', [{ from: 1, sha: one.afterSha, lastIteration: 2, at }]);
      expect(failed(await a.snap.verify({ runId: 'r' }))).toEqual([`${three.id} continuity`]);
      expect(failed(await a.snap.verify({ all: true }))).toEqual([`${three.id} continuity`]);
      // A restart whose commit is not the iteration it names.
      setRestarts(a, 'r', [{ from: 1, sha: two.afterSha, lastIteration: 2, at }]);
      expect(failed(await a.snap.verify({ runId: 'r' }))).toEqual([`${three.id} continuity`]);
      // No iteration built on it yet: it awaits one, as a declared restart does.
      setRestarts(a, 'r', [{ from: 1, sha: one.afterSha, lastIteration: 3, at }]);
      expect((await a.snap.verify({ runId: 'r' })).ok).toBe(true);

      // A declared restart, and an iteration on a commit made at the restart point: it agrees.
      setRestarts(a, 'r', []);
      git(a.dir, ['reset', '-q', '--hard', two.afterSha]);
      await a.snap.captureBeforeState(a.dir, { runId: 'r', restartFrom: 2 });
      writeFiles(a.dir, { 'fix.txt': 'by hand\n' });
      git(a.dir, ['add', '-A']);
      git(a.dir, ['commit', '-q', '-m', 'by hand']);
      await a.snap.captureBeforeState(a.dir, { runId: 'r' });
      writeFiles(a.dir, { 'retry.txt': 'again\n' });
      await a.snap.captureAfterState(a.dir, null, { runId: 'r', iteration: 4 });
      expect(failed(await a.snap.verify({ runId: 'r' }))).toEqual([]);
    } finally {
      w.cleanup();
    }
  });

  it('is refused by fetch', async () => {
    const w = world();
    try {
      const a = w.machine('a');
      await runIterations(a, 'r', 3, 1);
      const [one, , three] = (await a.snap.listByRun('r')) as [Snapshot, Snapshot, Snapshot];
      await a.share.push({ workspace: a.dir });
      const ref = 'refs/agentgate/records/r/iteration-3';
      const record = recordOf(w.origin, ref);
      const restart = { from: 1, sha: one.afterSha, lastIteration: 2, at: '2026-11-28T01:14:31.000Z' };
      const run = { ...(record.run as object), restart };
      forge(w.origin, ref, three.afterSha, `${JSON.stringify({ ...record, run }, null, 2)}\n`);
      const b = w.machine('b');
      const fetched = await b.share.fetch({ workspace: b.dir });
      expect(fetched.refused.map((r) => r.ref)).toEqual([ref]);
      expect((await b.snap.store.loadRun('r'))?.restarts).toBeUndefined();
    } finally {
      w.cleanup();
    }
  });
});
