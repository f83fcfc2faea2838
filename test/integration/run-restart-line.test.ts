/**
 * The accepted line is the chain of the last restart: a restart from an iteration an earlier
 * restart set aside brings it back (and sets aside what the earlier restart started). verify
 * --each-iteration, attest and the report all ask that one line.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { setAsideBy, type RunRestart } from '../../types/run.js';
import { attestSources, buildStatement } from '../../src/gates/attest.js';
import { Gates } from '../../src/gates/gates.js';
import { buildRunReport } from '../../src/report/model.js';
import { recordVerdict } from '../helpers/gates.js';
import { git, writeFiles } from '../helpers/repo.js';
import { runIterations, world, type Machine, type World } from '../helpers/sharing.js';

const restart = (from: number, lastIteration: number): RunRestart => ({
  from,
  lastIteration,
  sha: 'a'.repeat(40),
  at: `2025-01-0${lastIteration}T00:00:00.000Z`,
});
const aside = (restarts: RunRestart[], iterations: number[]) =>
  iterations.map((i) => setAsideBy(restarts, i)?.from ?? null);

describe('setAsideBy: restarts in order draw the line', () => {
  it('a later restart from a set-aside iteration brings it and what it builds on back', () => {
    expect(aside([restart(1, 3)], [1, 2, 3, 4])).toEqual([null, 1, 1, null]);
    // 1 set aside by the restart from 0, brought back by the restart from 1, which sets 2 aside.
    expect(aside([restart(0, 1), restart(1, 2)], [1, 2, 3])).toEqual([null, 1, null]);
    // Restarting from 3, which built on 1 (after the restart from 1), keeps 1 and 3 on the line.
    expect(aside([restart(0, 1), restart(1, 2), restart(3, 4)], [1, 2, 3, 4, 5])).toEqual([
      null,
      1,
      null,
      3,
      null,
    ]);
    // An iteration that stays off the line is named by the first restart that set it aside.
    expect(aside([restart(0, 1), restart(2, 2)], [1, 2, 3])).toEqual([0, null, null]);
    // From 0 is the run's start: a run's iteration 0 is set aside too.
    expect(aside([restart(0, 1)], [0, 1, 2])).toEqual([0, 0, null]);
    expect(aside([restart(0, 1), restart(0, 2)], [0, 1, 2, 3])).toEqual([0, 0, 0, null]);
    // Two restarts in a row: the second one decides where the next iteration starts.
    expect(aside([restart(0, 2), restart(1, 2)], [1, 2, 3])).toEqual([null, 0, null]);
  });
});

let w: World;
afterEach(() => w?.cleanup());

/** Resets to `sha`, restarts from `from` and records iteration `iteration` with a verdict of test. */
async function restartAndIterate(a: Machine, sha: string, from: number, iteration: number): Promise<void> {
  git(a.dir, ['reset', '-q', '--hard', sha]);
  const before = await a.snap.captureBeforeState(a.dir, { runId: 'r', restartFrom: from });
  writeFiles(a.dir, { [`work/${iteration}.txt`]: `${iteration}\n` });
  await a.snap.captureAfterState(a.dir, before, { runId: 'r', iteration });
  await recordVerdict(a, 'r', iteration, 'test');
}

describe('a restart from an iteration an earlier restart set aside', () => {
  it('puts it back on the accepted line for verify --each-iteration, attest and the report', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 1, 1);
    const [one] = await a.snap.listByRun('r');
    await recordVerdict(a, 'r', 1, 'test', { verdict: 'fail' });
    await restartAndIterate(a, one!.beforeSha, 0, 2);
    await restartAndIterate(a, one!.afterSha, 1, 3);

    const gates = new Gates(a.snap);
    const each = await gates.verify({ runId: 'r' }, { requireGates: ['test'], eachIteration: true });
    expect(each.checks.filter((c) => !c.ok).map((c) => [c.check, c.snapshotId])).toEqual([
      ['require-gate', one!.id],
    ]);

    const statement = await buildStatement(attestSources(a.snap), 'r');
    expect(statement.subject.map((s) => s.name).filter((n) => !n.endsWith('.diff'))).toEqual([
      'r/iteration-1',
      'r/iteration-3',
    ]);
    expect(statement.predicate).toMatchObject({
      result: 'FAILED',
      setAside: [{ name: 'r/iteration-2', restartFrom: 1 }],
    });

    const report = await buildRunReport(a.snap, 'r');
    expect(report.snapshots.map((s) => [s.iteration, s.setAside?.restartFrom ?? null])).toEqual([
      [1, null],
      [2, 1],
      [3, null],
    ]);
    expect(report.verification.checks.filter((c) => !c.ok)).toEqual([]);
  });
});

describe('a restart no iteration was built on', () => {
  it('is void once a plain before on the last iteration starts the next one', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 3);
    for (const i of [0, 1]) await recordVerdict(a, 'r', i, 'test');
    await recordVerdict(a, 'r', 2, 'test', { verdict: 'fail' });
    const [, one, two] = await a.snap.listByRun('r');
    git(a.dir, ['reset', '-q', '--hard', one!.afterSha]);
    await a.snap.captureBeforeState(a.dir, { runId: 'r', restartFrom: 1 });
    // Back on iteration 2: the next iteration builds on it, so 2 stays on the line.
    git(a.dir, ['reset', '-q', '--hard', two!.afterSha]);
    const before = await a.snap.captureBeforeState(a.dir, { runId: 'r' });
    writeFiles(a.dir, { 'work/3.txt': '3\n' });
    await a.snap.captureAfterState(a.dir, before, { runId: 'r', iteration: 3 });
    await recordVerdict(a, 'r', 3, 'test');
    expect((await a.snap.store.loadRun('r'))?.restarts).toBeUndefined();

    const each = await new Gates(a.snap).verify(
      { runId: 'r' },
      { requireGates: ['test'], eachIteration: true },
    );
    expect(each.checks.filter((c) => !c.ok).map((c) => [c.check, c.snapshotId])).toEqual([
      ['require-gate', two!.id],
    ]);
    const statement = await buildStatement(attestSources(a.snap), 'r');
    expect(statement.predicate).toMatchObject({ result: 'FAILED' });
    expect((statement.predicate as { setAside?: unknown }).setAside ?? []).toEqual([]);
    const report = await buildRunReport(a.snap, 'r');
    expect(report.snapshots.map((s) => s.setAside ?? null)).toEqual([null, null, null, null]);
  });
});

describe('a restart from 0 in a run that has an iteration 0', () => {
  it('sets iteration 0 aside too, and replaces a restart declared before it', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 2);
    await recordVerdict(a, 'r', 0, 'test', { verdict: 'fail' });
    await recordVerdict(a, 'r', 1, 'test');
    const [zero, one] = await a.snap.listByRun('r');
    git(a.dir, ['reset', '-q', '--hard', one!.afterSha]);
    await a.snap.captureBeforeState(a.dir, { runId: 'r', restartFrom: 1 });
    await restartAndIterate(a, zero!.beforeSha, 0, 2);
    expect((await a.snap.store.loadRun('r'))?.restarts?.map((r) => r.from)).toEqual([0]);

    const each = await new Gates(a.snap).verify(
      { runId: 'r' },
      { requireGates: ['test'], eachIteration: true },
    );
    expect(each.checks.filter((c) => !c.ok)).toEqual([]);
    const statement = await buildStatement(attestSources(a.snap), 'r');
    expect(statement.predicate).toMatchObject({
      result: 'PASSED',
      setAside: [
        { name: 'r/iteration-0', restartFrom: 0 },
        { name: 'r/iteration-1', restartFrom: 0 },
      ],
    });
    const report = await buildRunReport(a.snap, 'r');
    expect(report.snapshots.map((s) => s.setAside?.restartFrom ?? null)).toEqual([0, 0, null]);
  });
});
