/**
 * Verdicts that must not lie (issue 26, items 2-4): a verdict whose own facts contradict it, a
 * fetched verdict dated in the future, and an attestation that leaves a newer verdict out.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Gates } from '../../src/gates/gates.js';
import { buildStatement, attestSources, verifyStatement, writeStatement } from '../../src/gates/attest.js';
import { GateStore } from '../../src/store/gate-store.js';
import type { GateResult } from '../../types/gate.js';
import { quiet, recordVerdict, verdictsOf } from '../helpers/gates.js';
import { git, writeFiles } from '../helpers/repo.js';
import { runIterations, world, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

/** Rewrites a verdict commit on a remote with `edit` applied to its gate.json (a hostile publisher). */
function tamper(repo: string, ref: string, edit: (gate: Record<string, unknown>) => void): void {
  const record = JSON.parse(git(repo, ['show', `${ref}:gate.json`])) as { gate: Record<string, unknown> };
  edit(record.gate);
  const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: JSON.stringify(record) });
  const tree = git(repo, ['mktree'], { input: `100644 blob ${blob}\tgate.json\n` });
  const parent = git(repo, ['rev-parse', `${ref}^`]);
  git(repo, ['update-ref', ref, git(repo, ['commit-tree', tree, '-p', parent, '-m', 'edited'])]);
}

const FAILED_TESTS = {
  total: 3,
  passed: 2,
  failed: 1,
  skipped: 0,
  errors: 0,
  failures: [{ suite: 'app', name: 'adds', message: 'expected 2' }],
};

describe('a verdict is recomputed from its own facts (item 4)', () => {
  it('verify fails a fail edited into "pass" in the local home', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 1);
    const g = await recordVerdict(a, 'run-1', 0, 'test', { verdict: 'fail', tests: FAILED_TESTS });
    const gates = new Gates(a.snap);
    expect((await gates.verify({ runId: 'run-1' })).ok).toBe(true);
    const path = new GateStore(a.home).path('run-1', g.id);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"verdict": "fail"', '"verdict": "pass"'));
    const report = await gates.verify({ runId: 'run-1' }, { requireGates: ['test'] });
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toContain('gate-verdict');
  });

  it('verify fails facts that cannot all be true, and names the log of a verdict that says it has none', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 1);
    const gates = new Gates(a.snap);
    const recorded = await gates.record(a.dir, { runId: 'run-1', name: 'rec', exitCode: 0 });
    const ran = await gates.run(a.dir, { runId: 'run-1', name: 'run', command: ['true'], echo: quiet() });
    expect((await gates.verify({ runId: 'run-1' })).ok).toBe(true);
    const store = new GateStore(a.home);
    const edit = (g: GateResult, change: Partial<GateResult>) =>
      writeFileSync(store.path('run-1', g.id), JSON.stringify({ ...g, ...change }));
    const failing = async (name: string) =>
      (await gates.verify({ runId: 'run-1' }, { requireGates: [name] })).checks
        .filter((c) => !c.ok)
        .map((c) => c.check);
    // A pass given to `gate record`, edited into an observed run killed by a signal.
    edit(recorded, { observed: true, signal: 'SIGKILL' });
    expect(await failing('rec')).toEqual(['gate-verdict']);
    edit(recorded, {});
    for (const change of [{ signal: 'SIGTERM' }, { exitCode: null, signal: 'x' }, { command: null }]) {
      edit(ran, change);
      expect(await failing('run'), JSON.stringify(change)).toEqual(['gate-verdict']);
    }
    // An observed verdict without its log: its log file is no longer excused as its own.
    edit(ran, { log: null });
    expect(await failing('run')).toEqual(['gate-verdict', 'gate-attempts']);
  });

  it('fetch refuses a published verdict whose facts contradict it; the rest lands', async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'run-1', 1);
    const red = await recordVerdict(a, 'run-1', 0, 'test', { verdict: 'fail', tests: FAILED_TESTS });
    const lint = await recordVerdict(a, 'run-1', 0, 'lint');
    const killed = await recordVerdict(a, 'run-1', 0, 'build');
    await a.share.push({ workspace: a.dir });
    tamper(w.origin, `refs/agentgate/gates/run-1/${red.id}`, (gate) => {
      gate.verdict = 'pass';
    });
    tamper(w.origin, `refs/agentgate/gates/run-1/${killed.id}`, (gate) => {
      gate.signal = 'SIGKILL';
    });
    const fetched = await b.share.fetch({ workspace: b.dir });
    expect(fetched.refused.map((r) => r.ref).sort()).toEqual(
      [`refs/agentgate/gates/run-1/${red.id}`, `refs/agentgate/gates/run-1/${killed.id}`].sort(),
    );
    expect(fetched.refused.find((r) => r.ref.endsWith(red.id))?.reason).toContain('make it fail');
    expect((await verdictsOf(b.home, 'run-1')).map((g) => g.id)).toEqual([lint.id]);
  });
});

describe('a fetched verdict cannot outrank later verdicts by its clock (item 3)', () => {
  it('a pass dated 2099 from elsewhere is superseded by a failing re-run here', async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'run-1', 1);
    const future = await recordVerdict(a, 'run-1', 0, 'test', { startedAt: '2099-01-01T00:00:00.000Z' });
    await a.share.push({ workspace: a.dir });
    expect((await b.share.fetch({ workspace: b.dir })).gates).toBe(1);
    const gates = new Gates(b.snap);
    expect((await gates.verify({ runId: 'run-1' }, { requireGates: ['test'] })).ok).toBe(true);
    const rerun = await recordVerdict(b, 'run-1', 0, 'test', { verdict: 'fail' });
    const listed = (await gates.list({ runId: 'run-1' })).results;
    expect(listed.map((g) => g.id)).toEqual([future.id, rerun.id]);
    expect(listed[0]?.receivedAt).toBeDefined();
    expect(listed[1]?.receivedAt).toBeUndefined();
    const report = await gates.verify({ runId: 'run-1' }, { requireGates: ['test'] });
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['require-gate']);
    // The date it was received here never travels on: a push from b publishes the verdict as it came.
    await b.share.push({ workspace: b.dir });
    const ref = `refs/agentgate/gates/run-1/${future.id}`;
    expect(git(w.origin, ['show', `${ref}:gate.json`])).not.toContain('receivedAt');
  });
});

describe('verify --attestation: the statement names the newest verdict of every gate, and nothing else (item 2)', () => {
  const failing = (r: Awaited<ReturnType<typeof verifyStatement>>) =>
    r.checks.filter((c) => !c.ok).map((c) => c.check);

  it('a statement written while test passed is stale once a re-run of test failed', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 1);
    await recordVerdict(a, 'run-1', 0, 'test');
    const src = attestSources(a.snap);
    const file = join(w.root, 'statement.json');
    await writeStatement(src, 'run-1', file);
    expect((await verifyStatement(src, file)).ok).toBe(true);
    await recordVerdict(a, 'run-1', 0, 'test', { verdict: 'fail' });
    expect(failing(await verifyStatement(src, file))).toEqual(['complete']);
  });

  it('a statement that leaves a failing gate out does not verify', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 1);
    await recordVerdict(a, 'run-1', 0, 'test');
    await recordVerdict(a, 'run-1', 0, 'lint', { verdict: 'fail' });
    const src = attestSources(a.snap);
    const statement = await buildStatement(src, 'run-1');
    const file = join(w.root, 'statement.json');
    const p = statement.predicate;
    const edited = {
      ...statement,
      predicate: {
        ...p,
        result: 'PASSED',
        configuration: p.configuration.filter((c) => c.annotations.gate !== 'lint'),
        failedTests: [],
      },
    };
    writeFileSync(file, JSON.stringify(edited));
    expect(failing(await verifyStatement(src, file))).toEqual(['complete']);
  });
});

describe('attest --run after a restart covers the accepted line and names what was set aside (item 13)', () => {
  it('rejected iterations do not fail the run-level statement; --iteration is unchanged', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 2, 1);
    const [one] = await a.snap.listByRun('run-1');
    await recordVerdict(a, 'run-1', 1, 'test');
    await recordVerdict(a, 'run-1', 2, 'test', { verdict: 'fail' });
    git(a.dir, ['reset', '-q', '--hard', one!.afterSha]);
    const before = await a.snap.captureBeforeState(a.dir, { runId: 'run-1', restartFrom: 1 });
    writeFiles(a.dir, { 'src/app.txt': 'retried\n' });
    await a.snap.captureAfterState(a.dir, before, { runId: 'run-1', iteration: 3 });
    await recordVerdict(a, 'run-1', 3, 'test');
    const src = attestSources(a.snap);
    const run = await buildStatement(src, 'run-1');
    expect(run.subject.map((s) => s.name).filter((n) => !n.endsWith('.diff'))).toEqual([
      'run-1/iteration-1',
      'run-1/iteration-3',
    ]);
    expect(run.predicate).toMatchObject({
      result: 'PASSED',
      passedTests: ['iteration-1/test', 'iteration-3/test'],
      failedTests: [],
      setAside: [{ name: 'run-1/iteration-2', restartFrom: 1 }],
    });
    const file = join(w.root, 'run.json');
    await writeStatement(src, 'run-1', file);
    expect((await verifyStatement(src, file)).ok).toBe(true);
    // Hiding what was set aside is caught.
    const hidden = JSON.parse(readFileSync(file, 'utf8')) as { predicate: Record<string, unknown> };
    hidden.predicate.setAside = [];
    writeFileSync(file, JSON.stringify(hidden));
    const report = await verifyStatement(src, file);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(['set aside']);
    // One iteration, set aside or not, is attested as before.
    const two = await buildStatement(src, 'run-1', { iteration: 2 });
    expect(two.predicate).toMatchObject({ result: 'FAILED', failedTests: ['iteration-2/test'] });
    expect(two.predicate.setAside).toBeUndefined();
    // verify --require-gate --each-iteration asks the same accepted line.
    const gates = new Gates(a.snap);
    const each = await gates.verify({ runId: 'run-1' }, { requireGates: ['test'], eachIteration: true });
    expect(
      each.checks.filter((c) => c.check === 'require-gate').map((c) => [c.snapshotId !== null, c.ok]),
    ).toEqual([
      [true, true],
      [true, true],
    ]);
    expect(each.ok).toBe(true);
  });
});
