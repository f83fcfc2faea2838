/**
 * Verdicts of a deleted snapshot's capture: `delete` frees the iteration to be captured again, and
 * verdicts are append-only. The old capture's verdicts stay on disk but count no more (verify,
 * report, attest) and `gate list` marks them superseded; a verdict that names no capture the run
 * ever had still fails verify.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { attestSources, buildStatement } from '../../src/gates/attest.js';
import { Gates } from '../../src/gates/gates.js';
import { buildRunReport } from '../../src/report/model.js';
import { GateStore } from '../../src/store/gate-store.js';
import { quiet, recordVerdict } from '../helpers/gates.js';
import { git, writeFiles } from '../helpers/repo.js';
import { failsWith, machineCli, runIterations, world, type Machine, type World } from '../helpers/sharing.js';
import type { GateResult } from '../../types/gate.js';
import type { Snapshot } from '../../types/snapshot.js';

let w: World;
afterEach(() => w?.cleanup());

/** Iterations 1 and 2 of run r, a failing verdict on 2, then 2 deleted and captured again from 1. */
async function recaptured(a: Machine): Promise<{ gone: Snapshot; again: Snapshot; old: GateResult }> {
  await runIterations(a, 'r', 2, 1);
  const old = await recordVerdict(a, 'r', 2, 'test', { verdict: 'fail' });
  return { ...(await recaptureTwo(a)), old };
}

describe('a re-capture after delete supersedes the deleted capture verdicts', () => {
  it('verify, report and attest judge the new capture; gate list marks the old verdict', async () => {
    w = world();
    const a = w.machine('a');
    const { gone, again, old } = await recaptured(a);
    const fresh = await recordVerdict(a, 'r', 2, 'test');
    expect(fresh.attempt).toBe(2);

    const gates = new Gates(a.snap);
    const each = await gates.verify({ runId: 'r' }, { requireGates: ['test'], eachIteration: false });
    expect(each.checks.filter((c) => !c.ok)).toEqual([]);
    const listed = (await gates.list({ runId: 'r' })).results;
    expect(listed.map((g) => [g.id, g.superseded?.snapshotId ?? null])).toEqual([
      [old.id, gone.id],
      [fresh.id, null],
    ]);
    const cli = machineCli(a, ['gate', 'list', '--run', 'r']);
    expect(cli.status).toBe(0);
    expect(cli.stdout).toContain('(superseded)');
    // One shape for every item: null when the verdict is not superseded.
    const json = machineCli(a, ['gate', 'list', '--run', 'r', '--json']).json() as Array<{
      superseded: unknown;
    }>;
    expect(json.map((g) => g.superseded)).toEqual([
      { snapshotId: gone.id, deletedAt: expect.any(String) },
      null,
    ]);

    const report = await buildRunReport(a.snap, 'r');
    expect(report.gates?.summary.map((s) => [s.name, s.firstRed, s.latest.id])).toEqual([
      ['test', null, fresh.id],
    ]);
    expect(report.verification.ok).toBe(true);
    const statement = await buildStatement(attestSources(a.snap), 'r');
    expect(statement.predicate).toMatchObject({ result: 'PASSED', passedTests: ['iteration-2/test'] });
    expect(statement.subject.map((s) => ('gitCommit' in s.digest ? s.digest.gitCommit : null))).toContain(
      again.afterSha,
    );
  });

  it('push publishes the new capture verdicts, not the deleted capture one (whose commit may be gone)', async () => {
    w = world();
    const a = w.machine('a');
    await recaptured(a);
    const fresh = await recordVerdict(a, 'r', 2, 'test');
    git(a.dir, ['reflog', 'expire', '--expire-unreachable=now', '--all']);
    git(a.dir, ['gc', '-q', '--prune=now']);
    await a.share.push({ workspace: a.dir });
    expect(git(w.origin, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/gates/'])).toBe(
      `refs/agentgate/gates/r/${fresh.id}`,
    );
  });

  it('a verdict that names no capture the run ever had still fails verify', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 2, 1);
    const [one] = await a.snap.listByRun('r');
    const forged = await recordVerdict(a, 'r', 2, 'test', { verdict: 'fail' });
    await recordVerdict(a, 'r', 2, 'test');
    const path = new GateStore(a.home).path('r', forged.id);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(forged.afterSha, one!.afterSha));
    const report = await new Gates(a.snap).verify({ runId: 'r' }, { requireGates: ['test'] });
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['gate-tree']);
  });

  it('a replay of a superseded verdict runs on the tree it judged and is superseded too', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 2, 1);
    const gates = new Gates(a.snap);
    // Only the deleted capture of iteration 2 has work/r-2.txt: the new one starts again from 1.
    const check = { runId: 'r', iteration: 2, name: 'test', command: ['test', '-f', 'work/r-2.txt'] };
    const old = await gates.run(a.dir, { ...check, isolated: true, echo: quiet() });
    expect(old.verdict).toBe('pass');
    const { gone } = await recaptureTwo(a);
    const fresh = await gates.run(a.dir, { ...check, isolated: true, echo: quiet() });
    expect(fresh.verdict).toBe('fail');

    const out = await gates.replay(a.dir, { runId: 'r', id: old.id, confirmed: true, echo: quiet() });
    expect(out.reproduced).toBe(true);
    expect(out.replay).toMatchObject({ afterSha: gone.afterSha, treeId: old.treeId, replayOf: old.attempt });
    const listed = (await gates.list({ runId: 'r', iteration: 2 })).results;
    expect(listed.map((g) => [g.id, g.superseded?.snapshotId ?? null])).toEqual([
      [old.id, gone.id],
      [fresh.id, null],
      [out.replay.id, gone.id],
    ]);
    // The new capture's newest verdict is still its own fail; the replay's own checks pass.
    const report = await gates.verify({ runId: 'r' }, { requireGates: ['test'] });
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['require-gate']);

    // Once git gc removed the deleted capture's commit, nothing is left to replay it on.
    git(a.dir, ['reflog', 'expire', '--expire-unreachable=now', '--all']);
    git(a.dir, ['gc', '-q', '--prune=now']);
    await failsWith(
      gates.replay(a.dir, { runId: 'r', id: old.id, confirmed: true, echo: quiet() }),
      'GATE_NOT_REPLAYABLE',
    );
    expect((await gates.list({ runId: 'r' })).results).toHaveLength(3);
  });

  it('a verdict whose tree is not its after commit tree is not replayed', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 2, 1);
    const gates = new Gates(a.snap);
    const check = { runId: 'r', iteration: 2, name: 'test', command: ['true'], isolated: true };
    const g = await gates.run(a.dir, { ...check, echo: quiet() });
    const other = git(a.dir, ['rev-parse', 'HEAD~1^{tree}']);
    const path = new GateStore(a.home).path('r', g.id);
    writeFileSync(path, readFileSync(path, 'utf8').replace(g.treeId, other));
    await failsWith(
      gates.replay(a.dir, { runId: 'r', id: g.id, confirmed: true, echo: quiet() }),
      'GATE_NOT_REPLAYABLE',
    );
    expect((await gates.list({ runId: 'r' })).results).toHaveLength(1);
  });
});

/** Deletes iteration 2 of run r and captures it again from iteration 1's after commit. */
async function recaptureTwo(a: Machine): Promise<{ gone: Snapshot; again: Snapshot }> {
  const gone = (await a.snap.listByRun('r'))[1] as Snapshot;
  await a.snap.delete(gone.id);
  git(a.dir, ['reset', '-q', '--hard', 'refs/agentgate/runs/r/iteration-1']);
  const before = await a.snap.captureBeforeState(a.dir, { runId: 'r' });
  writeFiles(a.dir, { 'src/app.txt': 'again\n' });
  const again = await a.snap.captureAfterState(a.dir, before, { runId: 'r', iteration: 2 });
  return { gone, again };
}
