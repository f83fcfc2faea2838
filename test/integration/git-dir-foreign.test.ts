/**
 * A workspace whose `.git` writes into another repository: symbolic links where git writes for us
 * (refs, index, a reflog), and a `.git` file naming another checkout's separate git dir. Each is
 * UNSAFE_WORKSPACE before anything is written, the other repository untouched; legitimate shapes
 * (own separate git dir, linked worktree, submodule, a symlinked hooks dir) keep working.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn, iterateShell, okIn } from '../helpers/cli.js';
import type { Snapshot } from '../../types/snapshot.js';
import { commitAll, git, oracleEnv, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** `before` on the workspace: its exit status and error code. */
function before(ws: string): { status: number | null; code: unknown } {
  const res = cliIn(ws, join(tempDir('agentgate-home-'), 'home'), ['before', '--run', 'r1']);
  const code =
    res.status === 0 ? null : (JSON.parse(res.stdout) as { error?: { code?: string } }).error?.code;
  return { status: res.status, code };
}

/** Everything a repository's branches, index and work tree say, to compare before and after. */
function stateOf(repo: string): string {
  return [
    git(repo, ['for-each-ref']),
    git(repo, ['ls-files', '-s']),
    git(repo, ['status', '--porcelain=v1']),
    git(repo, ['fsck', '--no-progress']),
  ].join('\n');
}

describe('symbolic links where git writes for us', () => {
  it('.git/refs linked to another checkout’s refs: UNSAFE_WORKSPACE, its branch not moved', () => {
    const victim = repoWithCommit({ 'v.txt': 'victim\n' });
    const ws = repoWithCommit({ 'f.txt': 'mine\n' });
    git(ws, ['pack-refs', '--all']);
    rmSync(join(ws, '.git', 'refs'), { recursive: true });
    symlinkSync(join(victim, '.git', 'refs'), join(ws, '.git', 'refs'));
    writeFileSync(join(ws, '.git', 'objects', 'info', 'alternates'), `${join(victim, '.git', 'objects')}\n`);
    writeFiles(ws, { 'f.txt': 'dirty\n' });
    const was = stateOf(victim);
    expect(before(ws)).toEqual({ status: 1, code: 'UNSAFE_WORKSPACE' });
    expect(stateOf(victim)).toBe(was);
  });

  it('.git/index linked to another checkout’s index: UNSAFE_WORKSPACE, its staged work kept', () => {
    const victim = repoWithCommit({ 'v.txt': 'victim\n' });
    writeFiles(victim, { 'staged.txt': 'staged\n' });
    git(victim, ['add', 'staged.txt']);
    const ws = repoWithCommit({ 'f.txt': 'mine\n' });
    rmSync(join(ws, '.git', 'index'));
    symlinkSync(join(victim, '.git', 'index'), join(ws, '.git', 'index'));
    writeFiles(ws, { 'f.txt': 'dirty\n', 'g.txt': 'new\n' });
    const was = stateOf(victim);
    expect(before(ws)).toEqual({ status: 1, code: 'UNSAFE_WORKSPACE' });
    expect(stateOf(victim)).toBe(was);
  });

  it('an index that is a FIFO, put there by the agent or before the run: UNSAFE_WORKSPACE, not a wait for the git timeout', () => {
    const ws = repoWithCommit({ 'f.txt': 'mine\n' });
    const home = join(tempDir('agentgate-home-'), 'home');
    mkdirSync(home, { recursive: true });
    // Without the check, git waits for a writer until this timeout: GIT_TIMEOUT.
    writeFileSync(join(home, 'config.yaml'), 'gitTimeoutMs: 5000\n');
    const codeOf = (res: { stdout: string }) =>
      (JSON.parse(res.stdout) as { error?: { code?: string } }).error?.code;
    const fifo = `rm .git/index && mkfifo .git/index && echo x > f.txt`;
    expect(
      codeOf(cliIn(ws, home, ['iterate', '--run', 'r', '--iteration', '1', '--', 'sh', '-c', fifo])),
    ).toBe('UNSAFE_WORKSPACE');
    expect(codeOf(cliIn(ws, home, ['before', '--run', 'r2']))).toBe('UNSAFE_WORKSPACE');
  });

  it('a reflog linked to a file outside: UNSAFE_WORKSPACE, the file unchanged', () => {
    const outside = join(tempDir('agentgate-outside-'), 'outside.txt');
    writeFileSync(outside, 'precious\n');
    const ws = repoWithCommit({ 'f.txt': 'mine\n' });
    rmSync(join(ws, '.git', 'logs', 'refs', 'heads', 'main'));
    symlinkSync(outside, join(ws, '.git', 'logs', 'refs', 'heads', 'main'));
    writeFiles(ws, { 'f.txt': 'dirty\n' });
    expect(before(ws)).toEqual({ status: 1, code: 'UNSAFE_WORKSPACE' });
    expect(readFileSync(outside, 'utf8')).toBe('precious\n');
  });

  it('a symlinked hooks directory or config file is only read: before works', () => {
    const ws = repoWithCommit({ 'f.txt': 'mine\n' });
    const shared = tempDir('agentgate-shared-');
    execFileSync('mv', [join(ws, '.git', 'hooks'), join(shared, 'hooks')]);
    execFileSync('mv', [join(ws, '.git', 'config'), join(shared, 'config')]);
    symlinkSync(join(shared, 'hooks'), join(ws, '.git', 'hooks'));
    symlinkSync(join(shared, 'config'), join(ws, '.git', 'config'));
    writeFiles(ws, { 'f.txt': 'dirty\n' });
    expect(before(ws)).toEqual({ status: 0, code: null });
  });
});

describe('a .git file naming a separate git dir', () => {
  function separate(root: string, name: string, files: Record<string, string>): string {
    const ws = join(root, name);
    execFileSync(
      'git',
      ['init', '-q', '-b', 'main', `--separate-git-dir=${join(root, `${name}-gitdir`)}`, ws],
      {
        env: oracleEnv(),
      },
    );
    writeFiles(ws, files);
    commitAll(ws, name);
    return ws;
  }

  it('another checkout’s: UNSAFE_WORKSPACE, its branch, index and files untouched', () => {
    const root = tempDir('agentgate-sepvictim-');
    const victim = separate(root, 'victim', { 'v.txt': 'victim\n' });
    const ws = join(root, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, '.git'), `gitdir: ${join(root, 'victim-gitdir')}\n`);
    writeFiles(ws, { 'm.txt': 'mine\n' });
    const was = stateOf(victim);
    expect(before(ws)).toEqual({ status: 1, code: 'UNSAFE_WORKSPACE' });
    expect(stateOf(victim)).toBe(was);
  });

  it('this work tree’s own works; restored from a copy (new inodes), once git status refreshed its index', () => {
    const root = tempDir('agentgate-sepown-');
    const ws = separate(root, 'ws', { 'a.txt': 'one\n', 'b.txt': 'bee\n' });
    writeFiles(ws, { 'a.txt': 'two\n' });
    expect(before(ws)).toEqual({ status: 0, code: null });
    // Restored from a backup: every file a new inode, the same content; git status refreshes the index.
    const copy = join(root, 'copy');
    execFileSync('cp', ['-a', ws, copy]);
    rmSync(ws, { recursive: true });
    execFileSync('mv', [copy, ws]);
    expect(before(ws).code).toBe('UNSAFE_WORKSPACE');
    git(ws, ['status', '--porcelain']);
    expect(before(ws)).toEqual({ status: 0, code: null });
  });

  it('one inside the work tree (an agent moved .git to .realgit): never committed, by iterate, after or before', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = join(tempDir('agentgate-home-'), 'home');
    const agent = 'mv .git .realgit && echo "gitdir: .realgit" > .git && echo two > a.txt';
    const first = iterateShell<Snapshot>(ws, home, agent, { run: 'r1' });
    // Its config (a token in a remote URL), objects, index and our lock stayed out of the commit.
    expect(first.files.map((f) => f.path)).toEqual(['a.txt']);
    writeFiles(ws, { 'b.txt': 'bee\n' });
    expect(okIn<{ isDirty: boolean }>(ws, home, ['before', '--run', 'r1']).isDirty).toBe(true);
    writeFiles(ws, { 'a.txt': 'three\n' });
    expect(
      okIn<Snapshot>(ws, home, ['after', '--run', 'r1', '--iteration', '2']).files.map((f) => f.path),
    ).toEqual(['a.txt']);
    expect(git(ws, ['ls-tree', '-r', '--name-only', 'HEAD']).trim().split('\n')).toEqual(['a.txt', 'b.txt']);
    expect(okIn<{ ok: boolean }>(ws, home, ['verify', '--run', 'r1']).ok).toBe(true);
  });

  it('a linked worktree and a submodule keep working', () => {
    const main = repoWithCommit({ 'a.txt': 'one\n' });
    const linked = join(tempDir('agentgate-wt-'), 'linked');
    git(main, ['worktree', 'add', '-q', '-b', 'side', linked]);
    writeFiles(linked, { 'a.txt': 'two\n' });
    expect(before(linked)).toEqual({ status: 0, code: null });
    const source = repoWithCommit({ 's.txt': 'sub\n' });
    const superRepo = repoWithCommit({ 'top.txt': 'top\n' });
    git(superRepo, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', source, 'sub']);
    const sub = join(superRepo, 'sub');
    writeFiles(sub, { 's.txt': 'edited\n' });
    expect(before(sub)).toEqual({ status: 0, code: null });
  });
});

describe('before --init where a .git that is no repository points outside', () => {
  /** `before --init`'s error code, and whether `outside` (a directory) was left as it was. */
  function initInto(shape: (ws: string, outside: string) => void): { code: unknown; outside: string[] } {
    const root = tempDir('agentgate-init-link-');
    const ws = join(root, 'ws');
    const outside = join(root, 'outside');
    mkdirSync(ws);
    mkdirSync(outside);
    writeFileSync(join(outside, 'cfg'), '[x]\n');
    writeFiles(ws, { 'a.txt': 'secret\n' });
    shape(ws, outside);
    const res = cliIn(ws, join(root, 'home'), ['before', '--init', '--run', 'r1']);
    const code = res.status === 0 ? null : (JSON.parse(res.stdout) as { error: { code: string } }).error.code;
    return { code, outside: [...readdirSync(outside), readFileSync(join(outside, 'cfg'), 'utf8')] };
  }

  it('a .git symbolic link to an empty directory: UNSAFE_WORKSPACE, no repository made there', () => {
    const got = initInto((ws, outside) => symlinkSync(outside, join(ws, '.git')));
    expect(got).toEqual({ code: 'UNSAFE_WORKSPACE', outside: ['cfg', '[x]\n'] });
  });

  it('links inside a half-made .git directory (config, HEAD, hooks): UNSAFE_WORKSPACE, nothing written through them', () => {
    const got = initInto((ws, outside) => {
      mkdirSync(join(ws, '.git'));
      symlinkSync(join(outside, 'cfg'), join(ws, '.git', 'config'));
      symlinkSync(join(outside, 'HEAD'), join(ws, '.git', 'HEAD'));
      symlinkSync(outside, join(ws, '.git', 'hooks'));
    });
    expect(got).toEqual({ code: 'UNSAFE_WORKSPACE', outside: ['cfg', '[x]\n'] });
  });

  it('an empty .git directory is made a repository in place', () => {
    expect(initInto((ws) => mkdirSync(join(ws, '.git')))).toEqual({ code: null, outside: ['cfg', '[x]\n'] });
  });
});
