/**
 * Thrust 17 and the audit verbs through the library: the store (save, load, loadByRun, validation,
 * persistence across instances), verify, lookup by id or SHA, delete and cherry-pick, each on a
 * run captured for real in a repository and home of its own.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import type { Snapshotter } from '../../src/snapshotter/snapshotter.js';
import { commitAll, git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { expectCode, fingerprint, newSnapshotter } from '../helpers/snapshotter.js';

interface Run {
  dir: string;
  s: Snapshotter;
  /** Iteration 1: adds a.txt. 2: the agent commits b.txt, then edits f.txt uncommitted. 3: no change. */
  snaps: [Snapshot, Snapshot, Snapshot];
}

/** Captures run "r" with three iterations on a repository with f.txt; `release` branches off the base. */
async function threeIterations(): Promise<Run> {
  const dir = repoWithCommit({ 'f.txt': 'base\n' });
  git(dir, ['branch', 'release']);
  const s = newSnapshotter();
  const snaps: Snapshot[] = [];
  const edits = [
    () => writeFiles(dir, { 'a.txt': 'a\n' }),
    () => {
      writeFiles(dir, { 'b.txt': 'b\n' });
      commitAll(dir, 'agent commit');
      writeFiles(dir, { 'f.txt': 'base\nagent\n' });
    },
    () => undefined,
  ];
  for (const [i, edit] of edits.entries()) {
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    edit();
    snaps.push(
      await s.captureAfterState(dir, before, { runId: 'r', iteration: i + 1, taskPrompt: `step ${i + 1}` }),
    );
  }
  return { dir, s, snaps: snaps as Run['snaps'] };
}

let sharedRun: Promise<Run> | null = null;
/** One captured run shared by the tests that only read it (they must not change it). */
function shared(): Promise<Run> {
  sharedRun ??= threeIterations();
  return sharedRun;
}

const snapshotFile = (s: Snapshotter, id: string): string => join(s.options.home, 'snapshots', `${id}.json`);
const runFile = (s: Snapshotter, runId: string): string => join(s.options.home, 'runs', `${runId}.json`);
const failed = (report: { checks: Array<{ check: string; ok: boolean; snapshotId: string | null }> }) =>
  report.checks.filter((c) => !c.ok).map((c) => `${c.snapshotId ?? '-'} ${c.check}`);

describe('the snapshot store (Thrust 17)', () => {
  it('save persists to <home>/snapshots/<id>.json and load returns the same data', async () => {
    const { s, snaps } = await shared();
    for (const snap of snaps) {
      expect(JSON.parse(readFileSync(snapshotFile(s, snap.id), 'utf8'))).toEqual(snap);
      expect(await s.store.load(snap.id)).toEqual(snap);
      expect(await s.getSnapshot(snap.id)).toEqual(snap);
    }
    const store = new SnapshotStore(tempDir('agentgate-home-'));
    const copy = { ...snaps[0], id: 'hand-made-1' };
    await store.save(copy);
    expect(JSON.parse(readFileSync(join(store.home, 'snapshots', 'hand-made-1.json'), 'utf8'))).toEqual(copy);
    expect(await store.load('hand-made-1')).toEqual(copy);
    expect(await store.load('nope')).toBeNull();
  });

  it('loadByRun returns every iteration, ordered by iteration', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter();
    for (const iteration of [1, 2, 3]) {
      const before = await s.captureBeforeState(dir, { runId: 'order' });
      writeFiles(dir, { [`f${iteration}.txt`]: 'x\n' });
      await s.captureAfterState(dir, before, { runId: 'order', iteration });
    }
    expect((await s.listByRun('order')).map((x) => x.iteration)).toEqual([1, 2, 3]);
    expect((await s.store.loadByRun('order')).map((x) => x.files[0]?.path)).toEqual([
      'f1.txt',
      'f2.txt',
      'f3.txt',
    ]);
    await expectCode(s.listByRun('no-such-run'), 'RUN_NOT_FOUND');
  });

  it('the next iteration reads the run’s last snapshot, not every one: a damaged earlier one does not stop it, a damaged last one does', async () => {
    const { dir, s, snaps } = await threeIterations();
    expect(await s.store.loadLast((await s.store.loadRun('r')) as RunRecord)).toEqual(snaps[2]);
    writeFileSync(snapshotFile(s, snaps[0].id), 'not json');
    rmSync(snapshotFile(s, snaps[1].id));
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    writeFiles(dir, { 'c.txt': 'c\n' });
    const fourth = await s.captureAfterState(dir, before, { runId: 'r', iteration: 4 });
    expect(fourth.beforeSha).toBe(snaps[2].afterSha);
    // verify is where the whole run is read: both damaged files are reported there.
    expect(failed(await s.verify({ runId: 'r' }))).toEqual(['- store-file', '- store-file']);
    // A taken iteration is still refused: that, or an earlier one, looks at the whole run.
    await expectCode(
      s.captureAfterState(dir, null, { runId: 'r', iteration: 3, beforeSha: snaps[2].afterSha }),
      'ITERATION_EXISTS',
    );

    writeFileSync(snapshotFile(s, fourth.id), '{"id": 42}');
    await expectCode(s.captureBeforeState(dir, { runId: 'r' }), 'STORE_CORRUPT');
  });

  it('refuses an invalid snapshot with a validation error and writes nothing', async () => {
    const { s, snaps } = await shared();
    const names = readdirSync(join(s.options.home, 'snapshots')).sort();
    await expectCode(s.store.save({ ...snaps[0], id: 'bad-sha', afterSha: 'not-a-sha' }), 'INVALID_ARGUMENT');
    await expectCode(s.store.save({ ...snaps[0], id: 'bad-iteration', iteration: -1 }), 'INVALID_ARGUMENT');
    await expectCode(s.store.save({ ...snaps[0], id: '../escape' }), 'INVALID_ID');
    await expectCode(s.store.save({ ...snaps[0], insertions: 99 }), 'CONCURRENT_UPDATE');
    expect(readdirSync(join(s.options.home, 'snapshots')).sort()).toEqual(names);
  });

  it('flags a snapshot that is well-formed but wrong about the repository (unknown SHA, not an ancestor, no artifact, no run)', async () => {
    const { s, snaps } = await threeIterations();
    await s.store.save({ ...snaps[0], id: 'ghost', afterSha: 'f'.repeat(40) });
    await s.store.save({
      ...snaps[1],
      id: 'backwards',
      beforeSha: snaps[1].afterSha,
      afterSha: snaps[1].beforeSha,
    });
    // An iteration with no artifact under the artifacts directory either (that one would be used).
    await s.store.save({
      ...snaps[0],
      id: 'no-artifact',
      iteration: 99,
      patchPath: join(s.options.home, 'missing.diff'),
    });
    await s.store.save({ ...snaps[0], id: 'orphan', runId: 'other-run' });
    const report = await s.verify({ all: true });
    expect(report.ok).toBe(false);
    const bad = failed(report);
    expect(bad).toContain('ghost after-exists');
    expect(bad).toContain('backwards before-is-ancestor');
    expect(bad).toContain('no-artifact patch-artifact');
    expect(bad).toContain('orphan run-links-snapshot');
    expect(bad.filter((f) => f.startsWith('snap-'))).toEqual([]);
  });

  it('survives a restart: a new Snapshotter and a new store on the same home read the same data', async () => {
    const { s, snaps } = await shared();
    const again = newSnapshotter({ home: s.options.home, artifactsDir: s.options.artifactsDir });
    expect(await again.listByRun('r')).toEqual(snaps);
    const store = new SnapshotStore(s.options.home);
    expect(await store.load(snaps[1].id)).toEqual(snaps[1]);
    expect((await store.loadRun('r'))?.snapshotIds).toEqual(snaps.map((x) => x.id));
    expect((await again.verify({ runId: 'r' })).ok).toBe(true);
  });
});

describe('verify', () => {
  it('passes every check on a clean run', async () => {
    const { s, snaps } = await shared();
    const report = await s.verify({ runId: 'r' });
    expect(failed(report)).toEqual([]);
    expect(report.ok).toBe(true);
    const names = (id: string) =>
      report.checks
        .filter((c) => c.snapshotId === id)
        .map((c) => c.check)
        .sort();
    const all = [
      'after-exists',
      'before-exists',
      'before-is-ancestor',
      'branch',
      'commit-message',
      'files',
      'patch-applies',
      'patch-artifact',
      'ref',
      'run-links-snapshot',
      'stats',
      'task',
      'trailers',
    ];
    expect(names(snaps[0].id)).toEqual(all);
    // From the second iteration on, each also starts where the previous one ended.
    expect(names(snaps[1].id)).toEqual([...all, 'continuity'].sort());
    expect(names(snaps[2].id)).toEqual(
      [...all, 'continuity']
        .filter((n) => !['patch-applies', 'commit-message', 'task', 'trailers'].includes(n))
        .sort(),
    );
    expect(
      (await s.verify({ id: snaps[0].id })).checks.every((c) => c.snapshotId === snaps[0].id && c.ok),
    ).toBe(true);
  });

  it('fails the sha256 check of a tampered artifact, and the patch is regenerated from git byte for byte', async () => {
    const { s, snaps } = await threeIterations();
    const path = snaps[1].patchPath as string;
    const original = readFileSync(path);
    writeFileSync(path, Buffer.concat([original, Buffer.from('tampered\n')]));
    const report = await s.verify({ id: snaps[1].id });
    expect(report.ok).toBe(false);
    expect(failed(report)).toEqual([`${snaps[1].id} patch-artifact`]);
    expect(Buffer.from(await s.generatePatch(snaps[1]))).toEqual(original);
  });

  it('fails on a deleted artifact, and generatePatch still gives the identical diff (as text and as a file)', async () => {
    const { dir, s, snaps } = await threeIterations();
    const path = snaps[0].patchPath as string;
    const original = readFileSync(path);
    rmSync(path);
    expect(failed(await s.verify({ runId: 'r' }))).toEqual([`${snaps[0].id} patch-artifact`]);
    expect(Buffer.from(await s.generatePatch(snaps[0]))).toEqual(original);
    const out = join(dir, '..', `${snaps[0].id}.diff`);
    expect(await s.generatePatch(snaps[0], out)).toBe('');
    expect(readFileSync(out)).toEqual(original);
    rmSync(out);
  });

  it('fails when the run no longer links the snapshot, or the run record is gone', async () => {
    const { s, snaps } = await threeIterations();
    const record = JSON.parse(readFileSync(runFile(s, 'r'), 'utf8')) as { snapshotIds: string[] };
    record.snapshotIds = record.snapshotIds.filter((id) => id !== snaps[0].id);
    writeFileSync(runFile(s, 'r'), JSON.stringify(record));
    expect(failed(await s.verify({ id: snaps[0].id }))).toEqual([`${snaps[0].id} run-links-snapshot`]);

    rmSync(runFile(s, 'r'));
    const report = await s.verify({ all: true });
    expect(failed(report).sort()).toEqual(snaps.map((x) => `${x.id} run-links-snapshot`).sort());
  });

  it('reports a corrupt or missing store file as a failed check and still verifies the rest (--all and --run)', async () => {
    const { s, snaps } = await threeIterations();
    writeFileSync(join(s.options.home, 'snapshots', 'broken.json'), '{"id": "broken", tru');
    const all = await s.verify({ all: true });
    expect(all.ok).toBe(false);
    expect(failed(all)).toEqual(['- store-file']);
    expect(all.checks.filter((c) => c.ok && c.snapshotId !== null).length).toBeGreaterThanOrEqual(3 * 7);

    writeFileSync(snapshotFile(s, snaps[0].id), 'not json');
    rmSync(snapshotFile(s, snaps[1].id));
    const run = await s.verify({ runId: 'r' });
    expect(failed(run)).toEqual(['- store-file', '- store-file']);
    expect(run.checks.filter((c) => c.snapshotId === snaps[2].id).every((c) => c.ok)).toBe(true);
  });
});

describe('getSnapshot (show)', () => {
  it('finds a snapshot by id, by full after SHA and by abbreviated after SHA', async () => {
    const { s, snaps } = await shared();
    const first = snaps[0];
    expect(await s.getSnapshot(first.id)).toEqual(first);
    expect(await s.getSnapshot(first.afterSha)).toEqual(first);
    expect(await s.getSnapshot(first.afterSha.slice(0, 8))).toEqual(first);
    expect(await s.getSnapshot(first.id.slice(0, -3))).toEqual(first);
  });

  it('refuses an ambiguous prefix with AMBIGUOUS_ID, an unknown one with SNAPSHOT_NOT_FOUND and an unsafe one with INVALID_ID; a shared after SHA names the snapshot that made it', async () => {
    const { s, snaps } = await shared();
    await expectCode(s.getSnapshot('snap-'), 'AMBIGUOUS_ID');
    // Iteration 3 changed nothing, so its after SHA is iteration 2's, which made that commit.
    expect((await s.getSnapshot(snaps[2].afterSha)).id).toBe(snaps[1].id);
    await expectCode(s.getSnapshot('snap-doesnotexist'), 'SNAPSHOT_NOT_FOUND');
    await expectCode(s.getSnapshot('deadbeefdeadbeef'), 'SNAPSHOT_NOT_FOUND');
    await expectCode(s.getSnapshot('../../etc/passwd'), 'INVALID_ID');
  });
});

describe('delete', () => {
  it('removes the metadata, the run link and the iteration ref; the commit stays in git', async () => {
    const { dir, s, snaps } = await threeIterations();
    expect(await s.delete(snaps[0].id)).toBe(snaps[0].id);
    expect(existsSync(snapshotFile(s, snaps[0].id))).toBe(false);
    expect((await s.store.loadRun('r'))?.snapshotIds).toEqual([snaps[1].id, snaps[2].id]);
    await expectCode(s.getSnapshot(snaps[0].id), 'SNAPSHOT_NOT_FOUND');
    expect(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/runs/r/'])).toBe(
      'refs/agentgate/runs/r/iteration-2\nrefs/agentgate/runs/r/iteration-3',
    );
    expect(git(dir, ['cat-file', '-t', snaps[0].afterSha])).toBe('commit');
    expect((await s.verify({ runId: 'r' })).ok).toBe(true);
    await expectCode(s.delete(snaps[0].id), 'SNAPSHOT_NOT_FOUND');
  });

  it('refuses a snapshot whose file is corrupt (its iteration ref cannot be known); by hand, as told, the iteration is free again', async () => {
    const { dir, s, snaps } = await threeIterations();
    const file = snapshotFile(s, snaps[2].id);
    writeFileSync(file, '{bad');
    await expectCode(s.getSnapshot(snaps[2].id), 'STORE_CORRUPT');
    const print = fingerprint(dir);
    const error = await s.delete(snaps[2].id).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'STORE_CORRUPT', details: { id: snaps[2].id, runIds: ['r'] } });
    expect(readFileSync(file, 'utf8')).toBe('{bad');
    expect((await s.store.loadRun('r'))?.snapshotIds).toEqual(snaps.map((snap) => snap.id));
    expect(fingerprint(dir)).toBe(print);

    // What the message says: the iteration's ref removed, the file moved out, then delete drops the link.
    git(dir, ['update-ref', '-d', 'refs/agentgate/runs/r/iteration-3']);
    rmSync(file);
    expect(await s.delete(snaps[2].id)).toBe(snaps[2].id);
    expect((await s.store.loadRun('r'))?.snapshotIds).toEqual([snaps[0].id, snaps[1].id]);
    expect((await s.verify({ all: true })).ok).toBe(true);
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    writeFiles(dir, { 'c.txt': 'c\n' });
    const again = await s.captureAfterState(dir, before, { runId: 'r', iteration: 3, taskPrompt: 'again' });
    expect(git(dir, ['rev-parse', 'refs/agentgate/runs/r/iteration-3'])).toBe(again.afterSha);
  });
});

describe('cherryPick', () => {
  it('lands the whole before..after change (agent commit included) as ONE commit on another branch, workspace untouched', async () => {
    const { dir, s, snaps } = await threeIterations();
    git(dir, ['checkout', '-q', 'release']);
    writeFiles(dir, { 'r.txt': 'release\n' });
    const releaseTip = commitAll(dir, 'release work');
    git(dir, ['checkout', '-q', 'main']);
    const print = fingerprint(dir).replace(releaseTip, 'RELEASE');

    const info = await s.cherryPick(dir, snaps[1].id, { onto: 'release' });
    expect(info.parents).toEqual([releaseTip]);
    expect(git(dir, ['rev-parse', 'release'])).toBe(info.sha);
    expect(info.message.trimEnd()).toBe(snaps[1].commitMessage.trimEnd());
    expect(git(dir, ['diff', '--name-status', releaseTip, info.sha])).toBe('A\tb.txt\nM\tf.txt');
    expect(git(dir, ['show', `${info.sha}:f.txt`])).toBe('base\nagent');
    expect(fingerprint(dir).replace(info.sha, 'RELEASE')).toBe(print);
  });

  it('lands it as one commit on the current branch', async () => {
    const { dir, s, snaps } = await threeIterations();
    git(dir, ['checkout', '-q', 'release']);
    const tip = head(dir);
    const info = await s.cherryPick(dir, snaps[1].id);
    expect(info.parents).toEqual([tip]);
    expect(head(dir)).toBe(info.sha);
    expect(readFileSync(join(dir, 'b.txt'), 'utf8')).toBe('b\n');
    expect(existsSync(join(dir, 'a.txt'))).toBe(false);
    expect(git(dir, ['status', '--porcelain'])).toBe('');
  });

  it('onto the current branch, does not count our own artifacts directory inside the workspace as dirty', async () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const s = newSnapshotter({ artifactsDir: join(dir, 'agentgate-artifacts') });
    git(dir, ['branch', 'release']);
    const before = await s.captureBeforeState(dir, { runId: 'pick' });
    writeFiles(dir, { 'g.txt': 'g\n' });
    const snap = await s.captureAfterState(dir, before, { runId: 'pick', iteration: 1 });
    expect(existsSync(join(dir, 'agentgate-artifacts', 'pick', 'iteration-1', 'patch.diff'))).toBe(true);
    git(dir, ['checkout', '-q', 'release']);
    const info = await s.cherryPick(dir, snap.id);
    expect(head(dir)).toBe(info.sha);
    expect(readFileSync(join(dir, 'g.txt'), 'utf8')).toBe('g\n');
    // A real change is still refused.
    writeFiles(dir, { 'f.txt': 'edited\n' });
    await expectCode(s.cherryPick(dir, snap.id), 'DIRTY_WORKSPACE');
  });

  it('refuses a conflict with CHERRY_PICK_CONFLICT and leaves the repository exactly as it was', async () => {
    const { dir, s, snaps } = await threeIterations();
    git(dir, ['checkout', '-q', '-b', 'clash', 'release']);
    writeFiles(dir, { 'f.txt': 'clashing\n' });
    commitAll(dir, 'clash');
    git(dir, ['checkout', '-q', 'main']);
    let print = fingerprint(dir);
    await expectCode(s.cherryPick(dir, snaps[1].id, { onto: 'clash' }), 'CHERRY_PICK_CONFLICT');
    expect(fingerprint(dir)).toBe(print);

    git(dir, ['checkout', '-q', 'clash']);
    print = fingerprint(dir);
    await expectCode(s.cherryPick(dir, snaps[1].id), 'CHERRY_PICK_CONFLICT');
    expect(fingerprint(dir)).toBe(print);
  });

  it('refuses a snapshot that changed nothing with EMPTY_SNAPSHOT', async () => {
    const { dir, s, snaps } = await shared();
    const print = fingerprint(dir);
    await expectCode(s.cherryPick(dir, snaps[2].id, { onto: 'release' }), 'EMPTY_SNAPSHOT');
    expect(fingerprint(dir)).toBe(print);
  });

  it('refuses with EMPTY_SNAPSHOT an iteration whose commits undid their own change (equal trees, other SHAs)', async () => {
    const dir = repoWithCommit({ 'f.txt': 'base\n' });
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'undo' });
    writeFiles(dir, { 'x.txt': 'x\n' });
    commitAll(dir, 'add x');
    git(dir, ['rm', '-q', 'x.txt']);
    commitAll(dir, 'remove x');
    const snap = await s.captureAfterState(dir, before, { runId: 'undo', iteration: 1 });
    expect(snap.afterSha).not.toBe(snap.beforeSha);
    const print = fingerprint(dir);
    await expectCode(s.cherryPick(dir, snap.id), 'EMPTY_SNAPSHOT');
    expect(fingerprint(dir)).toBe(print);
  });

  it('commits in the workspace it is given (a linked worktree), not where the run was recorded', async () => {
    const { dir, s, snaps } = await threeIterations();
    const linked = join(tempDir('agentgate-wt-'), 'wt');
    git(dir, ['worktree', 'add', '-q', '-b', 'feature', linked, 'release']);
    const main = git(dir, ['rev-parse', 'main']);
    const feature = git(dir, ['rev-parse', 'feature']);
    const info = await s.cherryPick(linked, snaps[0].id);
    expect(info.parents).toEqual([feature]);
    expect(git(dir, ['rev-parse', 'feature'])).toBe(info.sha);
    expect(readFileSync(join(linked, 'a.txt'), 'utf8')).toBe('a\n');
    expect(git(linked, ['status', '--porcelain'])).toBe('');
    // The recorded workspace, its branch and its files are untouched.
    expect(git(dir, ['rev-parse', 'main'])).toBe(main);
    expect(git(dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/main');
    expect(git(dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  });

  it('refuses with REVISION_NOT_FOUND a workspace whose repository lacks the commits, changing nothing', async () => {
    const { s, snaps } = await shared();
    const other = repoWithCommit({ 'f.txt': 'base\n' });
    const print = fingerprint(other);
    await expectCode(s.cherryPick(other, snaps[0].id), 'REVISION_NOT_FOUND');
    expect(fingerprint(other)).toBe(print);
  });
});
