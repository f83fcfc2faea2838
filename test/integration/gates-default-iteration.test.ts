/**
 * The iteration a gate judges when none is given: the run's last iteration on its accepted line, as
 * `verify --require-gate` asks it. An iteration a declared restart set aside is no longer the run's
 * last, though it is its highest number.
 */
import { describe, expect, it } from 'vitest';
import { expectCode } from '../helpers/codes.js';
import { gatedRun, quiet } from '../helpers/gates.js';
import { git } from '../helpers/repo.js';

const check = { runId: 'r1', name: 'check', command: ['node', '-e', ''], echo: quiet() };

describe('gate without --iteration after a restart', () => {
  it('judges the last iteration the restart kept, not the one it set aside', async () => {
    const { dir, gates, snapshots } = await gatedRun([{ 'a.txt': 'one\n' }, { 'a.txt': 'two\n' }]);
    git(dir, ['reset', '-q', '--hard', snapshots[0]!.afterSha]);
    await gates.snapshotter.captureBeforeState(dir, { runId: 'r1', restartFrom: 1 });
    // In the workspace, which is iteration 1's after commit: GATE_TREE_MISMATCH before.
    const here = await gates.run(dir, check);
    expect(here).toMatchObject({ iteration: 1, afterSha: snapshots[0]!.afterSha, verdict: 'pass' });
    const isolated = await gates.run(dir, { ...check, isolated: true });
    expect(isolated).toMatchObject({ iteration: 1, verdict: 'pass' });
    const recorded = await gates.record(dir, { runId: 'r1', name: 'other', exitCode: 0 });
    expect(recorded.iteration).toBe(1);
    // Named, the set-aside iteration is still judged.
    expect((await gates.run(dir, { ...check, iteration: 2, isolated: true })).iteration).toBe(2);
  });

  it('after a restart from the run start there is no iteration to judge by default', async () => {
    const { dir, gates } = await gatedRun([{ 'a.txt': 'one\n' }]);
    git(dir, ['reset', '-q', '--hard', 'HEAD~1']);
    await gates.snapshotter.captureBeforeState(dir, { runId: 'r1', restartFrom: 0 });
    await expectCode(gates.run(dir, { ...check, isolated: true }), 'ITERATION_NOT_FOUND');
  });
});
