/**
 * A HEAD that reaches its branch through a chain of symbolic refs (HEAD -> refs/heads/alias ->
 * refs/heads/main): before, after and iterate leave HEAD and the chain as they are, the commits land
 * on the branch at the end of the chain, and `branch` names that branch (the ref that moves, as
 * `git status` says), `--branch` included.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BeforeState, Snapshot } from '../../types/snapshot.js';
import { cliIn, okIn } from '../helpers/cli.js';
import { git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** A workspace whose HEAD is `ref: refs/heads/alias`, alias being `ref: refs/heads/main`. */
function chained() {
  const ws = repoWithCommit({ 'a.txt': 'one\n' });
  git(ws, ['symbolic-ref', 'refs/heads/alias', 'refs/heads/main']);
  git(ws, ['symbolic-ref', 'HEAD', 'refs/heads/alias']);
  const home = tempDir('agentgate-home-');
  return { ws, home, ok: <T>(args: string[]) => okIn<T>(ws, home, args) };
}

/** The chain, read as files: HEAD and alias are untouched, byte for byte. */
function expectChain(ws: string): void {
  expect(readFileSync(join(ws, '.git', 'HEAD'), 'utf8')).toBe('ref: refs/heads/alias\n');
  expect(readFileSync(join(ws, '.git', 'refs', 'heads', 'alias'), 'utf8')).toBe('ref: refs/heads/main\n');
}

const headLog = (ws: string) => readFileSync(join(ws, '.git', 'logs', 'HEAD'), 'utf8');

describe('HEAD on a chain of symbolic refs', () => {
  it('before (clean and dirty), after and iterate leave HEAD and the chain alone; commits land on main', () => {
    const { ws, home, ok } = chained();
    const log = headLog(ws);
    const clean = ok<BeforeState>(['before', '--run', 'r']);
    expect(clean).toMatchObject({ branch: 'main', headState: 'branch', wipSha: null });
    expectChain(ws);
    expect(headLog(ws)).toBe(log);

    writeFiles(ws, { 'b.txt': 'two\n' });
    const first = ok<Snapshot>(['after', '--run', 'r', '--iteration', '1']);
    expect(first.branch).toBe('main');
    expect(git(ws, ['rev-parse', 'refs/heads/main'])).toBe(first.afterSha);
    expectChain(ws);

    writeFiles(ws, { 'a.txt': 'dirty\n' });
    const dirty = ok<BeforeState>(['before', '--run', 'r']);
    expect(dirty.branch).toBe('main');
    expect(git(ws, ['rev-parse', 'refs/heads/main'])).toBe(dirty.wipSha);
    expectChain(ws);
    writeFiles(ws, { 'c.txt': 'three\n' });
    ok<Snapshot>(['after', '--run', 'r', '--iteration', '2']);

    const agent = `require('fs').writeFileSync('d.txt', 'four\\n')`;
    const third = ok<Snapshot>([
      'iterate',
      '--run',
      'r',
      '--iteration',
      '3',
      '--',
      process.execPath,
      '-e',
      agent,
    ]);
    expect(third.branch).toBe('main');
    expect(head(ws)).toBe(third.afterSha);
    expectChain(ws);
    expect(cliIn(ws, home, ['verify', '--run', 'r']).status).toBe(0);
  });

  it('--branch naming either end of the chain keeps HEAD as it is and records main', () => {
    for (const name of ['alias', 'main']) {
      const { ws, ok } = chained();
      const log = headLog(ws);
      expect(ok<BeforeState>(['before', '--run', 'r', '--branch', name]).branch).toBe('main');
      expectChain(ws);
      expect(headLog(ws)).toBe(log);
      writeFiles(ws, { 'b.txt': 'two\n' });
      expect(ok<Snapshot>(['after', '--run', 'r', '--iteration', '1']).branch).toBe('main');
      expectChain(ws);
    }
  });

  it('--branch NAME, a symbolic ref: records where it leads, and refuses one that leads to no branch or to a branch checked out elsewhere', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-home-');
    git(ws, ['checkout', '-q', '-b', 'work']);
    git(ws, ['branch', 'target']);
    git(ws, ['symbolic-ref', 'refs/heads/to-target', 'refs/heads/target']);
    git(ws, ['update-ref', 'refs/remotes/origin/x', 'HEAD']);
    git(ws, ['symbolic-ref', 'refs/heads/to-remote', 'refs/remotes/origin/x']);
    git(ws, ['symbolic-ref', 'refs/heads/to-main', 'refs/heads/main']);
    git(ws, ['worktree', 'add', '-q', tempDir('agentgate-other-'), 'main']);
    const code = (args: string[]) => (cliIn(ws, home, args).json() as { error: { code: string } }).error.code;
    expect(code(['before', '--run', 'r', '--branch', 'to-remote'])).toBe('INVALID_ARGUMENT');
    expect(code(['before', '--run', 'r', '--branch', 'to-main'])).toBe('INVALID_ARGUMENT');
    expect(git(ws, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/work');
    expect(okIn<BeforeState>(ws, home, ['before', '--run', 'r', '--branch', 'to-target']).branch).toBe(
      'target',
    );
    writeFiles(ws, { 'b.txt': 'two\n' });
    const snap = okIn<Snapshot>(ws, home, ['after', '--run', 'r', '--iteration', '1']);
    expect(snap.branch).toBe('target');
    expect(git(ws, ['rev-parse', 'refs/heads/target'])).toBe(snap.afterSha);
    expect(git(ws, ['rev-parse', 'refs/heads/work'])).toBe(snap.beforeSha);
  });
});
