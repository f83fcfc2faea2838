import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/repo.js';
import { gitCallCount } from '../../src/git/runner.js';
import { getRepoHead, getRepoState, type RepoOperation } from '../../src/git/state.js';
import { commitAll, divergedRepo, git, head, initRepo, repoWithCommit, writeFiles } from '../helpers/repo.js';

/** Runs oracle git where a non-zero exit (a stopped merge, say) is the expected outcome. */
function gitMayFail(dir: string, args: string[]): void {
  try {
    git(dir, args, { stdio: 'pipe' });
  } catch {
    // stopped on a conflict, as intended
  }
}

/** main and feature both change f.txt: any merge-like operation between them stops on a conflict. */
function conflictingRepo(): string {
  return divergedRepo({ 'f.txt': 'base\n' }, { 'f.txt': 'feature\n' }, { 'f.txt': 'main\n' }, 'feature').dir;
}

describe('getRepoState', () => {
  it('reports a clean branch, with one git process', async () => {
    const dir = repoWithCommit();
    const repo = await openRepo(dir);
    const calls = gitCallCount();
    const state = await getRepoState(repo);
    expect(gitCallCount() - calls).toBe(1);
    expect(state).toEqual({
      topLevel: realpathSync(dir),
      headState: 'branch',
      branch: 'main',
      sha: head(dir),
      isDirty: false,
      partlyStaged: false,
      unmergedPaths: [],
      operation: null,
    });
  });

  it('reports an unborn branch, clean and then with an untracked file', async () => {
    const dir = initRepo();
    const repo = await openRepo(dir);
    expect(await getRepoState(repo)).toMatchObject({
      headState: 'unborn',
      branch: 'main',
      sha: null,
      isDirty: false,
    });
    writeFiles(dir, { 'new.txt': 'x\n' });
    expect(await getRepoState(repo)).toMatchObject({ headState: 'unborn', isDirty: true });
  });

  it('reports a detached HEAD', async () => {
    const dir = repoWithCommit();
    git(dir, ['checkout', '-q', '--detach']);
    expect(await getRepoState(await openRepo(dir))).toMatchObject({
      headState: 'detached',
      branch: null,
      sha: head(dir),
    });
  });

  it('counts tracked and untracked changes as dirty but not ignored files, whatever the repo config says', async () => {
    const dir = repoWithCommit({ '.gitignore': 'build/\n', 'a.txt': 'a\n' });
    git(dir, ['config', 'status.showUntrackedFiles', 'no']);
    const repo = await openRepo(dir);
    writeFiles(dir, { 'build/out.o': 'x' });
    expect((await getRepoState(repo)).isDirty).toBe(false);
    writeFiles(dir, { 'sub/untracked.txt': 'x' });
    expect((await getRepoState(repo)).isDirty).toBe(true);
    git(dir, ['clean', '-q', '-f', '-d']);
    writeFiles(dir, { 'a.txt': 'changed\n' });
    git(dir, ['add', 'a.txt']);
    expect((await getRepoState(repo)).isDirty).toBe(true);
  });

  it("tells a path whose staged content is neither HEAD's nor the work tree's (partlyStaged)", async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const repo = await openRepo(dir);
    writeFiles(dir, { 'a.txt': 'staged\n', 'b.txt': 'unstaged\n' });
    git(dir, ['add', 'a.txt']);
    expect(await getRepoState(repo)).toMatchObject({ isDirty: true, partlyStaged: false });
    writeFiles(dir, { 'a.txt': 'a\n' });
    expect(await getRepoState(repo)).toMatchObject({ isDirty: true, partlyStaged: true });
    writeFiles(dir, { 'a.txt': 'work tree\n' });
    expect((await getRepoState(repo)).partlyStaged).toBe(true);
  });

  const operations: [RepoOperation, (dir: string) => void][] = [
    ['merge', (dir) => gitMayFail(dir, ['merge', '--no-edit', 'feature'])],
    ['rebase', (dir) => gitMayFail(dir, ['rebase', 'feature'])],
    ['cherry-pick', (dir) => gitMayFail(dir, ['cherry-pick', 'feature'])],
    [
      'revert',
      (dir) => {
        // Reverting main's change conflicts once a later commit rewrote the same line.
        writeFiles(dir, { 'f.txt': 'later\n' });
        commitAll(dir, 'later');
        gitMayFail(dir, ['revert', '--no-edit', 'HEAD~1']);
      },
    ],
  ];

  it.each(operations)('detects a %s stopped on a conflict, with its unmerged path', async (op, stop) => {
    const dir = conflictingRepo();
    stop(dir);
    const state = await getRepoState(await openRepo(dir));
    expect(state.operation).toBe(op);
    expect(state.unmergedPaths).toEqual(['f.txt']);
    expect(state.isDirty).toBe(true);
  });

  it('detects git am stopped on a patch that does not apply', async () => {
    const dir = conflictingRepo();
    const patch = git(dir, ['format-patch', '-1', '--stdout', 'feature']);
    try {
      git(dir, ['am'], { input: `${patch}\n`, stdio: 'pipe' });
    } catch {
      // stopped, as intended
    }
    expect((await getRepoState(await openRepo(dir))).operation).toBe('am');
  });

  it('detects a bisect in progress', async () => {
    const dir = conflictingRepo();
    git(dir, ['bisect', 'start']);
    expect((await getRepoState(await openRepo(dir))).operation).toBe('bisect');
  });

  it('reads the state of a linked worktree from its own git dir', async () => {
    const dir = conflictingRepo();
    const linked = join(dir, '..', `${dir.split('/').pop() ?? 'x'}-linked`);
    git(dir, ['worktree', 'add', '-q', '--detach', linked, 'main']);
    gitMayFail(linked, ['cherry-pick', 'feature']);
    expect(await getRepoState(await openRepo(linked))).toMatchObject({
      headState: 'detached',
      operation: 'cherry-pick',
      unmergedPaths: ['f.txt'],
    });
    expect(await getRepoState(await openRepo(dir))).toMatchObject({ operation: null, isDirty: false });
  });
});

describe('getRepoHead (no work-tree scan)', () => {
  it('takes a branch whose name is not UTF-8 for no branch to commit on, as getRepoState does', async () => {
    const dir = repoWithCommit();
    // The oracle's arguments are strings: the branch is written as git keeps a loose ref.
    const name = Buffer.concat([Buffer.from('refs/heads/br'), Buffer.from([0xff]), Buffer.from('x')]);
    writeFileSync(Buffer.concat([Buffer.from(join(dir, '.git/')), name]), `${head(dir)}\n`);
    writeFileSync(join(dir, '.git', 'HEAD'), Buffer.concat([Buffer.from('ref: '), name, Buffer.from('\n')]));
    const repo = await openRepo(dir);
    const [full, light] = await Promise.all([getRepoState(repo), getRepoHead(repo)]);
    expect(full).toMatchObject({ headState: 'detached', branch: null, sha: head(dir) });
    expect(light).toMatchObject({ headState: 'detached', branch: null, ref: null, sha: head(dir) });
  });

  it('agrees with getRepoState on head, branch, conflicts and operation, in every head state', async () => {
    const unborn = initRepo();
    const detached = repoWithCommit();
    git(detached, ['checkout', '-q', '--detach', 'HEAD']);
    const conflicted = conflictingRepo();
    gitMayFail(conflicted, ['merge', '-q', '--no-edit', 'feature']);
    for (const dir of [unborn, detached, conflicted, repoWithCommit()]) {
      const repo = await openRepo(dir);
      const [full, light] = await Promise.all([getRepoState(repo), getRepoHead(repo)]);
      expect({
        headState: light.headState,
        branch: light.branch,
        sha: light.sha,
        unmergedPaths: light.unmergedPaths,
        operation: light.operation,
      }).toEqual({
        headState: full.headState,
        branch: full.branch,
        sha: full.sha,
        unmergedPaths: full.unmergedPaths,
        operation: full.operation,
      });
    }
  });

  it('reads conflicts from the index file as ls-files -u lists them, with git for a split index', async () => {
    const names = { 'f.txt': 'base\n', 'é dir/g h.txt': 'base\n', 'z.txt': 'base\n' };
    const ours = Object.fromEntries(Object.keys(names).map((n) => [n, 'main\n']));
    const theirs = Object.fromEntries(Object.keys(names).map((n) => [n, 'feature\n']));
    const { dir } = divergedRepo(names, theirs, ours, 'feature');
    gitMayFail(dir, ['merge', '-q', '--no-edit', 'feature']);
    const listed = git(dir, ['-c', 'core.quotePath=false', 'ls-files', '-u', '-z'], { encoding: 'utf8' });
    const oracle = [
      ...new Set(
        listed
          .split('\0')
          .filter(Boolean)
          .map((r) => r.slice(r.indexOf('\t') + 1)),
      ),
    ];
    expect(oracle).toHaveLength(3);
    const repo = await openRepo(dir);
    const bytes = readFileSync(join(dir, '.git', 'index'));
    const calls = gitCallCount();
    const fromFile = await getRepoHead(repo, Promise.resolve(bytes));
    // symbolic-ref and rev-parse for HEAD; the conflicts cost no process.
    expect(gitCallCount() - calls).toBe(2);
    expect(fromFile.unmergedPaths).toEqual(oracle);
    git(dir, ['update-index', '--split-index']);
    expect((await getRepoHead(await openRepo(dir))).unmergedPaths).toEqual(oracle);
  });
});
