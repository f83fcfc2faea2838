/**
 * Names git prints or matches poorly, found mishandled by black-box testing: a line break in a path
 * git cannot stage (its stderr message then spans lines), and, under `before --init`, a nested
 * repository whose name holds a line break (no gitignore pattern can hold one) or is not UTF-8.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn } from '../helpers/cli.js';
import { git, gitRaw, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
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

describe('a name git refuses to record (.git on another filesystem: core.protectNTFS)', () => {
  it('is an invalid-path skip for before, after and iterate, a directory of them left out at once', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const many = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`.GIT/f${i}`, `${i}\n`]));
    writeFiles(dir, { ...many, 'GIT~1': 'g\n', '.github/w.yml': 'w\n', 'a.txt': 'a 2\n' });
    symlinkSync('target', join(dir, 'sub.gitmodules'));
    const before = await s.captureBeforeState(dir, { runId: 'r' });
    expect(before.skipped).toEqual([
      { path: '.GIT', reason: 'invalid-path' },
      { path: 'GIT~1', reason: 'invalid-path' },
    ]);
    expect(git(dir, ['ls-tree', '-r', '--name-only', before.sha]).split('\n')).toEqual([
      '.github/w.yml',
      'a.txt',
      'sub.gitmodules',
    ]);
    mkdirSync(join(dir, 'lib'));
    symlinkSync('elsewhere', join(dir, 'lib', '.gitmodules'));
    const snap = await s.iterate(dir, {
      runId: 'r',
      iteration: 1,
      agent: { argv: ['sh', '-c', 'echo b > b.txt && echo x > .git.'] },
    });
    expect(snap.files.map((f) => f.path)).toEqual(['b.txt']);
    expect(snap.skipped?.map((k) => k.path)).toEqual(['.GIT', '.git.', 'GIT~1', 'lib/.gitmodules']);
    expect((await s.verify({ runId: 'r' })).ok).toBe(true);
  });
});

/** A repository with one commit at `dir/name` (its name's bytes as given). */
function nestedRepo(dir: string, name: string | Buffer): void {
  writeFiles(dir, { 'made/c.txt': 'c\n' });
  const made = join(dir, 'made');
  git(made, ['init', '-q']);
  git(made, ['add', 'c.txt']);
  git(made, ['commit', '-q', '-m', 'c']);
  renameSync(
    made,
    typeof name === 'string' ? join(dir, name) : Buffer.concat([Buffer.from(`${dir}/`), name]),
  );
}

/** The index's entries, bytes as latin1 (`ls-files -z -s`): a gitlink shows as mode 160000. */
const indexOf = (dir: string): string[] =>
  gitRaw(dir, ['ls-files', '-z', '-s'])
    .toString('latin1')
    .split('\0')
    .filter((l) => l !== '');

describe('before --init with a nested repository whose name no gitignore line can hold', () => {
  it('leaves a name with a line break out of every commit, and nothing else with it', async () => {
    const s = newSnapshotter();
    const dir = tempDir('agentgate-plain-');
    writeFiles(dir, { 'top.txt': 'top\n', n: 'important\n', 'src/l/code.c': 'code\n', vx: 'v\n' });
    nestedRepo(dir, 'n\nl');
    nestedRepo(dir, 'v*x');
    const before = await s.captureBeforeState(dir, { runId: 'r', init: true });
    expect(before.nestedRepositories).toEqual(['n\nl', 'v*x']);
    expect(git(dir, ['ls-tree', '-r', '--name-only', before.sha]).split('\n')).toEqual([
      'n',
      'src/l/code.c',
      'top.txt',
      'vx',
    ]);
    expect(readFileSync(join(dir, '.git', 'info', 'exclude'), 'utf8')).toMatch(/\n\/v\\\*x\/\n$/);

    writeFiles(dir, { n: 'changed\n', 'n\nl/new.txt': 'new\n' });
    const snap = await s.captureAfterState(dir, before, { runId: 'r', iteration: 1 });
    expect(snap.files.map((f) => f.path)).toEqual(['n']);
    expect(indexOf(dir).some((e) => e.startsWith('160000'))).toBe(false);
    // Not a change of the workspace either: the next before finds it clean.
    const next = await s.captureBeforeState(dir, { runId: 'r' });
    expect(next).toMatchObject({ isDirty: false, wipSha: null, sha: snap.afterSha });
  });

  it('finds a nested repository whose name is not UTF-8, lists it byte-escaped, and leaves it out', async () => {
    const s = newSnapshotter();
    const dir = tempDir('agentgate-plain-');
    writeFiles(dir, { 'top.txt': 'top\n' });
    nestedRepo(dir, Buffer.from([0x6e, 0xff, 0x78]));
    const before = await s.captureBeforeState(dir, { runId: 'r', init: true });
    expect(before.nestedRepositories).toEqual(['n\udcffx']);
    expect(indexOf(dir)).toEqual([expect.stringMatching(/^100644 [0-9a-f]+ 0\ttop\.txt$/)]);
    const exclude = readFileSync(join(dir, '.git', 'info', 'exclude'));
    expect(exclude.includes(Buffer.from([0x2f, 0x6e, 0xff, 0x78, 0x2f, 0x0a]))).toBe(true);
  });

  it('through the CLI: the JSON names both, and a gate finds the workspace at the after commit', () => {
    const home = tempDir('agentgate-home-');
    const dir = tempDir('agentgate-plain-');
    writeFiles(dir, { 'top.txt': 'top\n' });
    nestedRepo(dir, 'n\nl');
    nestedRepo(dir, Buffer.from([0x6e, 0xff, 0x78]));
    const before = cliIn(dir, home, ['before', '--run', 'r', '--init']);
    expect(before.status).toBe(0);
    expect(before.stdout).toContain('"nestedRepositories": [\n    "n\\nl",\n    "n\\udcffx"\n  ]');
    writeFiles(dir, { 'top.txt': 'top 2\n' });
    expect(cliIn(dir, home, ['after', '--run', 'r', '--iteration', '1']).status).toBe(0);
    const gate = cliIn(dir, home, ['gate', '--run', 'r', '--name', 't', '--', 'true']);
    expect(gate.status).toBe(0);
    expect(gate.json()).toMatchObject({ verdict: 'pass' });
  });
});
