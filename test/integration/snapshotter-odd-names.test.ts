/**
 * Names git prints or matches poorly, found mishandled by black-box testing: a line break in a path
 * git cannot stage (its stderr message then spans lines), and, under `before --init`, a nested
 * repository whose name holds a line break (no gitignore pattern can hold one) or is not UTF-8.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, repoWithCommit, writeFiles } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

/** A tracked file replaced by a FIFO: git cannot stage it. */
function fifoAt(dir: string, name: string): void {
  rmSync(join(dir, name));
  execFileSync('mkfifo', ['--', join(dir, name)]);
}

describe('a path git cannot stage whose name holds a line break', () => {
  it('is listed in skipped by before and after, as the index had it, and the rest is committed', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit({ 'x\ny': 'a\n', 'b.txt': 'b\n' });
    fifoAt(dir, 'x\ny');
    writeFiles(dir, { 'b.txt': 'b 2\n' });
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    expect(before.skipped).toEqual([{ path: 'x\ny', reason: 'special-file' }]);
    expect(git(dir, ['show', `${before.sha}:b.txt`])).toBe('b 2');
    expect(git(dir, ['show', `${before.sha}:x\ny`])).toBe('a');

    writeFiles(dir, { 'c.txt': 'c\n' });
    const snap = await s.captureAfterState(dir, before, { runId: 'r', iteration: 1 });
    expect(snap.skipped).toEqual([{ path: 'x\ny', reason: 'special-file' }]);
    expect(snap.files.map((f) => f.path)).toEqual(['c.txt']);
  });

  it('a repository with no commit named with a line break is a nested-repository skip', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit();
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    git(dir, ['init', '-q', 'n\nr']);
    writeFiles(dir, { 'n\nr/z.txt': 'z\n', 'x.txt': 'x\n' });
    const snap = await s.captureAfterState(dir, before, { runId: 'r', iteration: 1 });
    expect(snap.skipped).toEqual([{ path: 'n\nr', reason: 'nested-repository' }]);
    expect(git(dir, ['ls-tree', '--name-only', snap.afterSha])).toBe('README.md\nx.txt');
  });

  it('a name holding git message text is named only as the work tree bears it out', async () => {
    const s = newSnapshotter();
    // The file `a` is regular; the FIFO's name starts with `a` and the message's own words.
    const odd = 'a: can only add regular files, symbolic links or git-directories\nb';
    const dir = repoWithCommit({ a: 'a\n', [odd]: 'o\n' });
    fifoAt(dir, odd);
    writeFiles(dir, { a: 'a 2\n' });
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    expect(before.skipped).toEqual([{ path: odd, reason: 'special-file' }]);
    expect(git(dir, ['show', `${before.sha}:a`])).toBe('a 2');
  });
});
