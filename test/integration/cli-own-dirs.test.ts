/**
 * Our own directories as the CLI makes and checks them: a run's artifacts directory, and a home
 * made inside a workspace, carry a `.gitignore` of `*`, so that no later call with other settings
 * (and no checkpoint) ever commits them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BeforeState, Snapshot } from '../../types/snapshot.js';
import { cliIn, okIn } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** Every path of the commit's tree. */
function treeOf(ws: string, rev: string): string[] {
  return git(ws, ['ls-tree', '-r', '--name-only', rev]).split('\n');
}

/** One iteration of run `runId` through the CLI, `extra` given to its `after` only. */
function iteration(ws: string, home: string, runId: string, n: number, extra: string[] = []): Snapshot {
  okIn<BeforeState>(ws, home, ['before', '--run', runId]);
  writeFiles(ws, { 'a.txt': `${runId} ${n}\n` });
  return okIn<Snapshot>(ws, home, ['after', '--run', runId, '--iteration', String(n), ...extra]);
}

describe("an earlier call's own directories inside the workspace", () => {
  it('a patch, a gate log and an artifacts directory given another way are never committed by a later call', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const home = tempDir('agentgate-own-home-');
    iteration(ws, home, 'b1', 1, ['--artifacts-dir', 'arts']);
    expect(existsSync(join(ws, 'arts', 'b1', 'iteration-1', 'patch.diff'))).toBe(true);
    const gate = cliIn(ws, home, [
      '--artifacts-dir',
      'logs',
      'gate',
      '--run',
      'b1',
      '--name',
      't',
      '--',
      'true',
    ]);
    expect(gate.status, gate.stdout).toBe(0);
    expect(existsSync(join(ws, 'logs', 'b1', 'iteration-1', 'gate-t-1.log'))).toBe(true);
    okIn<BeforeState>(ws, home, ['before', '--run', 'b2'], { AGENTGATE_ARTIFACTS_DIR: join(ws, 'env-arts') });
    writeFiles(ws, { 'a.txt': 'b2\n' });
    okIn<Snapshot>(ws, home, ['after', '--run', 'b2', '--iteration', '1'], {
      AGENTGATE_ARTIFACTS_DIR: join(ws, 'env-arts'),
    });

    // The tester's repro: the next before found a clean workspace, and nothing of ours is in any commit.
    const before = okIn<BeforeState>(ws, home, ['before', '--run', 'b3']);
    expect(before.isDirty).toBe(false);
    expect(before.wipSha).toBeNull();
    writeFiles(ws, { 'a.txt': 'b3\n' });
    const snap = okIn<Snapshot>(ws, home, ['after', '--run', 'b3', '--iteration', '1']);
    expect(snap.files.map((f) => f.path)).toEqual(['a.txt']);
    expect(git(ws, ['log', '--all', '--name-only', '--format='])).not.toMatch(/arts|logs|\.gitignore/);
    expect(git(ws, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
    for (const dir of ['arts/b1', 'logs/b1', 'env-arts/b2'])
      expect(readFileSync(join(ws, dir, '.gitignore'), 'utf8')).toMatch(/^\*$/m);
  });

  it("a home or artifacts directory inside the workspace that the user's .gitignore ignores: captures work", () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n', '.gitignore': '.ag/\narts/\n' });
    const home = join(ws, '.ag');
    iteration(ws, home, 'i1', 1);
    const snap = iteration(ws, home, 'i1', 2, ['--artifacts-dir', 'arts']);
    expect(snap.files.map((f) => f.path)).toEqual(['a.txt']);
    // The artifacts directory exists now: the next capture names it too.
    expect(iteration(ws, home, 'i1', 3, ['--artifacts-dir', 'arts']).files.map((f) => f.path)).toEqual([
      'a.txt',
    ]);
    expect(git(ws, ['status', '--porcelain'])).toBe('');
  });

  it('a home made inside the workspace by a capture is never committed by a call with another home', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const elsewhere = tempDir('agentgate-own-home-');
    iteration(ws, join(ws, '.ag'), 'h1', 1);
    okIn(ws, join(ws, '.ag-cp'), ['checkpoint', 'track', '--label', 'made the home']);
    // iterate writes its run lock into the home before it captures anything.
    okIn(ws, join(ws, '.ag-it'), ['iterate', '--run', 'h3', '--iteration', '1', '--', 'true']);
    for (const home of ['.ag', '.ag-cp', '.ag-it'])
      expect(existsSync(join(ws, home, '.gitignore')), home).toBe(true);

    const before = okIn<BeforeState>(ws, elsewhere, ['before', '--run', 'h2']);
    expect(before.isDirty).toBe(false);
    writeFiles(ws, { 'a.txt': 'h2\n' });
    const snap = okIn<Snapshot>(ws, elsewhere, ['after', '--run', 'h2', '--iteration', '1']);
    expect(treeOf(ws, snap.afterSha)).toEqual(['a.txt']);
  });

  it("a home or artifacts directory inside the repository's git dir is UNSAFE_WORKSPACE, writing nothing there", () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const home = tempDir('agentgate-own-home-');
    iteration(ws, home, 'g', 1);
    const refs = () => git(ws, ['for-each-ref', '--format=%(refname)']);
    const artifactsInGitDir = ['--artifacts-dir', join(ws, '.git', 'refs', 'x')];
    const homeInGitDir = join(ws, '.git', 'refs', 'h');
    /** Exit status and error code of a call with `extra` options and the home `inHome`. */
    const refused = (args: string[], inHome = home, extra = artifactsInGitDir) => {
      const res = cliIn(ws, inHome, [...extra, ...args]);
      return [res.status, (res.json() as { error: { code: string } }).error.code];
    };
    const unsafe = [1, 'UNSAFE_WORKSPACE'];
    writeFiles(ws, { 'a.txt': 'dirty\n' });
    for (const args of [
      ['before', '--run', 'g'],
      ['iterate', '--run', 'g2', '--iteration', '1', '--', 'true'],
    ]) {
      expect(refused(args)).toEqual(unsafe);
      expect(refused(args, homeInGitDir, [])).toEqual(unsafe);
    }
    okIn(ws, home, ['before', '--run', 'g']);
    writeFiles(ws, { 'a.txt': 'two\n' });
    expect(refused(['after', '--run', 'g', '--iteration', '2'])).toEqual(unsafe);
    okIn(ws, home, ['after', '--run', 'g', '--iteration', '2']);
    for (const gate of [
      ['gate', '--run', 'g', '--name', 't', '--', 'true'],
      ['gate', '--isolated', '--run', 'g', '--name', 't', '--', 'true'],
      ['gate', 'record', '--run', 'g', '--name', 't', '--exit-code', '0'],
    ])
      expect(refused(gate)).toEqual(unsafe);
    expect(refs()).not.toMatch(/^refs\/(x|h)\//m);
    expect(existsSync(join(ws, '.git', 'refs', 'x'))).toBe(false);
    expect(existsSync(join(ws, '.git', 'refs', 'h'))).toBe(false);
  });

  it('a checkpoint with other settings captures none of them', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    iteration(ws, join(ws, '.ag'), 'c1', 1, ['--artifacts-dir', 'arts']);
    git(ws, ['add', '-A']);
    expect(git(ws, ['diff', '--cached', '--name-only'])).toBe('');
    const track = okIn<{ hash: string }>(ws, tempDir('agentgate-own-home-'), ['checkpoint', 'track']);
    // What the checkpoint captured is the committed tree: neither the home nor the artifacts.
    expect(track.hash).toBe(git(ws, ['rev-parse', 'HEAD^{tree}']));
  });

  it('never marks a directory the user already had: only the run directory made below it', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const home = tempDir('agentgate-own-home-');
    writeFiles(ws, { 'notes/mine.txt': 'mine\n', 'notes/r2/kept.txt': 'kept\n' });
    for (const runId of ['r1', 'r2']) {
      okIn<BeforeState>(ws, home, ['--artifacts-dir', 'notes', 'before', '--run', runId]);
      writeFiles(ws, { 'a.txt': `${runId}\n` });
      okIn<Snapshot>(ws, home, ['--artifacts-dir', 'notes', 'after', '--run', runId, '--iteration', '1']);
    }
    expect(existsSync(join(ws, 'notes', '.gitignore'))).toBe(false);
    expect(existsSync(join(ws, 'notes', 'r2', '.gitignore'))).toBe(false);
    expect(existsSync(join(ws, 'notes', 'r1', '.gitignore'))).toBe(true);
    // Without --artifacts-dir, the user's files there are theirs to commit; our run directory is not.
    const before = okIn<BeforeState>(ws, home, ['before', '--run', 'r3']);
    expect(treeOf(ws, before.wipSha ?? 'HEAD').filter((p) => p.startsWith('notes/'))).toEqual([
      'notes/mine.txt',
      'notes/r2/iteration-1/patch.diff',
      'notes/r2/kept.txt',
    ]);
  });
});
