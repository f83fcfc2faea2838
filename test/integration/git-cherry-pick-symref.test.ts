/**
 * `cherry-pick --onto ALIAS` where ALIAS is a symbolic ref (`refs/heads/alias` -> `refs/heads/main`).
 * The pick ran in a temporary worktree and moved the branch ALIAS leads to even when that branch
 * was checked out here or in another worktree: its work tree and index stayed behind, so `git
 * status` showed the pick reverted, and uncommitted work sat on a HEAD that had moved under it.
 * ALIAS is now the branch at the end of its chain, as `before --branch` takes it: the checked-out
 * branch is picked onto in the workspace (clean, or DIRTY_WORKSPACE), a branch checked out
 * elsewhere is refused, and a symbolic ref to no branch (a tag) is INVALID_ARGUMENT.
 */
import { describe, expect, it } from 'vitest';
import { cherryPick } from '../../src/git/cherry-pick.js';
import { openRepo } from '../../src/git/repo.js';
import { commitAll, git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { fingerprint } from '../helpers/snapshotter.js';
import { join } from 'node:path';

/** main: base -> main edit; feature (from base) adds new.txt (`add`); release (from base) untouched. */
function pickRepo(): { dir: string; add: string } {
  const dir = repoWithCommit({ 'f.txt': 'base\n' });
  git(dir, ['branch', 'release']);
  git(dir, ['checkout', '-q', '-b', 'feature']);
  writeFiles(dir, { 'new.txt': 'new\n' });
  const add = commitAll(dir, 'add new.txt');
  git(dir, ['checkout', '-q', 'main']);
  writeFiles(dir, { 'f.txt': 'main\n' });
  commitAll(dir, 'main edit');
  return { dir, add };
}

describe('cherryPick --onto a symbolic ref', () => {
  it('to the checked-out branch: picks in the workspace, or refuses it dirty without moving the branch', async () => {
    const { dir, add } = pickRepo();
    git(dir, ['symbolic-ref', 'refs/heads/alias', 'refs/heads/main']);
    const repo = await openRepo(dir);
    writeFiles(dir, { 'f.txt': 'uncommitted\n' });
    const print = fingerprint(dir);
    await expect(cherryPick(repo, add, { onto: 'alias' })).rejects.toMatchObject({
      code: 'DIRTY_WORKSPACE',
    });
    expect(fingerprint(dir)).toBe(print);
    git(dir, ['checkout', '-q', '--', 'f.txt']);
    const before = head(dir);
    const info = await cherryPick(repo, add, { onto: 'alias' });
    expect(info.parents).toEqual([before]);
    expect(head(dir)).toBe(info.sha);
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    expect(git(dir, ['symbolic-ref', 'refs/heads/alias'])).toBe('refs/heads/main');
  });

  it('to a branch checked out in another worktree: refused, nothing moves', async () => {
    const { dir, add } = pickRepo();
    git(dir, ['worktree', 'add', '-q', join(tempDir(), 'linked'), 'release']);
    git(dir, ['symbolic-ref', 'refs/heads/alias', 'refs/heads/release']);
    const release = git(dir, ['rev-parse', 'release']);
    await expect(cherryPick(await openRepo(dir), add, { onto: 'alias' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(git(dir, ['rev-parse', 'release'])).toBe(release);
  });

  it('to a branch not checked out: that branch moves and the alias stays a symbolic ref', async () => {
    const { dir, add } = pickRepo();
    git(dir, ['symbolic-ref', 'refs/heads/alias', 'refs/heads/release']);
    const release = git(dir, ['rev-parse', 'release']);
    const info = await cherryPick(await openRepo(dir), add, { onto: 'alias' });
    expect(info.parents).toEqual([release]);
    expect(git(dir, ['rev-parse', 'release'])).toBe(info.sha);
    expect(git(dir, ['symbolic-ref', 'refs/heads/alias'])).toBe('refs/heads/release');
  });

  it('to no branch (a tag): INVALID_ARGUMENT, the tag stays', async () => {
    const { dir, add } = pickRepo();
    git(dir, ['tag', 'v1', 'release']);
    git(dir, ['symbolic-ref', 'refs/heads/alias', 'refs/tags/v1']);
    const refs = git(dir, ['for-each-ref']);
    await expect(cherryPick(await openRepo(dir), add, { onto: 'alias' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(git(dir, ['for-each-ref'])).toBe(refs);
  });
});
