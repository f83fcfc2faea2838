/**
 * Records that would say something untrue: a run used from two workspaces, an `after` without its
 * own `before`, iterations going backwards, hand-edited snapshots, a verify that verifies nothing,
 * an abbreviated SHA shared by two snapshots, and a delete that would leave its patch behind.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../types/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { deadPid } from '../helpers/node-child.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { expectCode, newSnapshotter, recordIteration } from '../helpers/snapshotter.js';

function snapshotFile(s: ReturnType<typeof newSnapshotter>, id: string): string {
  return join(s.options.home, 'snapshots', `${id}.json`);
}

describe('a run belongs to one workspace', () => {
  it('before and after from a second workspace are RUN_WORKSPACE_MISMATCH, changing nothing', async () => {
    const s = newSnapshotter();
    const a = repoWithCommit({ 'a.txt': 'a\n' });
    const b = repoWithCommit({ 'b.txt': 'b\n' });
    await recordIteration(s, a, 'r', 1, { 'a.txt': 'a2\n' });
    writeFiles(b, { 'b.txt': 'b2\n' });
    await expectCode(s.captureBeforeState(b, { runId: 'r' }), 'RUN_WORKSPACE_MISMATCH');
    await expectCode(
      s.captureAfterState(b, null, { runId: 'r', iteration: 2, beforeSha: 'HEAD' }),
      'RUN_WORKSPACE_MISMATCH',
    );
    expect((await s.store.loadRun('r'))?.snapshotIds).toHaveLength(1);
  });
});

describe('a before is used up by its after, and iterations only go forward', () => {
  it('a second after without a new before is NO_BEFORE_STATE; --before SHA still works', async () => {
    const s = newSnapshotter();
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const first = await recordIteration(s, ws, 'r', 1, { 'a.txt': 'a2\n' });
    writeFiles(ws, { 'a.txt': 'a3\n' });
    await expectCode(s.captureAfterState(ws, null, { runId: 'r', iteration: 2 }), 'NO_BEFORE_STATE');
    const explicit = await s.captureAfterState(ws, null, {
      runId: 'r',
      iteration: 2,
      beforeSha: first.afterSha,
    });
    expect(explicit.beforeSha).toBe(first.afterSha);
  });

  it('a retry of the very same capture still gets the stored snapshot back', async () => {
    const s = newSnapshotter();
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    await s.captureBeforeState(ws, { runId: 'r' });
    writeFiles(ws, { 'a.txt': 'a2\n' });
    const first = await s.captureAfterState(ws, null, { runId: 'r', iteration: 1, taskPrompt: 't' });
    const again = await s.captureAfterState(ws, null, { runId: 'r', iteration: 1, taskPrompt: 't' });
    expect(again.id).toBe(first.id);
    // The message holds 100 characters of the task: a longer one that differs after them is another capture.
    await expectCode(
      s.captureAfterState(ws, null, { runId: 'r', iteration: 1, taskPrompt: `t${'x'.repeat(150)}` }),
      'ITERATION_EXISTS',
    );
    // One that changed nothing has no commit message: its task and gate tell a retry from another capture.
    await s.captureBeforeState(ws, { runId: 'r' });
    const none = await s.captureAfterState(ws, null, { runId: 'r', iteration: 2, taskPrompt: 'u' });
    expect((await s.captureAfterState(ws, null, { runId: 'r', iteration: 2, taskPrompt: 'u' })).id).toBe(
      none.id,
    );
    await expectCode(
      s.captureAfterState(ws, null, { runId: 'r', iteration: 2, taskPrompt: 'different' }),
      'ITERATION_EXISTS',
    );
    await expectCode(
      s.captureAfterState(ws, null, { runId: 'r', iteration: 2, taskPrompt: 'u', gatePlanSource: 'g' }),
      'ITERATION_EXISTS',
    );
  });

  it('an earlier iteration number is ITERATION_OUT_OF_ORDER, the same one ITERATION_EXISTS', async () => {
    const s = newSnapshotter();
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    await recordIteration(s, ws, 'r', 3, { 'a.txt': 'a2\n' });
    await s.captureBeforeState(ws, { runId: 'r' });
    writeFiles(ws, { 'a.txt': 'a3\n' });
    await expectCode(s.captureAfterState(ws, null, { runId: 'r', iteration: 0 }), 'ITERATION_OUT_OF_ORDER');
    await expectCode(s.captureAfterState(ws, null, { runId: 'r', iteration: 3 }), 'ITERATION_EXISTS');
    expect((await s.captureAfterState(ws, null, { runId: 'r', iteration: 4 })).iteration).toBe(4);
  });
});

describe('verify confirms every stored field git can confirm', () => {
  const edits: Array<[string, (x: Snapshot) => Snapshot, string]> = [
    [
      'a per-file count',
      (x) => ({ ...x, files: x.files.map((f, i) => (i === 0 ? { ...f, insertions: f.insertions + 1 } : f)) }),
      'files',
    ],
    ['the iteration', (x) => ({ ...x, iteration: x.iteration + 7 }), 'ref'],
    ['the branch', (x) => ({ ...x, branch: 'nowhere' }), 'branch'],
    ['the ref, set to null', (x) => ({ ...x, ref: null }), 'ref'],
    [
      'the before SHA in the message trailers',
      (x) => ({ ...x, commitMessage: x.commitMessage.replace(/Agentgate-Run: .*/, 'Agentgate-Run: other') }),
      'commit-message',
    ],
  ];
  for (const [what, edit, check] of edits) {
    it(`fails a hand-edited ${what}`, async () => {
      const s = newSnapshotter();
      const ws = repoWithCommit({ 'a.txt': 'a\n' });
      const snap = await recordIteration(s, ws, 'r', 1, { 'a.txt': 'a2\nmore\n' });
      expect((await s.verify({ runId: 'r' })).ok).toBe(true);
      writeFileSync(snapshotFile(s, snap.id), JSON.stringify(edit(snap), null, 2));
      const report = await s.verify({ runId: 'r' });
      expect(report.ok).toBe(false);
      expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toContain(check);
    });
  }

  it('a task or gate holding a lone surrogate is recorded as its commit holds it, and verifies', async () => {
    const s = newSnapshotter();
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    await s.captureBeforeState(ws, { runId: 'r' });
    writeFiles(ws, { 'a.txt': 'a2\n' });
    // A JavaScript caller's (or a serve request's) "\ud800" has no UTF-8 form: git stores U+FFFD.
    const snap = await s.captureAfterState(ws, null, {
      runId: 'r',
      iteration: 1,
      taskPrompt: 'fix \ud800 it',
      gatePlanSource: 'npm test \udfff',
    });
    expect([snap.task, snap.gate]).toEqual(['fix \ufffd it', 'npm test \ufffd']);
    const report = await s.verify({ runId: 'r' });
    expect(report.checks.filter((c) => !c.ok)).toEqual([]);
    // A retry with the same text is the same capture.
    const again = await s.captureAfterState(ws, null, {
      runId: 'r',
      iteration: 1,
      taskPrompt: 'fix \ud800 it',
      gatePlanSource: 'npm test \udfff',
    });
    expect(again.id).toBe(snap.id);
  });

  it('checks that each iteration starts where the previous one ended', async () => {
    const s = newSnapshotter();
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const one = await recordIteration(s, ws, 'r', 1, { 'a.txt': 'a2\n' });
    writeFiles(ws, { 'dirty.txt': 'between iterations\n' });
    await recordIteration(s, ws, 'r', 2, { 'a.txt': 'a3\n' });
    const report = await s.verify({ runId: 'r' });
    expect(report.checks.filter((c) => c.check === 'continuity')).toEqual([
      expect.objectContaining({ ok: true }),
    ]);
    // A second history that does not build on iteration 1.
    const other = await recordIteration(s, ws, 'r', 3, { 'a.txt': 'a4\n' });
    writeFileSync(snapshotFile(s, other.id), JSON.stringify({ ...other, beforeSha: one.beforeSha }, null, 2));
    const broken = await s.verify({ runId: 'r' });
    expect(broken.checks.filter((c) => c.check === 'continuity' && !c.ok)).toHaveLength(1);
  });

  it('verifying nothing is NOTHING_TO_VERIFY, and the CLI tells a failed check (3) from a failure to verify (1)', async () => {
    const s = newSnapshotter();
    await expectCode(s.verify({ all: true }), 'NOTHING_TO_VERIFY');
    const empty = runCli(['verify', '--all', '--home', tempDir('agentgate-empty-home-'), '--json']);
    expect(empty.status).toBe(1);
    expect((empty.json() as { error: { code: string } }).error.code).toBe('NOTHING_TO_VERIFY');

    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const snap = await recordIteration(s, ws, 'r', 1, { 'a.txt': 'a2\n' });
    writeFileSync(snap.patchPath as string, 'tampered\n');
    expect(
      runCli(['verify', '--run', 'r', '--home', s.options.home, '--artifacts-dir', s.options.artifactsDir])
        .status,
    ).toBe(3);
  });
});

describe('temp files a killed writer left', () => {
  it("are swept from the store and the artifacts directory when a dead holder's lock is taken over", async () => {
    const s = newSnapshotter();
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const before = await s.captureBeforeState(ws, { runId: 'r' });
    const dead = await deadPid();
    const stale = [
      join(s.options.home, 'snapshots', `.snap-x.json.${dead}.0123456789ab.tmp`),
      join(s.options.home, 'runs', `.r.json.${dead}.0123456789ab.tmp`),
      join(s.options.artifactsDir, 'r', 'iteration-1', `.patch.diff.${dead}.0123456789ab.tmp`),
    ];
    for (const file of stale) {
      mkdirSync(join(file, '..'), { recursive: true });
      writeFileSync(file, 'half');
    }
    const owner = {
      pid: dead,
      hostname: hostname(),
      createdAt: new Date().toISOString(),
      token: 'f'.repeat(24),
      purpose: 'snapshot (killed)',
    };
    writeFileSync(join(ws, '.git', 'agentgate.lock'), JSON.stringify(owner));
    writeFiles(ws, { 'a.txt': 'a2\n' });
    await s.captureAfterState(ws, before, { runId: 'r', iteration: 1 });
    for (const file of stale) expect(existsSync(file), file).toBe(false);
  });
});

describe('list, show and delete', () => {
  it('list --json names a corrupt store file on stderr and still lists the good records on stdout', async () => {
    const s = newSnapshotter();
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const snap = await recordIteration(s, ws, 'r', 1, { 'a.txt': 'a2\n' });
    writeFileSync(join(s.options.home, 'snapshots', 'snap-broken.json'), '{ not json');
    const res = runCli(['list', '--json', '--home', s.options.home]);
    expect(res.status).toBe(0);
    expect((JSON.parse(res.stdout) as Snapshot[]).map((x) => x.id)).toEqual([snap.id]);
    const warning = JSON.parse(res.stderr.trim()) as { warnings: Array<{ code: string; file: string }> };
    expect(warning.warnings).toEqual([
      expect.objectContaining({
        code: 'STORE_CORRUPT',
        file: join(s.options.home, 'snapshots', 'snap-broken.json'),
      }),
    ]);
  });

  it('an abbreviated SHA shared by a no-change iteration names the snapshot that made the commit', async () => {
    const s = newSnapshotter();
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const made = await recordIteration(s, ws, 'r', 1, { 'a.txt': 'a2\n' });
    const none = await recordIteration(s, ws, 'r', 2, {});
    expect(none.afterSha).toBe(made.afterSha);
    expect((await s.getSnapshot(made.afterSha.slice(0, 10))).id).toBe(made.id);
    // A deletion takes no guess: the shared SHA is ambiguous, the ids are not.
    await expectCode(s.delete(made.afterSha.slice(0, 10)), 'AMBIGUOUS_ID');
    expect(await s.delete(none.id)).toBe(none.id);
    expect(await s.delete(made.afterSha)).toBe(made.id);
  });

  it('delete removes the patch artifact with the record', async () => {
    const s = newSnapshotter();
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const snap = await recordIteration(s, ws, 'r', 1, { 'a.txt': 'a2\n' });
    const patch = snap.patchPath as string;
    expect(readFileSync(patch, 'utf8')).toContain('a2');
    await s.delete(snap.id);
    expect(existsSync(patch)).toBe(false);
    expect(existsSync(join(patch, '..'))).toBe(false);
  });
});
