/**
 * A file the workspace's repository tracks although its .gitignore matches it (`git add -f`) is a
 * tracked file: git does not ignore it, and neither may a checkpoint (tracked-ignored.ts).
 */
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCallCount } from '../../src/git/runner.js';
import { openCheckpoints, storeTreePaths } from '../helpers/checkpoints.js';
import { commitAll, git, initRepo, tempDir, writeFiles } from '../helpers/repo.js';

/** A repository ignoring `*.log` and `build/` that tracks `keep.log` and `build/out.js` all the same. */
function forcedRepo(): string {
  const ws = initRepo();
  writeFiles(ws, {
    '.gitignore': '*.log\nbuild/\n',
    'keep.log': 'kept\n',
    'build/out.js': 'v1\n',
    'a.txt': 'a\n',
  });
  git(ws, ['add', '-f', 'keep.log', 'build/out.js']);
  commitAll(ws, 'initial');
  writeFiles(ws, { 'junk.log': 'not tracked\n' });
  return ws;
}

describe('a tracked file that the ignore rules match', () => {
  it('is captured, and restore brings it back as it was', async () => {
    const ws = forcedRepo();
    const cp = await openCheckpoints(ws);
    const t = await cp.track('start');
    expect(storeTreePaths(cp, t.hash)).toEqual(['.gitignore', 'a.txt', 'build/out.js', 'keep.log']);

    unlinkSync(join(ws, 'keep.log'));
    writeFiles(ws, { 'build/out.js': 'v2\n' });
    expect((await cp.patch(t.hash)).files).toEqual([join(ws, 'build/out.js'), join(ws, 'keep.log')]);
    expect(await cp.diff(t.hash)).toContain('diff --git a/keep.log b/keep.log');
    expect((await cp.diffFull(t.hash)).map((d) => d.file)).toEqual(['build/out.js', 'keep.log']);

    const r = await cp.restore(t.hash);
    expect(r.leftAlone).toEqual([]);
    expect(readFileSync(join(ws, 'keep.log'), 'utf8')).toBe('kept\n');
    expect(readFileSync(join(ws, 'build/out.js'), 'utf8')).toBe('v1\n');
    expect(readFileSync(join(ws, 'junk.log'), 'utf8')).toBe('not tracked\n');
    expect(git(ws, ['status', '--porcelain'])).toBe('');
  });

  it('is reverted by name, and a restore to before it was tracked deletes it', async () => {
    const ws = initRepo();
    writeFiles(ws, { '.gitignore': '*.env\n', 'a.txt': 'a\n' });
    commitAll(ws, 'initial');
    const cp = await openCheckpoints(ws);
    const before = await cp.track('before');
    writeFiles(ws, { 'sample.env': 'X=1\n' });
    git(ws, ['add', '-f', 'sample.env']);
    const tracked = await cp.track('tracked');
    expect(storeTreePaths(cp, tracked.hash)).toContain('sample.env');

    writeFiles(ws, { 'sample.env': 'X=2\n' });
    const reverted = await cp.revert(tracked.hash, [join(ws, 'sample.env')]);
    expect(reverted.reverted).toEqual([join(ws, 'sample.env')]);
    expect(readFileSync(join(ws, 'sample.env'), 'utf8')).toBe('X=1\n');

    const r = await cp.restore(before.hash);
    expect(r.leftAlone).toEqual([]);
    expect(existsSync(join(ws, 'sample.env'))).toBe(false);
  });

  it('stays captured when the rules come to match it, and leaves when the repository stops tracking it', async () => {
    const ws = initRepo();
    writeFiles(ws, { 'notes.md': 'n1\n', 'a.txt': 'a\n' });
    commitAll(ws, 'initial');
    const cp = await openCheckpoints(ws);
    await cp.track();
    writeFiles(ws, { '.gitignore': '*.md\n', 'notes.md': 'n2\n', 'draft.md': 'd\n' });
    const ruled = await cp.track();
    expect(storeTreePaths(cp, ruled.hash)).toEqual(['.gitignore', 'a.txt', 'notes.md']);
    expect(git(ws, [`--git-dir=${cp.location.gitDir}`, 'cat-file', '-p', `${ruled.hash}:notes.md`])).toBe(
      'n2',
    );

    git(ws, ['rm', '--cached', '-q', 'notes.md']);
    const untracked = await cp.track();
    expect(storeTreePaths(cp, untracked.hash)).toEqual(['.gitignore', 'a.txt']);
  });

  it('is known without a git process while the index of the repository is unchanged, and asked again when it changes', async () => {
    const ws = forcedRepo();
    const home = tempDir('agentgate-cp-home-');
    await (await openCheckpoints(ws, { home })).track();
    let edits = 0;
    const cost = async () => {
      const cp = await openCheckpoints(ws, { home });
      const start = gitCallCount();
      writeFiles(ws, { 'a.txt': `a${(edits += 1)}\n` });
      const t = await cp.track();
      expect(storeTreePaths(cp, t.hash)).toContain('keep.log');
      return gitCallCount() - start;
    };
    const kept = await cost();
    const cp = await openCheckpoints(ws, { home });
    const answers = join(cp.location.dir, 'tracked-ignored.json');
    expect(existsSync(answers)).toBe(true);
    rmSync(answers);
    expect(await cost()).toBe(kept + 1);
    expect(await cost()).toBe(kept);
    writeFiles(ws, { 'build/more.js': 'm\n' });
    git(ws, ['add', '-f', 'build/more.js']);
    expect(await cost()).toBe(kept + 1);
    expect(storeTreePaths(cp, (await cp.track()).hash)).toContain('build/more.js');
  });

  it('costs a track no more git processes than a repository without them, once captured (1,100 of them)', async () => {
    const forced = Object.fromEntries(Array.from({ length: 1100 }, (_, i) => [`build/f${i}.js`, `${i}\n`]));
    const cost = async (ws: string) => {
      const home = tempDir('agentgate-cp-home-');
      // The first track packs the loose objects of the first: the second checks them, once.
      await (await openCheckpoints(ws, { home })).track();
      writeFiles(ws, { 'a.txt': 'once\n' });
      await (await openCheckpoints(ws, { home })).track();
      const cp = await openCheckpoints(ws, { home });
      writeFiles(ws, { 'a.txt': 'changed\n' });
      const start = gitCallCount();
      const t = await cp.track();
      return { processes: gitCallCount() - start, paths: storeTreePaths(cp, t.hash).length };
    };
    const withForced = initRepo();
    writeFiles(withForced, { '.gitignore': 'build/\n', 'a.txt': 'a\n', ...forced });
    git(withForced, ['add', '-f', 'build']);
    commitAll(withForced, 'initial');
    const plain = initRepo();
    writeFiles(plain, { '.gitignore': 'build/\n', 'a.txt': 'a\n' });
    commitAll(plain, 'initial');
    const [a, b] = [await cost(withForced), await cost(plain)];
    expect(a.paths).toBe(1102);
    expect(a.processes).toBe(b.processes);
  });
  it('beyond a directory replaced by a symbolic link, is no file of the workspace: track leaves it out, never GIT_FAILED', async () => {
    const ws = forcedRepo();
    const cp = await openCheckpoints(ws);
    await cp.track('start');
    const outside = tempDir('agentgate-outside-');
    mkdirSync(join(outside, 'build'));
    writeFiles(outside, { 'build/out.js': 'outside\n' });
    rmSync(join(ws, 'build'), { recursive: true });
    symlinkSync(join(outside, 'build'), join(ws, 'build'));
    const t = await cp.track('linked');
    expect(storeTreePaths(cp, t.hash)).not.toContain('build/out.js');
    expect(readFileSync(join(outside, 'build/out.js'), 'utf8')).toBe('outside\n');
  });
});
