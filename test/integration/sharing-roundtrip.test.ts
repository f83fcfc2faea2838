/**
 * Runs that travel: a run made on one machine (a clone of a bare repository, with its own home) is
 * pushed, fetched and verified on another, or carried there in one bundle.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gitCallCount } from '../../src/git/runner.js';
import { Sharing } from '../../src/sharing/sharing.js';
import { git } from '../helpers/repo.js';
import { failsWith as expectCode, runIterations, world, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

describe('push and fetch', () => {
  it('rebuilds a run on a machine that never saw it: list, show, patch (byte-identical) and verify', async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'run-1', 2);
    const pushed = await a.share.push({ workspace: a.dir });
    expect(pushed.runs).toEqual(['run-1']);
    expect(pushed.updated.sort()).toEqual([
      'refs/agentgate/records/run-1/iteration-0',
      'refs/agentgate/records/run-1/iteration-1',
    ]);
    // One ref per iteration on the remote, readable with plain git.
    expect(git(w.origin, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/']).split('\n')).toEqual(
      pushed.updated,
    );
    const record = JSON.parse(
      git(w.origin, ['show', 'refs/agentgate/records/run-1/iteration-1:record.json']),
    ) as { snapshot: { task: string } };
    expect(record.snapshot.task).toBe(`Task 1: ${'x'.repeat(150)} end`);

    const fetched = await b.share.fetch({ workspace: b.dir });
    expect(fetched).toMatchObject({
      remote: 'origin',
      runs: ['run-1'],
      snapshots: 2,
      unchanged: 0,
      refused: [],
    });
    const original = await a.snap.listByRun('run-1');
    const copies = await b.snap.listByRun('run-1');
    expect(copies.map((s) => s.id)).toEqual(original.map((s) => s.id));
    for (const [i, copy] of copies.entries()) {
      const o = original[i]!;
      expect(copy).toMatchObject({
        afterSha: o.afterSha,
        beforeSha: o.beforeSha,
        files: o.files,
        task: o.task,
        gate: o.gate,
        workspace: b.dir,
        recordedWorkspace: a.dir,
      });
      expect(copy.patchPath).toBe(join(b.artifacts, 'run-1', `iteration-${i}`, 'patch.diff'));
      // The artifact is built when first asked for (fetch writes none), byte for byte the recorded one.
      expect(await b.snap.generatePatch(copy)).toBe(readFileSync(o.patchPath!, 'utf8'));
      expect(readFileSync(copy.patchPath!)).toEqual(readFileSync(o.patchPath!));
      expect((await b.snap.getSnapshot(o.afterSha.slice(0, 12))).id).toBe(o.id);
    }
    const run = await b.snap.store.loadRun('run-1');
    expect(run).toMatchObject({
      workspace: b.dir,
      recordedWorkspace: a.dir,
      snapshotIds: original.map((s) => s.id),
    });
    const report = await b.snap.verify({ runId: 'run-1' });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    expect(report.checks.map((c) => c.check)).toContain('task');
  });

  it('relays: a machine that fetched a run publishes it elsewhere with --all, unchanged', async () => {
    w = world();
    const [a, b, c] = [w.machine('a'), w.machine('b'), w.machine('c')];
    await runIterations(a, 'relay', 2);
    await a.share.push({ workspace: a.dir });
    await b.share.fetch({ workspace: b.dir });
    const mirror = join(w.root, 'mirror.git');
    git(w.root, ['init', '-q', '--bare', mirror]);
    expect(await b.share.push({ workspace: b.dir, all: true }, mirror)).toMatchObject({ refs: 2 });
    expect(git(mirror, ['for-each-ref', '--format=%(objectname)', 'refs/agentgate/records/'])).toBe(
      git(w.origin, ['for-each-ref', '--format=%(objectname)', 'refs/agentgate/records/']),
    );
    expect(await c.share.fetch({ workspace: c.dir }, mirror)).toMatchObject({
      runs: ['relay'],
      snapshots: 2,
      refused: [],
    });
    expect((await c.snap.verify({ runId: 'relay' })).ok).toBe(true);
    expect((await c.snap.store.loadRun('relay'))?.recordedWorkspace).toBe(a.dir);
  });

  it('repeats harmlessly, and a second fetch with nothing new rebuilds nothing', async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'r', 1);
    await a.share.push({ workspace: a.dir });
    const again = await a.share.push({ workspace: a.dir });
    expect(again.updated).toEqual([]);
    expect(again.upToDate).toEqual(['refs/agentgate/records/r/iteration-0']);
    expect((await b.share.fetch({ workspace: b.dir })).snapshots).toBe(1);
    const calls = gitCallCount();
    expect(await b.share.fetch({ workspace: b.dir })).toMatchObject({ snapshots: 0, unchanged: 1 });
    // Nothing new: one ls-remote and a few local reads, no fetch and no ref written.
    expect(gitCallCount() - calls).toBeLessThanOrEqual(8);
    // A new home on the same repository is rebuilt from the records the repository already holds.
    const fresh = new Sharing({
      ...b.share.options,
      home: join(w.root, 'b-home-2'),
      artifactsDir: join(w.root, 'b-home-2', 'artifacts'),
    });
    expect(await fresh.fetch({ workspace: b.dir })).toMatchObject({
      snapshots: 1,
      unchanged: 0,
      refused: [],
    });
    // The machine that made the run fetches its own records back: nothing changes, nothing is counted as rebuilt.
    const home = () =>
      JSON.stringify([
        readdirSync(join(a.home, 'snapshots')).sort(),
        readFileSync(join(a.home, 'runs', 'r.json'), 'utf8'),
      ]);
    const kept = home();
    expect(await a.share.fetch({ workspace: a.dir })).toMatchObject({
      snapshots: 0,
      unchanged: 1,
      refused: [],
    });
    expect(home()).toBe(kept);
    expect(await a.share.fetch({ workspace: a.dir })).toMatchObject({ snapshots: 0, unchanged: 1 });
    expect((await a.snap.verify({ runId: 'r' })).ok).toBe(true);
  });

  it('pushes later iterations incrementally, and two machines publishing different runs at once both land', async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    const c = w.machine('c');
    await runIterations(a, 'ra', 1);
    await runIterations(b, 'rb', 2);
    await a.share.push({ workspace: a.dir });
    await runIterations(a, 'ra', 2, 1);
    const [pa, pb] = await Promise.all([
      a.share.push({ workspace: a.dir }),
      b.share.push({ workspace: b.dir }),
    ]);
    expect(pa.updated).toEqual([
      'refs/agentgate/records/ra/iteration-1',
      'refs/agentgate/records/ra/iteration-2',
    ]);
    expect(pa.upToDate).toEqual(['refs/agentgate/records/ra/iteration-0']);
    expect(pb.updated).toHaveLength(2);
    const got = await c.share.fetch({ workspace: c.dir });
    expect(got).toMatchObject({ runs: ['ra', 'rb'], snapshots: 5, refused: [] });
    expect((await c.snap.verify({ all: true })).ok).toBe(true);
    // Two pushes of one run at once from one repository agree on the same records.
    await runIterations(a, 'twice', 2);
    const both = await Promise.all([
      a.share.push({ workspace: a.dir, runId: 'twice' }),
      a.share.push({ workspace: a.dir, runId: 'twice' }),
    ]);
    expect(both.flatMap((p) => p.updated).sort()).toEqual([
      'refs/agentgate/records/twice/iteration-0',
      'refs/agentgate/records/twice/iteration-1',
    ]);
    // --run fetches one run only.
    const d = w.machine('d');
    expect(await d.share.fetch({ workspace: d.dir, runId: 'rb' })).toMatchObject({
      runs: ['rb'],
      snapshots: 2,
    });
  });

  it('refuses a conflicting publication of the same iteration with PUSH_REJECTED and loses nothing', async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'same', 1);
    await runIterations(b, 'same', 2);
    await a.share.push({ workspace: a.dir });
    const remoteBefore = git(w.origin, ['rev-parse', 'refs/agentgate/records/same/iteration-0']);
    const error = await expectCode(b.share.push({ workspace: b.dir }), 'PUSH_REJECTED');
    expect(error.details.rejected).toEqual([
      expect.objectContaining({ ref: 'refs/agentgate/records/same/iteration-0' }),
    ]);
    // The other iteration landed; the first publication is intact.
    expect(error.details.updated).toEqual(['refs/agentgate/records/same/iteration-1']);
    expect(git(w.origin, ['rev-parse', 'refs/agentgate/records/same/iteration-0'])).toBe(remoteBefore);
  });

  it("PUSH_REJECTED by the remote itself (a hidden ref) says the remote's reason, not a conflict", async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'same', 1);
    await runIterations(b, 'same', 1);
    await a.share.push({ workspace: a.dir });
    const held = await expectCode(b.share.push({ workspace: b.dir }), 'PUSH_REJECTED');
    expect((held as unknown as Error).message).toMatch(/^the remote already holds other records/);
    git(w.origin, ['config', 'receive.hideRefs', 'refs/agentgate/records/hid']);
    await runIterations(b, 'hid', 1);
    const error = await expectCode(b.share.push({ workspace: b.dir, runId: 'hid' }), 'PUSH_REJECTED');
    const message = (error as unknown as Error).message;
    expect(message).toContain(
      'refs/agentgate/records/hid/iteration-0: [remote rejected] (deny updating a hidden ref)',
    );
    expect(message).not.toContain('already holds');
  });

  it('mends the ref locks a killed push left in a remote on this machine', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'lk', 1);
    await a.share.push({ workspace: a.dir });
    await runIterations(a, 'lk', 2, 1);
    // What a push killed with its receive-pack leaves: the lock of a ref it was about to write.
    const lock = join(w.origin, 'refs/agentgate/records/lk/iteration-1.lock');
    writeFileSync(lock, '');
    const aged = new Date(Date.now() - 60_000);
    utimesSync(lock, aged, aged);
    const pushed = await a.share.push({ workspace: a.dir });
    expect(pushed.updated.sort()).toEqual([
      'refs/agentgate/records/lk/iteration-1',
      'refs/agentgate/records/lk/iteration-2',
    ]);
    expect(existsSync(lock)).toBe(false);
    // A lock taken a moment ago is waited for until it is stale, then mended the same way.
    await runIterations(a, 'lk', 1, 3);
    const fresh = join(w.origin, 'refs/agentgate/records/lk/iteration-3.lock');
    writeFileSync(fresh, '');
    expect((await a.share.push({ workspace: a.dir })).updated).toEqual([
      'refs/agentgate/records/lk/iteration-3',
    ]);
    expect(existsSync(fresh)).toBe(false);
    // A lock dated in the future (a clock ahead) is waited for no longer than a fresh one.
    await runIterations(a, 'lk', 1, 4);
    const future = join(w.origin, 'refs/agentgate/records/lk/iteration-4.lock');
    writeFileSync(future, '');
    const ahead = new Date(Date.now() + 3_600_000);
    utimesSync(future, ahead, ahead);
    expect((await a.share.push({ workspace: a.dir })).updated).toEqual([
      'refs/agentgate/records/lk/iteration-4',
    ]);
  });

  it('refuses every record of a run that shares its id with another run here, and leaves that run as it was', async () => {
    w = world();
    const [a, b] = [w.machine('a'), w.machine('b')];
    await runIterations(a, 'same-id', 3);
    await a.share.push({ workspace: a.dir });
    await runIterations(b, 'same-id', 1);
    const mine = await b.snap.store.loadRun('same-id');
    const fetched = await b.share.fetch({ workspace: b.dir });
    expect(fetched.snapshots).toBe(0);
    expect(fetched.refused.map((r) => r.ref)).toEqual(
      [0, 1, 2].map((i) => `refs/agentgate/records/same-id/iteration-${i}`),
    );
    expect(await b.snap.store.loadRun('same-id')).toEqual(mine);
    expect((await b.snap.verify({ runId: 'same-id' })).ok).toBe(true);
    await runIterations(b, 'same-id', 1, 1); // its own next iteration goes on as before
    expect((await b.snap.listByRun('same-id')).map((s) => s.iteration)).toEqual([0, 1]);
  });

  it('carries a run in one bundle file; a damaged or foreign file is BUNDLE_INVALID and changes nothing', async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'bundled', 2);
    const file = join(w.root, 'audit.bundle');
    expect(await a.share.export({ workspace: a.dir }, file)).toMatchObject({
      file,
      runs: ['bundled'],
      refs: 2,
    });
    const refsBefore = git(b.dir, ['for-each-ref']);
    const damaged = join(w.root, 'damaged.bundle');
    const bytes = readFileSync(file);
    writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length * 0.7)));
    await expectCode(b.share.import(b.dir, damaged), 'BUNDLE_INVALID');
    const flipped = Buffer.from(bytes);
    flipped[flipped.length - 30] ^= 0xff;
    writeFileSync(damaged, flipped);
    await expectCode(b.share.import(b.dir, damaged), 'BUNDLE_INVALID');
    writeFileSync(damaged, 'not a bundle\n');
    await expectCode(b.share.import(b.dir, damaged), 'BUNDLE_INVALID');
    const foreign = join(w.root, 'foreign.bundle');
    git(a.dir, ['bundle', 'create', foreign, 'main']);
    await expectCode(b.share.import(b.dir, foreign), 'BUNDLE_INVALID');
    expect(git(b.dir, ['for-each-ref'])).toBe(refsBefore);
    expect((await b.snap.store.listRuns()).runs).toEqual([]);

    expect(await b.share.import(b.dir, file)).toMatchObject({ runs: ['bundled'], snapshots: 2, refused: [] });
    expect(await b.share.import(b.dir, file)).toMatchObject({ snapshots: 0, unchanged: 2 });
    // With every record already here nothing is fetched, yet a damaged file is still refused.
    for (const broken of [bytes.subarray(0, bytes.length - 7), flipped]) {
      writeFileSync(damaged, broken);
      await expectCode(b.share.import(b.dir, damaged), 'BUNDLE_INVALID');
    }
    expect((await b.snap.verify({ runId: 'bundled' })).ok).toBe(true);
    // A bundle of another object format: git 2.39 verifies it, then fails mid-fetch ("pack is corrupted").
    const other = join(w.root, 'sha256');
    git(w.root, ['init', '-q', '--object-format=sha256', '-b', 'main', other]);
    git(other, ['commit', '-q', '--allow-empty', '-m', 'x']);
    git(other, ['update-ref', 'refs/agentgate/records/s/iteration-0', 'HEAD']);
    git(other, ['bundle', 'create', '-q', damaged, 'refs/agentgate/records/s/iteration-0']);
    const format = await expectCode(b.share.import(b.dir, damaged), 'BUNDLE_INVALID');
    expect(format.details).toMatchObject({ bundleObjectFormat: 'sha256', objectFormat: 'sha1' });
    const [o, c] = [await a.snap.listByRun('bundled'), await b.snap.listByRun('bundled')];
    expect(readFileSync(c[1]!.patchPath!)).toEqual(readFileSync(o[1]!.patchPath!));
  });

  it('stores the whole task and the gate, also for an iteration where the agent made only its own commits', async () => {
    w = world();
    const a = w.machine('a');
    const before = await a.snap.captureBeforeState(a.dir, { runId: 'own' });
    writeFileSync(join(a.dir, 'agent.txt'), 'by the agent\n');
    git(a.dir, ['add', '-A']);
    git(a.dir, ['commit', '-q', '-m', 'agent commit']);
    const task = `${'long task '.repeat(30)}\nsecond line`;
    const snap = await a.snap.captureAfterState(a.dir, before, {
      runId: 'own',
      iteration: 0,
      taskPrompt: task,
      gatePlanSource: 'npm test',
    });
    expect(snap).toMatchObject({ commitMessage: '', task, gate: 'npm test' });
    const b = w.machine('b');
    await a.share.push({ workspace: a.dir });
    await b.share.fetch({ workspace: b.dir });
    expect((await b.snap.listByRun('own'))[0]).toMatchObject({ task, gate: 'npm test', commitMessage: '' });
  });

  it('carries the paths an iteration skipped (a FIFO where a tracked file was), so the other machine knows what was left out', async () => {
    w = world();
    const a = w.machine('a');
    writeFileSync(join(a.dir, 'pipe'), 'data\n');
    git(a.dir, ['add', 'pipe']);
    git(a.dir, ['commit', '-q', '-m', 'a tracked file']);
    const before = await a.snap.captureBeforeState(a.dir, { runId: 'odd' });
    writeFileSync(join(a.dir, 'kept.txt'), 'kept\n');
    rmSync(join(a.dir, 'pipe'));
    execFileSync('mkfifo', [join(a.dir, 'pipe')]);
    const snap = await a.snap.captureAfterState(a.dir, before, { runId: 'odd', iteration: 0 });
    expect(snap.skipped).toEqual([{ path: 'pipe', reason: 'special-file' }]);
    const b = w.machine('b');
    await a.share.push({ workspace: a.dir });
    await b.share.fetch({ workspace: b.dir });
    const [copy] = await b.snap.listByRun('odd');
    expect(copy).toMatchObject({ skipped: snap.skipped, files: snap.files });
    expect((await b.snap.verify({ runId: 'odd' })).checks.filter((c) => !c.ok)).toEqual([]);
  });
});
