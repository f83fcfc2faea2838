import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cherryPick } from '../../src/git/cherry-pick.js';
import { getCommitInfo } from '../../src/git/commit-info.js';
import { openRepo } from '../../src/git/repo.js';
import { commitAll, git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { deadPid } from '../helpers/node-child.js';
import { fingerprint } from '../helpers/snapshotter.js';
import { processStartTime } from '../../src/fs/lock.js';

/**
 * What a pick killed in its temporary worktree leaves: the checkout in the temp dir, its
 * registration in the repository and, with `owner`, the lock file naming the killed process.
 */
function abandonedPick(dir: string, name: string, owner: { pid: number; startTime?: string } | null): string {
  const temp = join(tmpdir(), name);
  mkdirSync(temp);
  git(dir, ['worktree', 'add', '-q', '--detach', join(temp, name), 'main']);
  if (owner !== null) {
    const lock = {
      ...owner,
      hostname: hostname(),
      createdAt: new Date().toISOString(),
      token: 'f'.repeat(24),
    };
    writeFileSync(`${temp}.lock`, JSON.stringify({ ...lock, purpose: 'cherry-pick worktree' }));
  }
  return temp;
}

/** The worktrees git has registered for the repository (the main one included). */
function worktrees(dir: string): string[] {
  return [...git(dir, ['worktree', 'list', '--porcelain']).matchAll(/^worktree (.*)$/gm)].map(
    (m) => m[1] as string,
  );
}

/**
 * main: base -> main edit of f.txt. feature (from base): `add` adds new.txt, then `clash` rewrites f.txt.
 * release (from base): untouched. Picking `add` applies cleanly anywhere; `clash` conflicts on main.
 */
function pickRepo(): { dir: string; add: string; clash: string } {
  const dir = repoWithCommit({ 'f.txt': 'base\n' });
  git(dir, ['branch', 'release']);
  git(dir, ['checkout', '-q', '-b', 'feature']);
  writeFiles(dir, { 'new.txt': 'new\n' });
  const add = commitAll(dir, 'add new.txt\n\nbody line');
  writeFiles(dir, { 'f.txt': 'feature\n' });
  const clash = commitAll(dir, 'clash');
  git(dir, ['checkout', '-q', 'main']);
  writeFiles(dir, { 'f.txt': 'main\n' });
  commitAll(dir, 'main edit');
  return { dir, add, clash };
}

describe('cherryPick', () => {
  it('applies a commit onto the checked-out branch: branch, index and files move', async () => {
    const { dir, add } = pickRepo();
    const before = head(dir);
    const repo = await openRepo(dir);
    const info = await cherryPick(repo, add.slice(0, 10));
    expect(info).toEqual(await getCommitInfo(repo, 'HEAD'));
    expect(info.parents).toEqual([before]);
    expect(info.message).toBe('add new.txt\n\nbody line');
    expect(info.author).toBe((await getCommitInfo(repo, add)).author);
    expect(readFileSync(join(dir, 'new.txt'), 'utf8')).toBe('new\n');
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    // The same change again is already there: still exactly one new (empty) commit, never a stop.
    const again = await cherryPick(repo, add);
    expect(again.parents).toEqual([info.sha]);
    expect(git(dir, ['rev-parse', `${again.sha}^{tree}`])).toBe(
      git(dir, ['rev-parse', `${info.sha}^{tree}`]),
    );
  });

  it('applies onto another branch without touching the dirty workspace, and leaves no worktree behind', async () => {
    const { dir, add } = pickRepo();
    const release = git(dir, ['rev-parse', 'release']);
    writeFiles(dir, { 'f.txt': 'uncommitted\n', 'scratch.txt': 'untracked\n' });
    git(dir, ['add', 'f.txt']);
    writeFiles(dir, { 'f.txt': 'unstaged on top\n' });
    const mainBefore = head(dir);
    const print = fingerprint(dir);
    const info = await cherryPick(await openRepo(dir), add, { onto: 'release' });
    expect(git(dir, ['rev-parse', 'release'])).toBe(info.sha);
    expect(info.parents).toEqual([release]);
    expect(git(dir, ['ls-tree', '-r', '--name-only', 'release'])).toBe('f.txt\nnew.txt');
    expect(git(dir, ['show', 'release:f.txt'])).toBe('base');
    expect(head(dir)).toBe(mainBefore);
    expect(fingerprint(dir).replace(release, info.sha)).toBe(print.replace(release, info.sha));
  });

  it('works from a linked worktree too, and cleans up in the common git dir', async () => {
    const { dir, add } = pickRepo();
    const linked = join(tempDir(), 'linked');
    git(dir, ['worktree', 'add', '-q', '--detach', linked, 'main']);
    const info = await cherryPick(await openRepo(linked), add, { onto: 'release' });
    expect(git(dir, ['rev-parse', 'release'])).toBe(info.sha);
    expect(readdirSync(join(dir, '.git', 'worktrees'))).toEqual(['linked']);
    expect(git(dir, ['worktree', 'list', '--porcelain']).match(/^worktree /gm)).toHaveLength(2);
  });

  it('applies a merge commit as its change against the first parent', async () => {
    const { dir, add } = pickRepo();
    git(dir, ['checkout', '-q', '-b', 'merged', 'release']);
    writeFiles(dir, { 'r.txt': 'r\n' });
    commitAll(dir, 'release work');
    git(dir, ['merge', '-q', '--no-ff', '-m', 'merge add', add]);
    const merge = head(dir);
    git(dir, ['checkout', '-q', 'main']);
    const info = await cherryPick(await openRepo(dir), merge);
    expect(info.parents).toHaveLength(1);
    expect(git(dir, ['diff', '--name-only', 'HEAD~1', 'HEAD'])).toBe('new.txt');
  });

  it('on a conflict onto the checked-out branch, aborts and leaves the repository byte-identical', async () => {
    const { dir, clash } = pickRepo();
    expect(existsSync(join(dir, '.git', 'ORIG_HEAD'))).toBe(false); // and it must not appear
    const print = fingerprint(dir);
    await expect(cherryPick(await openRepo(dir), clash)).rejects.toMatchObject({
      code: 'CHERRY_PICK_CONFLICT',
      details: { files: ['f.txt'], onto: 'main' },
    });
    expect(fingerprint(dir)).toBe(print);
  });

  it('on a conflict onto another branch, leaves the repository and the dirty workspace byte-identical', async () => {
    const { dir, clash } = pickRepo();
    git(dir, ['checkout', '-q', 'release']);
    writeFiles(dir, { 'f.txt': 'dirty\n', 'u.txt': 'u\n' });
    const print = fingerprint(dir);
    await expect(cherryPick(await openRepo(dir), clash, { onto: 'main' })).rejects.toMatchObject({
      code: 'CHERRY_PICK_CONFLICT',
      details: { files: ['f.txt'], onto: 'main' },
    });
    expect(fingerprint(dir)).toBe(print);
  });

  it('refuses a dirty workspace, an operation in progress, a missing branch, and a branch checked out elsewhere', async () => {
    const { dir, add } = pickRepo();
    const repo = await openRepo(dir);
    writeFiles(dir, { 'untracked.txt': 'u\n' });
    await expect(cherryPick(repo, add)).rejects.toMatchObject({ code: 'DIRTY_WORKSPACE' });
    await expect(cherryPick(repo, add, { onto: 'main' })).rejects.toMatchObject({ code: 'DIRTY_WORKSPACE' });
    git(dir, ['clean', '-q', '-f']);
    git(dir, ['bisect', 'start']);
    await expect(cherryPick(repo, add)).rejects.toMatchObject({ code: 'OPERATION_IN_PROGRESS' });
    git(dir, ['bisect', 'reset'], { stdio: 'pipe' });
    await expect(cherryPick(repo, add, { onto: 'no-such-branch' })).rejects.toMatchObject({
      code: 'REVISION_NOT_FOUND',
    });
    const linked = join(tempDir(), 'linked');
    git(dir, ['worktree', 'add', '-q', linked, 'release']);
    await expect(cherryPick(repo, add, { onto: 'release' })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('refuses a revision expression as --onto (INVALID_ARGUMENT) before any worktree or object is made', async () => {
    const { dir, add } = pickRepo();
    const repo = await openRepo(dir);
    const refs = git(dir, ['for-each-ref']);
    const objects = git(dir, ['count-objects', '-v']);
    for (const onto of [
      'release~1',
      'release@{1}',
      'release^0',
      'main~0',
      'HEAD',
      '-x',
      'a..b',
      'refs/heads/x~1',
    ]) {
      await expect(cherryPick(repo, add, { onto }), onto).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    }
    expect(git(dir, ['for-each-ref'])).toBe(refs);
    expect(git(dir, ['count-objects', '-v'])).toBe(objects);
    expect(git(dir, ['worktree', 'list', '--porcelain']).match(/^worktree /gm)).toHaveLength(1);
  });

  it("sweeps the temporary worktrees a killed pick left (the checkout, its registration, its lock), never a live one's", async () => {
    const { dir, add } = pickRepo();
    const dead = abandonedPick(dir, 'agentgate-pick-Dead01', { pid: await deadPid() });
    const unowned = abandonedPick(dir, 'agentgate-pick-NoOwnr', null);
    const live = abandonedPick(dir, 'agentgate-pick-Alive1', {
      pid: process.ppid,
      ...(processStartTime(process.ppid) === null
        ? {}
        : { startTime: processStartTime(process.ppid) as string }),
    });
    // A user's own worktree named like ours, but not in our layout, is not ours.
    const users = join(tempDir(), 'agentgate-pick-User01');
    git(dir, ['worktree', 'add', '-q', '--detach', users, 'main']);
    expect(worktrees(dir)).toHaveLength(5);
    const info = await cherryPick(await openRepo(dir), add, { onto: 'release' });
    expect(git(dir, ['rev-parse', 'release'])).toBe(info.sha);
    for (const temp of [dead, unowned]) {
      expect(existsSync(temp), temp).toBe(false);
      expect(existsSync(`${temp}.lock`), temp).toBe(false);
    }
    expect(worktrees(dir).sort()).toEqual([dir, join(live, 'agentgate-pick-Alive1'), users].sort());
    expect(readdirSync(join(dir, '.git', 'worktrees')).sort()).toEqual([
      'agentgate-pick-Alive1',
      'agentgate-pick-User01',
    ]);
    // The test's own clean-up: the live one is left to its (pretend) owner.
    git(dir, ['worktree', 'remove', '--force', join(live, 'agentgate-pick-Alive1')]);
    git(dir, ['worktree', 'remove', '--force', users]);
    rmSync(live, { recursive: true, force: true });
    rmSync(`${live}.lock`, { force: true });
  });

  it('sweeps a killed pick whose checkout is already gone (a temp cleaner ran), and one killed before it registered', async () => {
    const { dir, add } = pickRepo();
    const temp = abandonedPick(dir, 'agentgate-pick-Gone01', { pid: await deadPid() });
    rmSync(temp, { recursive: true, force: true });
    // Killed before its worktree was registered: a directory and its lock, nothing in the repository.
    const unregistered = join(tmpdir(), 'agentgate-pick-Early1');
    mkdirSync(unregistered);
    const owner = { pid: await deadPid(), hostname: hostname(), createdAt: '', token: 'e'.repeat(24) };
    writeFileSync(`${unregistered}.lock`, JSON.stringify(owner));
    await cherryPick(await openRepo(dir), add);
    expect(existsSync(unregistered)).toBe(false);
    expect(existsSync(`${unregistered}.lock`)).toBe(false);
    expect(worktrees(dir)).toEqual([dir]);
    expect(existsSync(join(dir, '.git', 'worktrees', 'agentgate-pick-Gone01'))).toBe(false);
    expect(existsSync(`${temp}.lock`)).toBe(false);
  });

  it('sweeps a pick killed inside `worktree add`: a registration without its gitdir file, whose lock names a dead owner', async () => {
    const { dir, add } = pickRepo();
    const name = 'agentgate-pick-Half01';
    const temp = join(tmpdir(), name);
    mkdirSync(join(temp, name), { recursive: true });
    const owner = { pid: await deadPid(), hostname: hostname(), createdAt: '', token: 'd'.repeat(24) };
    writeFileSync(`${temp}.lock`, JSON.stringify(owner));
    // What git has written when it is killed early: the admin dir and its "initializing" lock.
    const admin = join(dir, '.git', 'worktrees', name);
    mkdirSync(admin, { recursive: true });
    writeFileSync(join(admin, 'locked'), 'initializing');
    // The same without a lock of ours: a live pick of a process whose temp directory is elsewhere.
    const other = join(dir, '.git', 'worktrees', 'agentgate-pick-Other1');
    mkdirSync(other);
    await cherryPick(await openRepo(dir), add, { onto: 'release' });
    expect(existsSync(admin)).toBe(false);
    expect(existsSync(temp)).toBe(false);
    expect(existsSync(`${temp}.lock`)).toBe(false);
    expect(existsSync(other)).toBe(true);
  });
});
