/** Every error code the git layer can throw, each triggered for real. */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cherryPick } from '../../src/git/cherry-pick.js';
import { initRepo as initRepoUnderTest, openRepo } from '../../src/git/repo.js';
import { isAncestor, resolveRevision, updateRef } from '../../src/git/refs.js';
import { switchToBranch } from '../../src/git/branches.js';
import { runGit } from '../../src/git/runner.js';
import { getRepoState } from '../../src/git/state.js';
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

const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

/** Two commit objects whose ids share their first 4 hex digits: found by hashing in-process, then written. */
function ambiguousCommits(dir: string): [string, string] {
  const seen = new Map<string, string>();
  for (let i = 0; ; i++) {
    const body = `tree ${EMPTY_TREE}\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\n\nm${i}\n`;
    const prefix = createHash('sha1')
      .update(`commit ${Buffer.byteLength(body)}\0${body}`)
      .digest('hex')
      .slice(0, 4);
    const other = seen.get(prefix);
    if (other !== undefined)
      return [other, body].map((b) =>
        git(dir, ['hash-object', '-t', 'commit', '-w', '--stdin'], { input: b }),
      ) as [string, string];
    seen.set(prefix, body);
  }
}

/** main and feature both rewrite f.txt. */
function conflictingRepo(): { dir: string; feature: string } {
  const { dir, branchTip } = divergedRepo(
    { 'f.txt': 'base\n' },
    { 'f.txt': 'feature\n' },
    { 'f.txt': 'main\n' },
    'feature',
  );
  return { dir, feature: branchTip };
}

describe('error codes of the git layer', () => {
  const home = process.env.HOME;
  afterEach(() => {
    process.env.HOME = home;
  });

  it('GIT_FAILED: a git command that fails', async () => {
    const repo = await openRepo(repoWithCommit());
    await expect(isAncestor(repo, 'no-such-rev', 'HEAD')).rejects.toMatchObject({
      code: 'GIT_FAILED',
      details: { exitCode: 128 },
    });
  });

  it('GIT_NOT_FOUND: no git binary', async () => {
    const repo = await openRepo(repoWithCommit());
    await expect(getRepoState({ ...repo, binary: join(tempDir(), 'no-git-here') })).rejects.toMatchObject({
      code: 'GIT_NOT_FOUND',
    });
  });

  it('GIT_TIMEOUT: a git that never finishes is stopped; stdin never leaves git waiting', async () => {
    const repo = await openRepo(repoWithCommit());
    await expect(runGit({ ...repo, timeoutMs: 200, binary: hangingGit() }, ['status'])).rejects.toMatchObject(
      { code: 'GIT_TIMEOUT' },
    );
    // Without input, stdin is /dev/null; empty input is input too: either way git answers.
    expect((await runGit({ ...repo, timeoutMs: 10_000 }, ['hash-object', '--stdin'])).stdout.trim()).toBe(
      'e69de29bb2d1d6434b8b29ae775ad8c2e48c5391',
    );
    expect(
      (await runGit({ ...repo, timeoutMs: 10_000 }, ['hash-object', '--stdin'], { input: '' })).stdout.trim(),
    ).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
  });

  it("a caller's budget running out stops git and every process git started (repack's pack-objects)", async () => {
    const repo = await openRepo(repoWithCommit());
    const dir = tempDir();
    const marker = join(dir, 'outlived');
    // A git that starts a child of its own which would write after the budget, as repack's pack-objects does.
    const git = join(dir, 'git');
    writeFileSync(git, `#!/bin/sh\n(sleep 1; touch '${marker}') &\nexec sleep 30\n`, { mode: 0o755 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(
      runGit({ ...repo, binary: git, signal: controller.signal }, ['repack']),
    ).rejects.toMatchObject({
      code: 'GIT_TIMEOUT',
    });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(existsSync(marker)).toBe(false);
  });

  it('WORKSPACE_NOT_FOUND: a missing directory, and a file', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'file'), 'x');
    await expect(openRepo(join(dir, 'missing'))).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    await expect(openRepo(join(dir, 'file'))).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
  });

  it('NOT_A_REPOSITORY: a plain directory', async () => {
    await expect(openRepo(tempDir())).rejects.toMatchObject({ code: 'NOT_A_REPOSITORY' });
  });

  it('UNSAFE_WORKSPACE: the home directory, and a repository whose core.worktree points outside', async () => {
    const fakeHome = tempDir('agentgate-fake-home-');
    process.env.HOME = fakeHome;
    await expect(initRepoUnderTest(fakeHome, 'main')).rejects.toMatchObject({ code: 'UNSAFE_WORKSPACE' });
    initRepo(fakeHome);
    await expect(openRepo(fakeHome)).rejects.toMatchObject({ code: 'UNSAFE_WORKSPACE' });
    const dir = repoWithCommit();
    const elsewhere = tempDir();
    git(dir, ['config', 'core.worktree', elsewhere]);
    await expect(openRepo(dir)).rejects.toMatchObject({ code: 'UNSAFE_WORKSPACE' });
  });

  it('CONCURRENT_UPDATE: a ref that moved under us', async () => {
    const dir = repoWithCommit();
    const first = head(dir);
    writeFiles(dir, { 'b.txt': 'b' });
    const second = commitAll(dir, 'second');
    await expect(updateRef(await openRepo(dir), 'refs/heads/main', first, first)).rejects.toMatchObject({
      code: 'CONCURRENT_UPDATE',
      details: { actual: second },
    });
  });

  it('REVISION_NOT_FOUND and AMBIGUOUS_ID', async () => {
    const dir = repoWithCommit();
    const repo = await openRepo(dir);
    await expect(resolveRevision(repo, 'nope')).rejects.toMatchObject({ code: 'REVISION_NOT_FOUND' });
    const [a, b] = ambiguousCommits(dir);
    expect(a.slice(0, 4)).toBe(b.slice(0, 4));
    await expect(resolveRevision(repo, a.slice(0, 4))).rejects.toMatchObject({
      code: 'AMBIGUOUS_ID',
      details: { candidates: expect.arrayContaining([a, b]) },
    });
    expect(await resolveRevision(repo, a.slice(0, 12))).toBe(a);
  });

  it('CHERRY_PICK_CONFLICT, DIRTY_WORKSPACE, OPERATION_IN_PROGRESS', async () => {
    const { dir, feature } = conflictingRepo();
    const repo = await openRepo(dir);
    await expect(cherryPick(repo, feature)).rejects.toMatchObject({
      code: 'CHERRY_PICK_CONFLICT',
      details: { files: ['f.txt'] },
    });
    mkdirSync(join(dir, 'new'));
    writeFileSync(join(dir, 'new', 'x.txt'), 'x');
    await expect(cherryPick(repo, feature)).rejects.toMatchObject({ code: 'DIRTY_WORKSPACE' });
    git(dir, ['clean', '-q', '-f', '-d']);
    git(dir, ['bisect', 'start']);
    await expect(cherryPick(repo, feature)).rejects.toMatchObject({ code: 'OPERATION_IN_PROGRESS' });
  });

  it('INVALID_ARGUMENT: a revision that looks like an option, a bad branch name', async () => {
    const dir = repoWithCommit();
    const repo = await openRepo(dir);
    await expect(resolveRevision(repo, '--output=/tmp/x')).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    git(dir, ['checkout', '-q', '--detach']);
    await expect(switchToBranch(repo, 'no spaces', head(dir))).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });
});

/** A stand-in git that hangs, to prove the timeout stops it. */
function hangingGit(): string {
  const path = join(tempDir(), 'git');
  writeFileSync(path, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
  return path;
}
