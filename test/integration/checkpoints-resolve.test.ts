/**
 * Which HASH a checkpoint command takes: only a recorded checkpoint (its tree or commit id, full or
 * abbreviated, or one of our refs). Another object of the private store, such as a subdirectory's
 * tree, made `restore` replace the whole workspace with that subdirectory.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectCode } from '../helpers/codes.js';
import { openCheckpoints, treeState } from '../helpers/checkpoints.js';
import { runCli } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

describe('a checkpoint HASH', () => {
  it("a subdirectory's tree, full or abbreviated, is no checkpoint: restore, revert, patch, diff and diff-full refuse it and change nothing", async () => {
    const ws = repoWithCommit({ 'a.txt': 'hello\n', 'b.txt': 'world\n' });
    writeFiles(ws, { 'd/x': 'x\n' });
    const cp = await openCheckpoints(ws);
    const t = await cp.track('A');
    const sub = git(ws, [`--git-dir=${cp.location.gitDir}`, 'rev-parse', `${t.hash}:d`]).trim();
    const before = treeState(ws);
    for (const rev of [sub, sub.slice(0, 7)]) {
      await expectCode(cp.restore(rev), 'CHECKPOINT_NOT_FOUND');
      await expectCode(cp.revert(rev), 'CHECKPOINT_NOT_FOUND');
      await expectCode(cp.revert([{ hash: rev, files: [join(ws, 'x')] }]), 'CHECKPOINT_NOT_FOUND');
      await expectCode(cp.patch(rev), 'CHECKPOINT_NOT_FOUND');
      await expectCode(cp.diff(rev), 'CHECKPOINT_NOT_FOUND');
      await expectCode(cp.diffFull(t.hash, rev), 'CHECKPOINT_NOT_FOUND');
    }
    expect(treeState(ws)).toEqual(before);
    // No safety checkpoint was taken either: nothing started.
    expect((await cp.list()).map((e) => e.label)).toEqual(['A']);

    // What does name the checkpoint still works: its tree and commit ids, whole or abbreviated, its ref.
    const commit = git(ws, [`--git-dir=${cp.location.gitDir}`, 'rev-parse', t.ref]).trim();
    for (const rev of [t.hash, t.hash.slice(0, 6), commit, commit.slice(0, 6), t.ref])
      expect((await cp.patch(rev)).hash).toBe(t.hash);
  });

  it('a dropped checkpoint is no longer one, though its tree is still an object of the store', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const cp = await openCheckpoints(ws);
    await cp.track('first');
    writeFiles(ws, { 'a.txt': 'two\n' });
    const middle = await cp.track('middle');
    writeFiles(ws, { 'a.txt': 'three\n' });
    await cp.track('last');
    git(ws, [`--git-dir=${cp.location.gitDir}`, 'update-ref', '-d', middle.ref]);
    expect(git(ws, [`--git-dir=${cp.location.gitDir}`, 'cat-file', '-t', middle.hash]).trim()).toBe('tree');
    await expectCode(cp.restore(middle.hash), 'CHECKPOINT_NOT_FOUND');
    expect((await cp.list()).map((e) => e.label)).toEqual(['last', 'first']);
  });

  it('the CLI: restore of a subdirectory tree id is CHECKPOINT_NOT_FOUND (exit 1) and leaves the workspace as it was', async () => {
    const ws = repoWithCommit({ 'a.txt': 'hello\n', 'b.txt': 'world\n' });
    writeFiles(ws, { 'd/x': 'x\n' });
    const home = tempDir('agentgate-cp-resolve-home-');
    const env = { AGENTGATE_HOME: home };
    const tracked = runCli(['checkpoint', 'track', '--json', '-C', ws], { env });
    expect(tracked.status).toBe(0);
    const { hash } = tracked.json() as { hash: string };
    const { gitDir } = (await openCheckpoints(ws, { home })).location;
    const sub = git(ws, [`--git-dir=${gitDir}`, 'rev-parse', `${hash}:d`]).trim();
    const before = treeState(ws);
    for (const rev of [sub, sub.slice(0, 8)]) {
      const res = runCli(['checkpoint', 'restore', rev, '-C', ws], { env });
      expect(res.status).toBe(1);
      expect(res.stderr).toContain('CHECKPOINT_NOT_FOUND');
    }
    expect(treeState(ws)).toEqual(before);
  });

  it("the CLI: a checkpoint's abbreviated commit id or its ref wins over a label of the same spelling", async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-resolve-label-');
    const env = { AGENTGATE_HOME: home };
    const first = runCli(['checkpoint', 'track', '--json', '-C', ws], { env }).json() as {
      hash: string;
      ref: string;
    };
    const { gitDir } = (await openCheckpoints(ws, { home })).location;
    const commit = git(ws, [`--git-dir=${gitDir}`, 'rev-parse', first.ref]).trim();
    writeFiles(ws, { 'a.txt': 'two\n' });
    const abbreviated = commit.slice(0, 10);
    for (const label of [abbreviated, 'refs/checkpoints-meta/baseline'])
      expect(runCli(['checkpoint', 'track', '--label', label, '-C', ws], { env }).status).toBe(0);
    writeFiles(ws, { 'a.txt': 'three\n' });
    for (const rev of [abbreviated, 'refs/checkpoints-meta/baseline', first.ref]) {
      const res = runCli(['checkpoint', 'patch', rev, '--json', '-C', ws], { env });
      expect(res.status).toBe(0);
      expect((res.json() as { hash: string }).hash).toBe(first.hash);
    }
  });
});
