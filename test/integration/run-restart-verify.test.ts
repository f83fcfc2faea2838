/**
 * One rule for `verify --run` after a restart, on the machine that recorded the run and on a clone
 * (issue 26 item 15): the README's loop rejects an iteration by resetting the branch to where the
 * iteration started. When that was the run's last iteration (no next `before --restart-from` yet),
 * the recording machine failed "branch main does not contain after" while a clone passed.
 */
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { commitAll, git, writeFiles } from '../helpers/repo.js';
import { runIterations, world, type Machine } from '../helpers/sharing.js';

/** The checks' names and verdicts (the branch's detail differs: it did not travel). */
const verdicts = (r: VerifyReport) => r.checks.map((c) => `${c.snapshotId ?? '-'} ${c.check} ${c.ok}`);

async function rejectLast(a: Machine, runId: string): Promise<Snapshot> {
  const last = (await a.snap.listByRun(runId)).at(-1) as Snapshot;
  git(a.dir, ['reset', '-q', '--hard', last.beforeSha]);
  return last;
}

describe('verify --run after a rejected last iteration and its reset', () => {
  it('gives the same verdicts on the recording machine and on a clone', async () => {
    const w = world();
    try {
      const a = w.machine('a');
      await runIterations(a, 'r', 3, 1);
      await rejectLast(a, 'r');
      const here = await a.snap.verify({ runId: 'r' });
      expect(here.checks.filter((c) => !c.ok)).toEqual([]);
      await a.share.push({ workspace: a.dir });
      const b = w.machine('b');
      await b.share.fetch({ workspace: b.dir });
      const there = await b.snap.verify({ runId: 'r' });
      expect(verdicts(there)).toEqual(verdicts(here));

      // A declared restart afterwards, and the next iteration: still alike on both machines.
      const good = (await a.snap.listByRun('r'))[1] as Snapshot;
      git(a.dir, ['reset', '-q', '--hard', good.afterSha]);
      await a.snap.captureBeforeState(a.dir, { runId: 'r', restartFrom: 2 });
      writeFiles(a.dir, { 'retry.txt': 'again\n' });
      await a.snap.captureAfterState(a.dir, null, { runId: 'r', iteration: 4 });
      const restarted = await a.snap.verify({ runId: 'r' });
      expect(restarted.ok).toBe(true);
      await a.share.push({ workspace: a.dir });
      await b.share.fetch({ workspace: b.dir });
      expect(verdicts(await b.snap.verify({ runId: 'r' }))).toEqual(verdicts(restarted));
    } finally {
      w.cleanup();
    }
  });

  it('still fails, on the recording machine, a branch moved off the run elsewhere or an iteration that is not the last', async () => {
    const w = world();
    try {
      const a = w.machine('a');
      await runIterations(a, 'r', 2, 1);
      const [first, second] = (await a.snap.listByRun('r')) as [Snapshot, Snapshot];
      // Moved to unrelated work, not back to where the last iteration started.
      git(a.dir, ['checkout', '-q', '--orphan', 'elsewhere']);
      writeFiles(a.dir, { 'other.txt': 'other\n' });
      commitAll(a.dir, 'unrelated');
      git(a.dir, ['branch', '-f', 'main', 'elsewhere']);
      const moved = await a.snap.verify({ runId: 'r' });
      expect(moved.checks.filter((c) => !c.ok && c.check === 'branch').map((c) => c.snapshotId)).toEqual([
        first.id,
        second.id,
      ]);
      // Reset to before the first iteration: the last one is set aside, the first is not.
      git(a.dir, ['branch', '-f', 'main', first.beforeSha]);
      const reset = await a.snap.verify({ runId: 'r' });
      expect(reset.checks.filter((c) => !c.ok).map((c) => `${c.snapshotId} ${c.check}`)).toEqual([
        `${first.id} branch`,
      ]);
    } finally {
      w.cleanup();
    }
  });
});
