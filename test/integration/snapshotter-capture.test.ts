/**
 * Thrust 15 through the library: before state (every HEAD shape and refusal), after state (the
 * commit, its message, agent commits, rewritten history), the patch artifact and per-file stats,
 * each checked against the oracle git in a repository of its own.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BeforeState, Snapshot } from '../../types/snapshot.js';
import {
  commitAll,
  divergedRepo,
  git,
  head,
  initRepo,
  repoWithCommit,
  tempDir,
  writeFiles,
} from '../helpers/repo.js';
import { oracleChanges, treeAfterApply, treeOf } from '../helpers/diff-oracle.js';
import { expectCode, fingerprint, messageOf, newSnapshotter } from '../helpers/snapshotter.js';

const sha256 = (path: string): string => createHash('sha256').update(readFileSync(path)).digest('hex');
const parents = (dir: string, sha: string): string[] =>
  git(dir, ['rev-list', '--parents', '-n', '1', sha]).split(' ').slice(1);
const subject = (dir: string, sha: string): string => git(dir, ['log', '-1', '--format=%s', sha]);

describe('captureBeforeState', () => {
  it('returns the SHA and branch of a clean repository and records them in the run', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'run-1' });
    expect(BeforeState.parse(before)).toEqual(before);
    expect(before).toMatchObject({
      sha: head(dir),
      branch: 'main',
      isDirty: false,
      wipSha: null,
      runId: 'run-1',
      headState: 'branch',
    });
    expect((await s.store.loadRun('run-1'))?.before).toEqual(before);
  });

  it('saves a dirty workspace as the WIP commit "[agentgate] WIP before run", untracked files included', async () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n' });
    const start = head(dir);
    writeFiles(dir, { 'a.txt': 'two\n', 'new/untracked.txt': 'u\n' });
    const before = await newSnapshotter().captureBeforeState(dir, { runId: 'r' });
    expect(before.isDirty).toBe(true);
    expect(before.wipSha).toBe(head(dir));
    expect(before.sha).toBe(before.wipSha);
    expect(subject(dir, before.sha)).toBe('[agentgate] WIP before run');
    expect(parents(dir, before.sha)).toEqual([start]);
    expect(git(dir, ['show', `${before.sha}:new/untracked.txt`])).toBe('u');
    expect(git(dir, ['status', '--porcelain'])).toBe('');
  });

  it('with onDirty "error" refuses a dirty workspace with DIRTY_WORKSPACE and changes nothing', async () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n', 'b.txt': 'b\n' });
    writeFiles(dir, { 'a.txt': 'staged\n' });
    git(dir, ['add', 'a.txt']);
    writeFiles(dir, { 'b.txt': 'unstaged\n', 'c.txt': 'untracked\n' });
    const print = fingerprint(dir);
    const s = newSnapshotter();
    await expectCode(s.captureBeforeState(dir, { runId: 'r', onDirty: 'error' }), 'DIRTY_WORKSPACE');
    expect(fingerprint(dir)).toBe(print);
    expect(await s.store.loadRun('r')).toBeNull();
    // A misspelt value is refused, never taken for "wip-commit".
    await expectCode(
      s.captureBeforeState(dir, { runId: 'r', onDirty: 'eror' as unknown as 'error' }),
      'INVALID_ARGUMENT',
    );
    // ... by iterate too, before its agent runs.
    await expectCode(
      s.iterate(dir, {
        runId: 'r',
        iteration: 1,
        onDirty: 'eror' as unknown as 'error',
        agent: { argv: ['sh', '-c', 'echo ran > ran.txt'] },
      }),
      'INVALID_ARGUMENT',
    );
    expect(fingerprint(dir)).toBe(print);
  });

  it('initialises a directory that is not a repository only when asked (init), with a root commit of its files', async () => {
    const dir = tempDir('agentgate-plain-');
    writeFiles(dir, { 'src/x.txt': 'x\n' });
    await expectCode(newSnapshotter().captureBeforeState(dir, { runId: 'r' }), 'NOT_A_REPOSITORY');
    expect(readdirSync(dir)).toEqual(['src']);
    const before = await newSnapshotter().captureBeforeState(dir, { runId: 'r', init: true });
    expect(git(dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/main');
    expect(before).toMatchObject({ sha: head(dir), branch: 'main' });
    expect(parents(dir, before.sha)).toEqual([]);
    expect(git(dir, ['ls-tree', '-r', '--name-only', before.sha])).toBe('src/x.txt');
    expect(git(dir, ['status', '--porcelain'])).toBe('');
  });

  it('with onDirty "error" refuses to initialise a directory holding files, creating nothing; an empty one is initialised', async () => {
    const s = newSnapshotter({ onDirty: 'error' });
    const withFiles = tempDir('agentgate-plain-');
    writeFiles(withFiles, { 'notes.txt': 'n\n' });
    await expectCode(s.captureBeforeState(withFiles, { runId: 'r', init: true }), 'DIRTY_WORKSPACE');
    expect(readdirSync(withFiles)).toEqual(['notes.txt']);

    const empty = tempDir('agentgate-plain-');
    const before = await s.captureBeforeState(empty, { runId: 'r', init: true });
    expect(before).toMatchObject({ sha: head(empty), branch: 'main', wipSha: null });
  });

  it('with init, leaves nested repositories out of the first commit and every later one, and lists them', async () => {
    const dir = tempDir('agentgate-plain-');
    writeFiles(dir, { 'app.txt': 'app\n', 'vendor/lib/lib.txt': 'lib\n' });
    git(join(dir, 'vendor', 'lib'), ['init', '-q']);
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'r', init: true });
    expect(before.nestedRepositories).toEqual(['vendor/lib']);
    expect(git(dir, ['ls-tree', '-r', '--name-only', before.sha])).toBe('app.txt');
    writeFiles(dir, { 'app.txt': 'app 2\n', 'vendor/lib/lib.txt': 'lib 2\n' });
    const snap = await s.captureAfterState(dir, before, { runId: 'r', iteration: 1 });
    expect(snap.files.map((f) => f.path)).toEqual(['app.txt']);
  });

  it('gives an unborn branch a root commit, with and without files, keeping the branch name', async () => {
    const empty = initRepo();
    git(empty, ['symbolic-ref', 'HEAD', 'refs/heads/trunk']);
    const b1 = await newSnapshotter().captureBeforeState(empty, { runId: 'r' });
    expect(b1).toMatchObject({ sha: head(empty), branch: 'trunk', headState: 'unborn', wipSha: null });
    expect(parents(empty, b1.sha)).toEqual([]);
    expect(git(empty, ['ls-tree', '-r', b1.sha])).toBe('');

    const withFiles = initRepo();
    writeFiles(withFiles, { 'a.txt': 'a\n' });
    const b2 = await newSnapshotter().captureBeforeState(withFiles, { runId: 'r' });
    expect(b2).toMatchObject({ sha: head(withFiles), branch: 'main', headState: 'unborn' });
    expect(git(withFiles, ['ls-tree', '-r', '--name-only', b2.sha])).toBe('a.txt');
    expect(git(withFiles, ['cat-file', '-t', b2.sha])).toBe('commit');
  });

  it('gives a detached HEAD the branch agentgate/<runId> without touching files or index', async () => {
    const dir = repoWithCommit();
    const start = head(dir);
    git(dir, ['checkout', '-q', '--detach']);
    const index = git(dir, ['ls-files', '-s']);
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'det-1' });
    expect(before).toMatchObject({ sha: start, branch: 'agentgate/det-1', headState: 'detached' });
    expect(git(dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/agentgate/det-1');
    expect(git(dir, ['rev-parse', 'agentgate/det-1'])).toBe(start);
    expect(git(dir, ['ls-files', '-s'])).toBe(index);

    writeFiles(dir, { 'x.txt': 'x\n' });
    const snap = await s.captureAfterState(dir, before, { runId: 'det-1', iteration: 1 });
    expect(snap.branch).toBe('agentgate/det-1');
    expect(git(dir, ['rev-parse', 'agentgate/det-1'])).toBe(snap.afterSha);

    // Detached again in the same run: the name is taken, so the next free one is used.
    git(dir, ['checkout', '-q', '--detach']);
    const again = await s.captureBeforeState(dir, { runId: 'det-1' });
    expect(again).toMatchObject({ sha: snap.afterSha, branch: 'agentgate/det-1-2', headState: 'detached' });
    expect(git(dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/agentgate/det-1-2');
  });

  it('with a run branch, commits the WIP work and every iteration there; the checked-out branch never moves', async () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n' });
    const start = head(dir);
    writeFiles(dir, { 'a.txt': 'uncommitted\n' });
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'rb', branch: 'agentgate/rb' });
    expect(before).toMatchObject({ branch: 'agentgate/rb', isDirty: true, headState: 'branch' });
    expect(git(dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/agentgate/rb');
    expect(parents(dir, before.sha)).toEqual([start]);
    writeFiles(dir, { 'b.txt': 'b\n' });
    const first = await s.captureAfterState(dir, before, { runId: 'rb', iteration: 0 });
    // The next iteration: the branch is already checked out, so nothing is switched.
    const next = await s.captureBeforeState(dir, { runId: 'rb', branch: 'agentgate/rb' });
    expect(next).toMatchObject({ sha: first.afterSha, branch: 'agentgate/rb', isDirty: false });
    writeFiles(dir, { 'c.txt': 'c\n' });
    const second = await s.captureAfterState(dir, next, { runId: 'rb', iteration: 1 });
    expect([first.branch, second.branch]).toEqual(['agentgate/rb', 'agentgate/rb']);
    expect(git(dir, ['rev-parse', 'agentgate/rb'])).toBe(second.afterSha);
    expect(git(dir, ['rev-parse', 'main'])).toBe(start);
    expect((await s.verify({ runId: 'rb' })).checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('takes a run branch that is at HEAD, names a detached HEAD with it, and gives it to a first commit', async () => {
    const dir = repoWithCommit();
    git(dir, ['branch', 'agentgate/same']);
    const s = newSnapshotter();
    expect(await s.captureBeforeState(dir, { runId: 'same', branch: 'agentgate/same' })).toMatchObject({
      sha: head(dir),
      branch: 'agentgate/same',
    });
    git(dir, ['checkout', '-q', '--detach']);
    expect(await s.captureBeforeState(dir, { runId: 'det', branch: 'runs/det' })).toMatchObject({
      branch: 'runs/det',
      headState: 'detached',
    });
    expect(git(dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/runs/det');
    const fresh = tempDir('agentgate-init-');
    writeFiles(fresh, { 'f.txt': 'f\n' });
    const init = await s.captureBeforeState(fresh, { runId: 'fresh', init: true, branch: 'agentgate/fresh' });
    expect(init.branch).toBe('agentgate/fresh');
    expect(git(fresh, ['for-each-ref', '--format=%(refname)', 'refs/heads/'])).toBe(
      'refs/heads/agentgate/fresh',
    );
  });

  it('refuses a run branch at another commit (BRANCH_EXISTS) or with a bad name (INVALID_ARGUMENT) and changes nothing', async () => {
    const dir = repoWithCommit();
    git(dir, ['branch', 'agentgate/old']);
    writeFiles(dir, { 'a.txt': 'moved on\n' });
    commitAll(dir, 'later');
    writeFiles(dir, { 'dirty.txt': 'd\n' });
    const print = fingerprint(dir);
    const s = newSnapshotter();
    await expectCode(s.captureBeforeState(dir, { runId: 'old', branch: 'agentgate/old' }), 'BRANCH_EXISTS');
    await expectCode(s.captureBeforeState(dir, { runId: 'old', branch: 'bad..name' }), 'INVALID_ARGUMENT');
    expect(fingerprint(dir)).toBe(print);
    expect(git(dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/main');
    expect(await s.store.loadRun('old')).toBeNull();
  });

  it('names the branch the after commit is on, also when the agent detached HEAD during the iteration', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'wander' });
    git(dir, ['checkout', '-q', '--detach']);
    writeFiles(dir, { 'x.txt': 'x\n' });
    const snap = await s.captureAfterState(dir, before, { runId: 'wander', iteration: 1 });
    expect(snap.branch).toBe('agentgate/wander');
    expect(git(dir, ['rev-parse', snap.branch])).toBe(snap.afterSha);
    expect(git(dir, ['rev-parse', 'main'])).toBe(before.sha);
  });

  it('refuses unmerged paths with UNMERGED_PATHS and changes nothing', async () => {
    const dir = conflictedRepo();
    const print = fingerprint(dir);
    const s = newSnapshotter();
    await expectCode(s.captureBeforeState(dir, { runId: 'r' }), 'UNMERGED_PATHS');
    await expectCode(
      s.captureAfterState(dir, null, { runId: 'r', iteration: 1, beforeSha: 'HEAD' }),
      'UNMERGED_PATHS',
    );
    expect(fingerprint(dir)).toBe(print);
  });

  it('refuses a stopped merge or cherry-pick with OPERATION_IN_PROGRESS and changes nothing', async () => {
    const merging = divergedRepo({ 'a.txt': 'a\n' }, { 'b.txt': 'b\n' }, { 'c.txt': 'c\n' }).dir;
    git(merging, ['merge', '--no-commit', '--no-ff', '-q', 'side'], { stdio: 'pipe' });

    const picking = conflictedRepo('cherry-pick');
    writeFiles(picking, { 'f.txt': 'resolved\n' });
    git(picking, ['add', 'f.txt']);

    const s = newSnapshotter();
    for (const dir of [merging, picking]) {
      const print = fingerprint(dir);
      await expectCode(s.captureBeforeState(dir, { runId: 'r' }), 'OPERATION_IN_PROGRESS');
      await expectCode(
        s.captureAfterState(dir, null, { runId: 'r', iteration: 1, beforeSha: 'HEAD~1' }),
        'OPERATION_IN_PROGRESS',
      );
      expect(fingerprint(dir)).toBe(print);
    }
  });

  it('refuses a run id that is not safe as a file name with INVALID_ID', async () => {
    const dir = repoWithCommit();
    await expectCode(newSnapshotter().captureBeforeState(dir, { runId: '../escape' }), 'INVALID_ID');
  });
});

describe('captureAfterState', () => {
  it('commits the change with the contract message, moves the branch and keeps a ref to it', async () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n' });
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'run-7' });
    writeFiles(dir, { 'a.txt': 'one\ntwo\n', 'b.txt': 'new\n' });
    const snap = await s.captureAfterState(dir, before, {
      runId: 'run-7',
      iteration: 3,
      taskPrompt: 'Fix the parser',
      gatePlanSource: '.agentgate/gates.yaml',
    });

    expect(Snapshot.parse(snap)).toEqual(snap);
    expect(snap.id).not.toBe(snap.afterSha);
    expect(snap).toMatchObject({
      runId: 'run-7',
      iteration: 3,
      beforeSha: before.sha,
      afterSha: head(dir),
      branch: 'main',
      filesChanged: 2,
      insertions: 2,
      deletions: 0,
    });
    expect(parents(dir, snap.afterSha)).toEqual([before.sha]);
    expect(git(dir, ['rev-parse', 'refs/heads/main'])).toBe(snap.afterSha);
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    const expected = [
      '[agentgate] Run run-7 iteration 3',
      '',
      'Task: Fix the parser',
      'Gate: .agentgate/gates.yaml',
      '',
      'Agentgate-Run: run-7',
      'Agentgate-Iteration: 3',
      `Agentgate-Before: ${before.sha}`,
      '',
    ].join('\n');
    expect(messageOf(dir, snap.afterSha)).toBe(expected);
    expect(snap.commitMessage).toBe(expected);
    expect(
      git(dir, [
        'log',
        '-1',
        '--format=%(trailers:key=Agentgate-Run,valueonly)%(trailers:key=Agentgate-Iteration,valueonly)',
        snap.afterSha,
      ]),
    ).toBe('run-7\n3');
    expect(git(dir, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/agentgate/'])).toBe(
      `refs/agentgate/runs/run-7/iteration-3 ${snap.afterSha}`,
    );
    expect(await s.getSnapshot(snap.id)).toEqual(snap);
    expect((await s.store.loadRun('run-7'))?.snapshotIds).toEqual([snap.id]);
  });

  it('writes a patch artifact that git apply --index accepts on before and reproduces the after tree; stats agree with git', async () => {
    const dir = initRepo();
    writeFiles(dir, {
      'keep.txt': 'a\nb\nc\n',
      'gone.txt': 'bye\n',
      'old name.txt': 'line 1\nline 2\nline 3\nline 4\nline 5\nline 6\n',
      'bin.dat': Buffer.from([0, 1, 2, 3, 255, 0]),
      'run.sh': 'echo hi\n',
    });
    commitAll(dir, 'initial');
    const artifacts = tempDir('agentgate-artifacts-');
    const s = newSnapshotter({ artifactsDir: artifacts });
    const before = await s.captureBeforeState(dir, { runId: 'p' });
    writeFiles(dir, {
      'keep.txt': 'a\nB\nc\nd\n',
      'bin.dat': Buffer.from([9, 0, 8, 0, 7]),
      'empty.txt': '',
      'ünï "quoted" name.txt': 'q\n',
    });
    rmSync(join(dir, 'gone.txt'));
    mkdirSync(join(dir, 'moved'));
    renameSync(join(dir, 'old name.txt'), join(dir, 'moved', 'new name.txt'));
    chmodSync(join(dir, 'run.sh'), 0o755);
    symlinkSync('keep.txt', join(dir, 'link'));
    const snap = await s.captureAfterState(dir, before, { runId: 'p', iteration: 2 });

    const path = join(artifacts, 'p', 'iteration-2', 'patch.diff');
    expect(snap.patchPath).toBe(path);
    expect(snap.patchSha256).toBe(sha256(path));
    const text = readFileSync(path, 'utf8');
    expect(text).toMatch(/^diff --git a\//);
    expect(text).not.toContain('Binary files differ');
    expect(treeAfterApply(dir, before.sha, path)).toBe(treeOf(dir, snap.afterSha));

    const oracle = oracleChanges(dir, before.sha, snap.afterSha);
    const byPath = (a: { path: string }, b: { path: string }) => a.path.localeCompare(b.path);
    expect([...snap.files].sort(byPath)).toEqual([...oracle].sort(byPath));
    expect(snap.files.find((f) => f.path === 'moved/new name.txt')).toMatchObject({
      status: 'renamed',
      oldPath: 'old name.txt',
    });
    expect(snap.files.find((f) => f.path === 'bin.dat')).toMatchObject({ status: 'modified', binary: true });
    expect(snap.files.find((f) => f.path === 'gone.txt')).toMatchObject({ status: 'deleted', deletions: 1 });
    expect(snap.files.find((f) => f.path === 'empty.txt')).toMatchObject({ status: 'added', insertions: 0 });
    expect(snap.filesChanged).toBe(oracle.length);
    expect(snap.insertions).toBe(oracle.reduce((n, f) => n + f.insertions, 0));
    expect(snap.deletions).toBe(oracle.reduce((n, f) => n + f.deletions, 0));
    expect(await s.generatePatch(snap)).toBe(text);
  });

  it('with no change: afterSha equals beforeSha, zero stats, no patch, and each iteration is stored under its own id', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter();
    const snaps = [];
    for (const iteration of [1, 2]) {
      const before = await s.captureBeforeState(dir, { runId: 'idle' });
      snaps.push(await s.captureAfterState(dir, before, { runId: 'idle', iteration, taskPrompt: 'nothing' }));
    }
    const [one, two] = snaps as [Snapshot, Snapshot];
    for (const snap of snaps) {
      expect(snap).toMatchObject({
        beforeSha: head(dir),
        afterSha: head(dir),
        filesChanged: 0,
        insertions: 0,
        deletions: 0,
        files: [],
        patchPath: null,
        commitMessage: '',
      });
      expect(snap.id).not.toBe(snap.afterSha);
      expect(await s.getSnapshot(snap.id)).toEqual(snap);
    }
    expect(one.id).not.toBe(two.id);
    expect(git(dir, ['rev-list', '--count', 'HEAD'])).toBe('1');
    expect((await s.listByRun('idle')).map((x) => x.id)).toEqual([one.id, two.id]);
    expect(await s.generatePatch(one)).toBe('');
    expect(existsSync(join(s.options.artifactsDir, 'idle'))).toBe(false);
  });

  it('includes commits the agent made itself: clean tree -> afterSha is the agent HEAD and the stats cover its commits', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'agent' });
    writeFiles(dir, { 'b.txt': 'b\n' });
    commitAll(dir, 'agent commit 1');
    writeFiles(dir, { 'a.txt': 'a\nmore\n' });
    const agentHead = commitAll(dir, 'agent commit 2');
    const snap = await s.captureAfterState(dir, before, { runId: 'agent', iteration: 1 });
    expect(snap.afterSha).toBe(agentHead);
    expect(head(dir)).toBe(agentHead);
    expect(snap).toMatchObject({ beforeSha: before.sha, filesChanged: 2, insertions: 2, deletions: 0 });
    expect(snap.patchPath).not.toBeNull();
    expect(treeAfterApply(dir, before.sha, snap.patchPath as string)).toBe(treeOf(dir, agentHead));
    expect(git(dir, ['rev-parse', 'refs/agentgate/runs/agent/iteration-1'])).toBe(agentHead);
  });

  it('agent commits plus uncommitted edits: one more commit on top, stats from the before SHA', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'mix' });
    writeFiles(dir, { 'b.txt': 'b\n' });
    const agentHead = commitAll(dir, 'agent commit');
    writeFiles(dir, { 'c.txt': 'c\n' });
    const snap = await s.captureAfterState(dir, before, { runId: 'mix', iteration: 1, taskPrompt: 't' });
    expect(parents(dir, snap.afterSha)).toEqual([agentHead]);
    expect(snap.files.map((f) => f.path).sort()).toEqual(['b.txt', 'c.txt']);
    expect(messageOf(dir, snap.afterSha)).toContain(`Agentgate-Before: ${before.sha}\n`);
    expect(treeAfterApply(dir, before.sha, snap.patchPath as string)).toBe(treeOf(dir, snap.afterSha));
  });

  it('refuses a rewritten history (reset to an older commit, or amend) with HISTORY_REWRITTEN and changes nothing', async () => {
    const s = newSnapshotter();
    const reset = repoWithCommit({ 'a.txt': 'a\n' });
    writeFiles(reset, { 'a.txt': 'b\n' });
    commitAll(reset, 'second');
    const b1 = await s.captureBeforeState(reset, { runId: 'rw1' });
    git(reset, ['reset', '-q', '--hard', 'HEAD~1']);
    writeFiles(reset, { 'z.txt': 'z\n' });
    commitAll(reset, 'replacement');
    writeFiles(reset, { 'dirty.txt': 'left uncommitted\n' });

    const amend = repoWithCommit({ 'a.txt': 'a\n' });
    const b2 = await s.captureBeforeState(amend, { runId: 'rw2' });
    writeFiles(amend, { 'a.txt': 'amended\n' });
    git(amend, ['commit', '-q', '-a', '--amend', '-m', 'amended']);

    for (const [dir, before] of [
      [reset, b1],
      [amend, b2],
    ] as const) {
      const print = fingerprint(dir);
      await expectCode(
        s.captureAfterState(dir, before, { runId: before.runId, iteration: 1 }),
        'HISTORY_REWRITTEN',
      );
      expect(fingerprint(dir)).toBe(print);
      expect((await s.store.loadRun(before.runId))?.snapshotIds).toEqual([]);
    }
  });

  it('after an agent amended the last iteration, HEAD put back where the iteration began lets the run go on', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const b1 = await s.captureBeforeState(dir, { runId: 'am' });
    writeFiles(dir, { 'a.txt': 'one\n' });
    await s.captureAfterState(dir, b1, { runId: 'am', iteration: 1 });
    const b2 = await s.captureBeforeState(dir, { runId: 'am' });
    writeFiles(dir, { 'a.txt': 'two\n' });
    git(dir, ['commit', '-q', '-a', '--amend', '-m', 'amended']);
    const error = await s.captureAfterState(dir, b2, { runId: 'am', iteration: 2 }).catch((e: unknown) => e);
    const details = (error as { code: string; details: { beforeSha: string } }).details;
    expect((error as { code: string }).code).toBe('HISTORY_REWRITTEN');
    // What the message advises: HEAD back where the iteration began, then "before" again.
    git(dir, ['reset', '-q', '--hard', details.beforeSha]);
    const again = await s.captureBeforeState(dir, { runId: 'am' });
    writeFiles(dir, { 'a.txt': 'two\n' });
    expect((await s.captureAfterState(dir, again, { runId: 'am', iteration: 2 })).files).toHaveLength(1);
  });

  it('never snapshots an artifacts directory or home inside the workspace, even with onDirty "error"', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const home = join(dir, '.agentgate-home');
    const s = newSnapshotter({ home, artifactsDir: join(dir, 'artifacts') });
    for (const iteration of [1, 2]) {
      const before = await s.captureBeforeState(dir, { runId: 'in', onDirty: 'error' });
      expect(before.isDirty).toBe(false);
      writeFiles(dir, { 'a.txt': `a\n${iteration}\n` });
      const snap = await s.captureAfterState(dir, before, { runId: 'in', iteration });
      expect(snap.patchPath?.startsWith(join(dir, 'artifacts'))).toBe(true);
      expect(git(dir, ['ls-tree', '-r', '--name-only', snap.afterSha])).toBe('a.txt');
    }
    expect(existsSync(join(dir, 'artifacts', 'in', 'iteration-2', 'patch.diff'))).toBe(true);
    expect(existsSync(join(home, 'runs', 'in.json'))).toBe(true);
  });

  it('takes the start from beforeSha (--before) without a recorded before state', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const base = head(dir);
    writeFiles(dir, { 'b.txt': 'b\n' });
    commitAll(dir, 'earlier work');
    writeFiles(dir, { 'c.txt': 'c\n' });
    const s = newSnapshotter();
    const snap = await s.captureAfterState(dir, null, {
      runId: 'ovr',
      iteration: 1,
      beforeSha: base.slice(0, 12),
    });
    expect(snap.beforeSha).toBe(base);
    expect(snap.files.map((f) => f.path).sort()).toEqual(['b.txt', 'c.txt']);
    expect((await s.store.loadRun('ovr'))?.snapshotIds).toEqual([snap.id]);
  });

  it('refuses an iteration that is not a whole number from 0 up with INVALID_ARGUMENT before committing anything', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'it' });
    writeFiles(dir, { 'x.txt': 'x\n' });
    const print = fingerprint(dir);
    for (const iteration of [-1, 1.5, Number.NaN])
      await expectCode(s.captureAfterState(dir, before, { runId: 'it', iteration }), 'INVALID_ARGUMENT');
    expect(fingerprint(dir)).toBe(print);
    expect(existsSync(join(s.options.artifactsDir, 'it'))).toBe(false);
  });

  it('refuses to capture an iteration twice with ITERATION_EXISTS, so the first snapshot keeps its artifact and ref', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter();
    let before = await s.captureBeforeState(dir, { runId: 'twice' });
    writeFiles(dir, { 'x.txt': 'x\n' });
    const first = await s.captureAfterState(dir, before, { runId: 'twice', iteration: 1 });
    before = await s.captureBeforeState(dir, { runId: 'twice' });
    writeFiles(dir, { 'x.txt': 'y\n' });
    const print = fingerprint(dir);
    await expectCode(s.captureAfterState(dir, before, { runId: 'twice', iteration: 1 }), 'ITERATION_EXISTS');
    expect(fingerprint(dir)).toBe(print);
    expect((await s.verify({ runId: 'twice' })).ok).toBe(true);
    await s.delete(first.id);
    expect((await s.captureAfterState(dir, before, { runId: 'twice', iteration: 1 })).filesChanged).toBe(1);
  });

  it('without a before state or beforeSha fails with RUN_NOT_FOUND and changes nothing', async () => {
    const dir = repoWithCommit();
    writeFiles(dir, { 'x.txt': 'x\n' });
    const print = fingerprint(dir);
    await expectCode(
      newSnapshotter().captureAfterState(dir, null, { runId: 'never', iteration: 1 }),
      'RUN_NOT_FOUND',
    );
    expect(fingerprint(dir)).toBe(print);
  });

  it('keeps Task: to one line of at most 100 characters (1 MB prompt, control characters, astral characters)', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter();
    const prompts = [
      'x'.repeat(1024 * 1024),
      'first line\nsecond\r\nthird\ttab\u0000nul\u001b[31mred\u007f' + 'y'.repeat(200),
      `${'a'.repeat(99)}\u{1F600}tail`,
    ];
    for (const [i, taskPrompt] of prompts.entries()) {
      const before = await s.captureBeforeState(dir, { runId: 'long' });
      writeFiles(dir, { 'f.txt': `${i}\n` });
      const snap = await s.captureAfterState(dir, before, {
        runId: 'long',
        iteration: i + 1,
        taskPrompt,
        gatePlanSource: 'gate\nsecond line',
      });
      const lines = messageOf(dir, snap.afterSha).split('\n');
      expect(lines.slice(0, 2)).toEqual([`[agentgate] Run long iteration ${i + 1}`, '']);
      const task = lines[2] as string;
      expect(task.startsWith('Task: ')).toBe(true);
      expect(Array.from(task.slice('Task: '.length)).length).toBeLessThanOrEqual(100);
      // eslint-disable-next-line no-control-regex -- control characters are what must not be there
      expect(task).not.toMatch(/[\u0000-\u001f\u007f\ufffd]/);
      expect(lines[3]).toBe('Gate: gate second line');
      expect(lines[5]).toBe('Agentgate-Run: long');
    }
    expect(messageOf(dir, head(dir)).split('\n')[2]).toBe(`Task: ${'a'.repeat(99)}\u{1F600}`);
  });
});

/** A repository stopped on a conflict in f.txt, by a merge (default) or a cherry-pick. */
function conflictedRepo(how: 'merge' | 'cherry-pick' = 'merge'): string {
  const { dir } = divergedRepo({ 'f.txt': 'base\n' }, { 'f.txt': 'side\n' }, { 'f.txt': 'main\n' });
  const args = how === 'merge' ? ['merge', '-q', 'side'] : ['cherry-pick', 'side'];
  expect(() => git(dir, args, { stdio: 'pipe' })).toThrow();
  return dir;
}
