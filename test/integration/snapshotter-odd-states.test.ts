/**
 * Workspace states that black-box testing found mishandled by `before` and `after`: a staged
 * version the work tree does not hold, a repository an agent initialised in a subdirectory, a
 * branch whose name is not UTF-8, our own directory holding tracked files, another run's commit at
 * HEAD, a detached HEAD whose branch name clashes, a git dir given as the workspace, a path Node
 * cannot receive, and an `after --before` that skips the run's last iteration.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, head, initRepo, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { expectCode, fingerprint, newSnapshotter } from '../helpers/snapshotter.js';

const show = (dir: string, rev: string): string => git(dir, ['show', rev]);
const subjects = (dir: string): string[] => git(dir, ['log', '--format=%s']).split('\n');

describe('a staged version that the work tree does not hold', () => {
  it('is committed under the WIP commit, which holds the work tree (also when that is HEAD)', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const start = head(dir);
    writeFiles(dir, { 'a.txt': 'staged\n' });
    git(dir, ['add', 'a.txt']);
    writeFiles(dir, { 'a.txt': 'a\n' });
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    expect(before).toMatchObject({ isDirty: true, wipSha: head(dir), sha: head(dir) });
    expect(subjects(dir)).toEqual([
      '[agentgate] WIP before run',
      '[agentgate] WIP before run: staged',
      'initial',
    ]);
    expect(show(dir, 'HEAD~1:a.txt')).toBe('staged');
    expect(show(dir, 'HEAD:a.txt')).toBe('a');
    expect(git(dir, ['rev-parse', 'HEAD~2'])).toBe(start);
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    // The run goes on from there as from any WIP commit.
    writeFiles(dir, { 'b.txt': 'b\n' });
    await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 });
    expect((await s.verify({ runId: 'r' })).ok).toBe(true);
  });

  it('keeps both versions when the staged and the work-tree content differ from HEAD', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    writeFiles(dir, { 'a.txt': 'staged\n', 'c.txt': 'new\n' });
    git(dir, ['add', 'a.txt']);
    writeFiles(dir, { 'a.txt': 'work tree\n' });
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    expect(before.isDirty).toBe(true);
    expect(show(dir, 'HEAD~1:a.txt')).toBe('staged');
    expect(git(dir, ['ls-tree', '--name-only', 'HEAD~1'])).toBe('a.txt\nb.txt');
    expect(show(dir, 'HEAD:a.txt')).toBe('work tree');
    expect(show(dir, 'HEAD:c.txt')).toBe('new');
  });

  it('on an unborn branch, becomes the root commit', async () => {
    const dir = initRepo();
    writeFiles(dir, { 'a.txt': 'staged\n' });
    git(dir, ['add', 'a.txt']);
    writeFiles(dir, { 'a.txt': 'work tree\n' });
    const before = await newSnapshotter().captureBeforeState(dir, { runId: 'r' });
    expect(before).toMatchObject({ isDirty: true, headState: 'unborn', branch: 'main' });
    expect(git(dir, ['rev-list', '--max-parents=0', 'HEAD'])).toBe(git(dir, ['rev-parse', 'HEAD~1']));
    expect(show(dir, 'HEAD~1:a.txt')).toBe('staged');
    expect(show(dir, 'main:a.txt')).toBe('work tree');
  });

  // `git rm --cached` (and a rename's old path copied back) stages a deletion of a file the work tree
  // still holds: staging the work tree tracked it again, and `before` said "clean" with no commit.
  it.each([
    [
      'a staged deletion of a file still on disk',
      (dir: string) => git(dir, ['rm', '-q', '--cached', 'b.txt']),
    ],
    [
      'a staged deletion of a directory still on disk',
      (dir: string) => git(dir, ['rm', '-rq', '--cached', 'd']),
    ],
    [
      'a staged rename whose old path is back on disk',
      (dir: string) => {
        git(dir, ['mv', 'b.txt', 'c.txt']);
        writeFiles(dir, { 'b.txt': 'b\n' });
      },
    ],
  ])('keeps %s in a commit of its own', async (_what, stage) => {
    const s = newSnapshotter();
    const dir = repoWithCommit({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'd/x.txt': 'x\n' });
    stage(dir);
    const staged = git(dir, ['write-tree']);
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    expect(before).toMatchObject({ isDirty: true, wipSha: head(dir) });
    expect(subjects(dir).slice(0, 2)).toEqual([
      '[agentgate] WIP before run',
      '[agentgate] WIP before run: staged',
    ]);
    expect(git(dir, ['rev-parse', 'HEAD~1^{tree}'])).toBe(staged);
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    writeFiles(dir, { 'a.txt': 'next\n' });
    await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 });
    expect((await s.verify({ runId: 'r' })).ok).toBe(true);
  });

  it('makes no staged commit for a staged deletion of a file gone from an untracked directory', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n', 'd/x.txt': 'x\n' });
    git(dir, ['rm', '-q', '--cached', 'd/x.txt']);
    rmSync(join(dir, 'd', 'x.txt'));
    writeFiles(dir, { 'd/new.txt': 'new\n' });
    await newSnapshotter().captureBeforeState(dir, { runId: 'r' });
    expect(subjects(dir)).toEqual(['[agentgate] WIP before run', 'initial']);
  });

  it('is refused under onDirty "error" as well, changing nothing', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    writeFiles(dir, { 'a.txt': 'staged\n' });
    git(dir, ['add', 'a.txt']);
    writeFiles(dir, { 'a.txt': 'a\n' });
    const print = fingerprint(dir);
    await expectCode(
      newSnapshotter().captureBeforeState(dir, { runId: 'r', onDirty: 'error' }),
      'DIRTY_WORKSPACE',
    );
    expect(fingerprint(dir)).toBe(print);
  });

  it('takes a single WIP commit when nothing staged would be lost', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    writeFiles(dir, { 'a.txt': 'staged\n', 'u.txt': 'untracked\n' });
    git(dir, ['add', 'a.txt']);
    await newSnapshotter().captureBeforeState(dir, { runId: 'r' });
    expect(subjects(dir)).toEqual(['[agentgate] WIP before run', 'initial']);
  });
});

describe('a repository initialised in a subdirectory (no commit checked out)', () => {
  it('is left out and listed in skipped, by iterate, after and before', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit();
    const snap = await s.iterate(dir, {
      runId: 'r',
      iteration: 1,
      agent: { argv: ['sh', '-c', 'git init -q sub && echo x > x.txt'] },
    });
    expect(snap.skipped).toEqual([{ path: 'sub', reason: 'nested-repository' }]);
    expect(snap.files.map((f) => f.path)).toEqual(['x.txt']);
    expect(git(dir, ['ls-tree', '--name-only', snap.afterSha])).toBe('README.md\nx.txt');
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    expect(before.skipped).toEqual([{ path: 'sub', reason: 'nested-repository' }]);
    expect((await s.verify({ runId: 'r' })).ok).toBe(true);
  });
});

describe('a tracked file whose change git does not compare (core.ignoreStat, assume-unchanged)', () => {
  it("is listed in the skipped of a before that commits nothing, and of iterate's before step", async () => {
    const s = newSnapshotter();
    const dir = initRepo();
    git(dir, ['config', 'core.ignoreStat', 'true']);
    writeFiles(dir, { 'a.txt': 'aaaa\n', 'b.txt': 'b\n' });
    git(dir, ['add', 'a.txt', 'b.txt']);
    git(dir, ['commit', '-q', '-m', 'init']);
    writeFiles(dir, { 'a.txt': 'zz\n' });
    const start = head(dir);
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    expect(before).toMatchObject({ isDirty: false, wipSha: null, sha: start });
    expect(before.skipped).toEqual([{ path: 'a.txt', reason: 'not-compared' }]);
    expect(head(dir)).toBe(start);

    git(dir, ['config', 'core.ignoreStat', 'false']);
    writeFiles(dir, { 'b.txt': 'hidden\n' });
    git(dir, ['update-index', '--skip-worktree', 'b.txt']);
    await s.iterate(dir, { runId: 'i', iteration: 1, agent: { argv: ['true'] } });
    expect((await s.store.loadRun('i'))?.before?.skipped).toEqual([
      { path: 'a.txt', reason: 'not-compared' },
      { path: 'b.txt', reason: 'not-compared' },
    ]);
    expect(head(dir)).toBe(start);
  });
});

describe('an unborn HEAD on a ref no record can name', () => {
  /** The refs and the HEAD file of an unborn repository whose HEAD names `ref` (raw bytes). */
  const unbornOn = (ref: Buffer): string => {
    const dir = initRepo();
    writeFileSync(join(dir, '.git', 'HEAD'), Buffer.concat([Buffer.from('ref: '), ref, Buffer.from('\n')]));
    return dir;
  };
  const cases: Array<[string, Buffer, boolean]> = [
    ['a remote-tracking ref, clean', Buffer.from('refs/remotes/origin/x'), false],
    ['a remote-tracking ref, with files', Buffer.from('refs/remotes/origin/x'), true],
    ['a branch whose name is not UTF-8', Buffer.from('refs/heads/n\xe9', 'latin1'), true],
  ];
  for (const [what, ref, withFiles] of cases)
    it(`(${what}) gets agentgate/<runId>: the first commit lands there and the record names it`, async () => {
      const s = newSnapshotter();
      const dir = unbornOn(ref);
      if (withFiles) writeFiles(dir, { 'a.txt': 'a\n' });
      const before = await s.captureBeforeState(dir, { runId: 'r' });
      expect(before).toMatchObject({ branch: 'agentgate/r', headState: 'unborn', sha: head(dir) });
      expect(git(dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/agentgate/r');
      // Nothing was written under the odd ref: the only branch is the run's (and the WIP commit's own ref).
      expect(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/', 'refs/remotes/'])).toBe(
        'refs/heads/agentgate/r',
      );
      const wip = withFiles ? `refs/agentgate/runs/r/wip-${before.sha}` : '';
      expect(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/'])).toBe(wip);
      writeFiles(dir, { 'w.txt': 'w\n' });
      const snap = await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 });
      expect(snap.branch).toBe('agentgate/r');
      expect(git(dir, ['rev-parse', 'agentgate/r'])).toBe(snap.afterSha);
      expect((await s.verify({ runId: 'r' })).ok).toBe(true);
    });
});

describe('a branch whose name is not UTF-8', () => {
  /** Puts HEAD on a new branch `br<0xff>x` at HEAD's commit, written as git keeps a loose ref. */
  const oddBranch = (dir: string): Buffer => {
    const name = Buffer.concat([Buffer.from('refs/heads/br'), Buffer.from([0xff]), Buffer.from('x')]);
    writeFileSync(Buffer.concat([Buffer.from(join(dir, '.git/')), name]), `${head(dir)}\n`);
    writeFileSync(join(dir, '.git', 'HEAD'), Buffer.concat([Buffer.from('ref: '), name, Buffer.from('\n')]));
    return name;
  };

  it('is left alone: the run gets a branch of its own, clean or dirty, and after commits there', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit();
    const start = head(dir);
    const name = oddBranch(dir);
    writeFiles(dir, { 'dirty.txt': 'd\n' });
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    expect(before).toMatchObject({ branch: 'agentgate/r', headState: 'detached', isDirty: true });
    writeFiles(dir, { 'w.txt': 'w\n' });
    const snap = await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 });
    expect(snap.branch).toBe('agentgate/r');
    expect(git(dir, ['rev-parse', 'agentgate/r'])).toBe(snap.afterSha);
    expect(readFileSync(Buffer.concat([Buffer.from(join(dir, '.git/')), name]), 'utf8').trim()).toBe(start);
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    expect((await s.verify({ runId: 'r' })).ok).toBe(true);
  });

  it('that an agent checked out gets the run a branch at after as well', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit();
    await s.captureBeforeState(dir, { runId: 'r' });
    oddBranch(dir);
    writeFiles(dir, { 'w.txt': 'w\n' });
    const snap = await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 });
    expect(snap.branch).toBe('agentgate/r');
    expect(git(dir, ['status', '--porcelain'])).toBe('');
  });
});

describe('our own directory inside the workspace holding tracked files', () => {
  it('is UNSAFE_WORKSPACE for before, after and iterate, before anything is written', async () => {
    const dir = repoWithCommit({ 'src/s.txt': 's\n' });
    const home = tempDir('agentgate-home-');
    const s = newSnapshotter({ home, artifactsDir: join(dir, 'src') });
    writeFiles(dir, { 'src/s.txt': 'changed\n' });
    const print = fingerprint(dir);
    await expectCode(s.captureBeforeState(dir, { runId: 'r' }), 'UNSAFE_WORKSPACE');
    await expectCode(
      s.captureAfterState(dir, null, { runId: 'r', iteration: 1, beforeSha: 'HEAD' }),
      'UNSAFE_WORKSPACE',
    );
    await expectCode(
      s.iterate(dir, { runId: 'r', iteration: 1, agent: { argv: ['true'] } }),
      'UNSAFE_WORKSPACE',
    );
    expect(fingerprint(dir)).toBe(print);
    // A home there is refused alike; one holding only untracked files of ours is fine.
    const inHome = newSnapshotter({ home: join(dir, 'src'), artifactsDir: join(home, 'a') });
    await expectCode(inHome.captureBeforeState(dir, { runId: 'r' }), 'UNSAFE_WORKSPACE');
    mkdirSync(join(dir, 'out'));
    const ok = newSnapshotter({ home, artifactsDir: join(dir, 'out') });
    await ok.captureBeforeState(dir, { runId: 'r' });
    expect(show(dir, 'HEAD:src/s.txt')).toBe('changed');
  });
});

describe("another run's commit at HEAD", () => {
  it('gets this iteration a commit of its own, and both runs verify', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit();
    const start = head(dir);
    await s.captureBeforeState(dir, { runId: 'ta' });
    await s.captureBeforeState(dir, { runId: 'tb' });
    writeFiles(dir, { 'w.txt': 'w\n' });
    const b = await s.captureAfterState(dir, null, { runId: 'tb', iteration: 1 });
    const a = await s.captureAfterState(dir, null, { runId: 'ta', iteration: 1 });
    expect(a.afterSha).not.toBe(b.afterSha);
    expect(git(dir, ['rev-parse', `${a.afterSha}^`])).toBe(b.afterSha);
    expect(a.commitMessage).toContain('Agentgate-Run: ta');
    expect(a).toMatchObject({ beforeSha: start, filesChanged: 1 });
    expect((await s.verify({ all: true })).ok).toBe(true);
    // A retry of ta's capture finds its own commit at HEAD: the stored snapshot, no second commit.
    expect((await s.captureAfterState(dir, null, { runId: 'ta', iteration: 1 })).id).toBe(a.id);
    expect(head(dir)).toBe(a.afterSha);
  });

  it("also when it is another run's WIP commit", async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit();
    await s.captureBeforeState(dir, { runId: 'ta' });
    writeFiles(dir, { 'agent.txt': 'work of ta\n' });
    await s.captureBeforeState(dir, { runId: 'tb' });
    const a = await s.captureAfterState(dir, null, { runId: 'ta', iteration: 1 });
    expect(a.files.map((f) => f.path)).toEqual(['agent.txt']);
    expect(a.commitMessage).toContain('Agentgate-Run: ta');
    expect((await s.verify({ runId: 'ta' })).ok).toBe(true);
  });
});

describe('a detached HEAD whose branch name clashes', () => {
  it('gets the next name that can be made beside the existing branches', async () => {
    const s = newSnapshotter();
    const nested = repoWithCommit();
    git(nested, ['branch', 'agentgate/r/x']);
    git(nested, ['checkout', '-q', '--detach']);
    expect((await s.captureBeforeState(nested, { runId: 'r' })).branch).toBe('agentgate/r-2');
    const plain = repoWithCommit();
    git(plain, ['branch', 'agentgate']);
    git(plain, ['checkout', '-q', '--detach']);
    expect((await s.captureBeforeState(plain, { runId: 'p' })).branch).toBe('agentgate-p');
    expect(git(plain, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/agentgate-p');
  });
});

describe('before --branch NAME that git cannot make', () => {
  it('is INVALID_ARGUMENT beside a branch NAME/x or NAME, changing nothing (also on an unborn HEAD)', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit();
    git(dir, ['branch', 'ok/name']);
    writeFiles(dir, { 'dirty.txt': 'd\n' });
    const print = fingerprint(dir);
    await expectCode(s.captureBeforeState(dir, { runId: 'r', branch: 'ok' }), 'INVALID_ARGUMENT');
    await expectCode(s.captureBeforeState(dir, { runId: 'r', branch: 'ok/name/x' }), 'INVALID_ARGUMENT');
    expect(fingerprint(dir)).toBe(print);
    // Unborn: the first commit makes the branch, so HEAD was switched and the file staged first.
    const unborn = initRepo();
    const tree = git(unborn, ['hash-object', '-t', 'tree', '/dev/null']);
    git(unborn, ['update-ref', 'refs/heads/ok/name', git(unborn, ['commit-tree', '-m', 'x', tree])]);
    writeFiles(unborn, { 'new.txt': 'n\n' });
    const printUnborn = fingerprint(unborn);
    await expectCode(s.captureBeforeState(unborn, { runId: 'u', branch: 'ok' }), 'INVALID_ARGUMENT');
    expect(fingerprint(unborn)).toBe(printUnborn);
    expect(await s.store.loadRun('u')).toBeNull();
  });

  it('is INVALID_ARGUMENT for a new name holding U+FFFD (not UTF-8 on the command line) or too long a part', async () => {
    const dir = repoWithCommit();
    const print = fingerprint(dir);
    await expectCode(
      newSnapshotter().captureBeforeState(dir, { runId: 'r', branch: 'x\uFFFD' }),
      'INVALID_ARGUMENT',
    );
    // A part longer than a file name: git cannot lock the ref's file.
    await expectCode(
      newSnapshotter().captureBeforeState(dir, { runId: 'r', branch: `a/${'b'.repeat(300)}` }),
      'INVALID_ARGUMENT',
    );
    expect(fingerprint(dir)).toBe(print);
  });
});

describe('a workspace that is no work tree', () => {
  it('is UNSAFE_WORKSPACE for a bare repository and inside a git dir, with init too, creating nothing', async () => {
    const s = newSnapshotter();
    const bare = tempDir('agentgate-bare-');
    git(bare, ['init', '-q', '--bare']);
    const dir = repoWithCommit();
    for (const ws of [bare, join(dir, '.git'), join(dir, '.git', 'refs')]) {
      const print = git(ws, ['for-each-ref']);
      await expectCode(s.captureBeforeState(ws, { runId: 'r' }), 'UNSAFE_WORKSPACE');
      await expectCode(s.captureBeforeState(ws, { runId: 'r', init: true }), 'UNSAFE_WORKSPACE');
      expect(git(ws, ['for-each-ref'])).toBe(print);
    }
    expect(git(bare, ['rev-parse', '--is-bare-repository'])).toBe('true');
  });

  it('is UNSAFE_WORKSPACE, not WORKSPACE_NOT_FOUND, when its path holds a name that is not UTF-8', async () => {
    const parent = tempDir('agentgate-ws-');
    mkdirSync(Buffer.concat([Buffer.from(`${parent}/ws`), Buffer.from([0xff])]));
    // What Node makes of such a name on its command line or as its working directory.
    await expectCode(
      newSnapshotter().captureBeforeState(`${parent}/ws\ufffd`, { runId: 'r' }),
      'UNSAFE_WORKSPACE',
    );
    await expectCode(
      newSnapshotter().captureBeforeState(`${parent}/gone`, { runId: 'r' }),
      'WORKSPACE_NOT_FOUND',
    );
  });
});

describe('after --before', () => {
  it("is RUN_DIVERGED when the start skips the run's last iteration, as before is", async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit();
    const start = head(dir);
    await s.captureBeforeState(dir, { runId: 'r' });
    writeFiles(dir, { 'one.txt': '1\n' });
    const first = await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 });
    writeFiles(dir, { 'two.txt': '2\n' });
    const print = fingerprint(dir);
    await expectCode(
      s.captureAfterState(dir, null, { runId: 'r', iteration: 2, beforeSha: start }),
      'RUN_DIVERGED',
    );
    expect(fingerprint(dir)).toBe(print);
    // A retry of iteration 1 with its own start still gets the stored snapshot back.
    git(dir, ['stash', '-u', '-q']);
    const again = await s.captureAfterState(dir, null, { runId: 'r', iteration: 1, beforeSha: start });
    expect(again.id).toBe(first.id);
    git(dir, ['stash', 'pop', '-q']);
    await s.captureAfterState(dir, null, { runId: 'r', iteration: 2, beforeSha: first.afterSha });
    expect((await s.verify({ runId: 'r' })).ok).toBe(true);
  });
});

describe('an attributes file, or our list of nested repositories, that is a FIFO', () => {
  it('is UNSAFE_WORKSPACE for before, after and iterate instead of waiting for a writer for ever', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const fifo = join(tempDir('agentgate-fifo-'), 'attributes');
    execFileSync('mkfifo', [fifo]);
    // Planted by the agent: its after step is refused, nothing committed.
    const planted = `git config core.attributesFile ${fifo} && echo b > b.txt`;
    await expectCode(
      s.iterate(dir, { runId: 'r', iteration: 1, agent: { argv: ['sh', '-c', planted] } }),
      'UNSAFE_WORKSPACE',
    );
    await expectCode(s.captureAfterState(dir, null, { runId: 'r', iteration: 1 }), 'UNSAFE_WORKSPACE');
    expect(subjects(dir)).toHaveLength(1);
    // /dev/null, which users name to turn attributes off, is read as nothing.
    git(dir, ['config', 'core.attributesFile', '/dev/null']);
    expect((await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 })).files).toHaveLength(1);
    // Our own list of nested repositories to leave out, in the git dir (the agent's too).
    const ours = join(dir, '.git', 'info', 'agentgate-exclude');
    for (const at of [join(dir, '.gitattributes'), join(dir, '.git', 'info', 'attributes'), ours]) {
      execFileSync('mkfifo', [at]);
      await expectCode(s.captureBeforeState(dir, { runId: 'r' }), 'UNSAFE_WORKSPACE');
      rmSync(at);
    }
  });
});
