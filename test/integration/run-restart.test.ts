/**
 * Rejected iterations (issue 19, item 10): an orchestrator whose gate fails resets the workspace and
 * tries again. A `before` whose HEAD does not build on the run's last iteration is RUN_DIVERGED
 * before anything is written; `before --restart-from N` declares the restart (HEAD must be at
 * iteration N's after commit, 0: the run's start), records it, and `verify` and `report` accept
 * and show it. Library and CLI, real git.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunRecord } from '../../types/run.js';
import { RunReport } from '../../types/report.js';
import { BeforeState, Snapshot } from '../../types/snapshot.js';
import { VerifyReport } from '../../types/verify.js';
import { runCli } from '../helpers/cli.js';
import { git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { runIterations, world } from '../helpers/sharing.js';
import { expectCode, fingerprint, newSnapshotter } from '../helpers/snapshotter.js';

/** Two iterations of run `r`; returns their snapshots. */
async function twoIterations(dir: string, s = newSnapshotter()) {
  await s.captureBeforeState(dir, { runId: 'r' });
  writeFiles(dir, { 'a.txt': 'one\n' });
  const s1 = await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 });
  await s.captureBeforeState(dir, { runId: 'r' });
  writeFiles(dir, { 'a.txt': 'two\n' });
  const s2 = await s.captureAfterState(dir, null, { runId: 'r', iteration: 2 });
  return { s, s1, s2 };
}

describe('library: restarts', () => {
  it('a before whose HEAD left the run is RUN_DIVERGED and writes nothing', async () => {
    const dir = repoWithCommit();
    const { s, s1 } = await twoIterations(dir);
    git(dir, ['reset', '-q', '--hard', s1.afterSha]);
    writeFiles(dir, { 'dirty.txt': 'would become a WIP commit\n' });
    const print = fingerprint(dir);
    const record = readFileSync(join(s.options.home, 'runs', 'r.json'), 'utf8');
    await expectCode(s.captureBeforeState(dir, { runId: 'r' }), 'RUN_DIVERGED');
    expect(fingerprint(dir)).toBe(print);
    expect(head(dir)).toBe(s1.afterSha);
    expect(readFileSync(join(s.options.home, 'runs', 'r.json'), 'utf8')).toBe(record);
  });

  it('--restart-from N checks HEAD, records the restart, and verify accepts the restarted run', async () => {
    const dir = repoWithCommit();
    const { s, s1, s2 } = await twoIterations(dir);
    git(dir, ['reset', '-q', '--hard', s1.afterSha]);
    // HEAD must be at iteration N's after commit: at 1's, a restart from 2 (or 0) is refused.
    await expectCode(s.captureBeforeState(dir, { runId: 'r', restartFrom: 2 }), 'RUN_DIVERGED');
    await expectCode(s.captureBeforeState(dir, { runId: 'r', restartFrom: 0 }), 'RUN_DIVERGED');
    await expectCode(s.captureBeforeState(dir, { runId: 'r', restartFrom: 7 }), 'INVALID_ARGUMENT');
    const before = await s.captureBeforeState(dir, { runId: 'r', restartFrom: 1 });
    expect(before.sha).toBe(s1.afterSha);
    const run = RunRecord.parse(await s.store.loadRun('r'));
    expect(run.restarts).toEqual([{ from: 1, sha: s1.afterSha, lastIteration: 2, at: expect.any(String) }]);
    // A second before from the same point needs no second declaration.
    await s.captureBeforeState(dir, { runId: 'r' });
    writeFiles(dir, { 'a.txt': 'three\n' });
    const s3 = await s.captureAfterState(dir, null, { runId: 'r', iteration: 3 });
    expect(s3.beforeSha).toBe(s1.afterSha);
    const report = await s.verify({ runId: 'r' });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.find((c) => c.check === 'continuity' && c.snapshotId === s3.id)?.detail).toMatch(
      /restarts from iteration 1/,
    );
    // After the restarted iteration, the run goes on from it: 2's after commit is no longer the base.
    git(dir, ['reset', '-q', '--hard', s2.afterSha]);
    await expectCode(s.captureBeforeState(dir, { runId: 'r' }), 'RUN_DIVERGED');
  });

  it("restart from 0 is the run's start; a restart record that names the wrong commit does not pass verify", async () => {
    const dir = repoWithCommit();
    const { s, s1 } = await twoIterations(dir);
    git(dir, ['reset', '-q', '--hard', s1.beforeSha]);
    await s.captureBeforeState(dir, { runId: 'r', restartFrom: 0 });
    writeFiles(dir, { 'b.txt': 'another way\n' });
    const s3 = await s.captureAfterState(dir, null, { runId: 'r', iteration: 3 });
    expect((await s.verify({ runId: 'r' })).ok).toBe(true);
    // Edited: the restart now claims iteration 1 ended at the run's start.
    const file = join(s.options.home, 'runs', 'r.json');
    const run = RunRecord.parse(JSON.parse(readFileSync(file, 'utf8')));
    const edited = { ...run, restarts: (run.restarts ?? []).map((r) => ({ ...r, from: 1 })) };
    await s.store.updateRun('r', run.workspace, () => edited);
    const report = await s.verify({ runId: 'r' });
    expect(report.checks.find((c) => c.check === 'continuity' && c.snapshotId === s3.id)?.ok).toBe(false);
  });
});

describe('CLI: restarts', () => {
  it('before refuses a silent divergence (RUN_DIVERGED, exit 1, nothing written); --restart-from records it; verify and report show it', () => {
    const dir = repoWithCommit();
    const home = tempDir('agentgate-home-');
    const run = (args: string[]) => runCli(['-C', dir, ...args], { env: { AGENTGATE_HOME: home } });
    const ok = (args: string[]) => {
      const res = run([...args, '--json']);
      expect(res.status, res.stdout + res.stderr).toBe(0);
      return res.json();
    };
    ok(['before', '--run', 'c']);
    writeFiles(dir, { 'a.txt': 'one\n' });
    const s1 = Snapshot.parse(ok(['after', '--run', 'c', '--iteration', '1']));
    ok(['before', '--run', 'c']);
    writeFiles(dir, { 'a.txt': 'rejected\n' });
    ok(['after', '--run', 'c', '--iteration', '2']);

    git(dir, ['reset', '-q', '--hard', s1.afterSha]);
    const record = readFileSync(join(home, 'runs', 'c.json'), 'utf8');
    const refused = run(['before', '--run', 'c', '--json']);
    expect(refused.status).toBe(1);
    expect((refused.json() as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'RUN_DIVERGED',
      message: expect.stringContaining('--restart-from'),
    });
    expect(readFileSync(join(home, 'runs', 'c.json'), 'utf8')).toBe(record);
    expect(head(dir)).toBe(s1.afterSha);

    const before = BeforeState.parse(ok(['before', '--run', 'c', '--restart-from', '1']));
    expect(before.sha).toBe(s1.afterSha);
    writeFiles(dir, { 'a.txt': 'accepted\n' });
    ok(['after', '--run', 'c', '--iteration', '3']);
    const verified = VerifyReport.parse(ok(['verify', '--run', 'c']));
    expect(verified.ok).toBe(true);

    const report = RunReport.parse(ok(['report', '--run', 'c', '--format', 'json']));
    expect(report.run.restarts).toEqual([expect.objectContaining({ from: 1, lastIteration: 2 })]);
    for (const format of ['md', 'html']) {
      const text = run(['report', '--run', 'c', '--format', format]).stdout;
      expect(text, format).toMatch(/[Rr]estart/);
      expect(text, format).toContain('from iteration 1');
    }
  });
});

describe('travel: restarts', () => {
  it('a restarted run pushed from one clone verifies on another, with its restart recorded there', async () => {
    const w = world();
    try {
      const a = w.machine('a');
      await runIterations(a, 't', 2, 1);
      const first = (await a.snap.listByRun('t'))[0] as Snapshot;
      git(a.dir, ['reset', '-q', '--hard', first.afterSha]);
      await a.snap.captureBeforeState(a.dir, { runId: 't', restartFrom: 1 });
      writeFiles(a.dir, { 'retry.txt': 'again\n' });
      await a.snap.captureAfterState(a.dir, null, { runId: 't', iteration: 3 });
      expect((await a.snap.verify({ runId: 't' })).ok).toBe(true);
      await a.share.push({ workspace: a.dir });

      const b = w.machine('b');
      await b.share.fetch({ workspace: b.dir });
      const run = RunRecord.parse(await b.snap.store.loadRun('t'));
      expect(run.restarts).toEqual(RunRecord.parse(await a.snap.store.loadRun('t')).restarts);
      const report = await b.snap.verify({ runId: 't' });
      expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    } finally {
      w.cleanup();
    }
  });
});
