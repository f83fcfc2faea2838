import {
  appendFileSync,
  chmodSync,
  cpSync,
  mkdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileDiff, Patch, TrackResult } from '../../types/checkpoint.js';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { fingerprint, openCheckpoints, storeTreePaths, treeState } from '../helpers/checkpoints.js';
import { git, gitRaw, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

describe('checkpoint track', () => {
  it('captures a repository workspace through its ignore rules and info/exclude, without writing its .git', async () => {
    const ws = repoWithCommit({ 'README.md': 'hi\n', '.gitignore': 'build/\n*.log\n' });
    writeFiles(ws, {
      'build/out.js': 'x',
      'debug.log': 'l',
      'secret.txt': 's',
      'src/a.ts': 'a',
      'src/deep/b.ts': 'b',
    });
    appendFileSync(join(ws, '.git/info/exclude'), 'secret.txt\n');
    const dotGit = fingerprint(join(ws, '.git'));

    const cp = await openCheckpoints(ws);
    const t = await cp.track('first');

    expect(TrackResult.parse(t)).toEqual(t);
    expect(t.ref).toMatch(/^refs\/checkpoints\/\d{8}T\d{9}Z-[0-9a-f]{6}$/);
    expect(t.skipped).toEqual([]);
    expect(storeTreePaths(cp, t.hash)).toEqual(['.gitignore', 'README.md', 'src/a.ts', 'src/deep/b.ts']);
    expect(cp.location.projectId).toBe(git(ws, ['rev-list', '--max-parents=0', 'HEAD']));
    expect(cp.location.gitDir.startsWith(join(cp.location.dir))).toBe(true);
    expect(fingerprint(join(ws, '.git'))).toEqual(dotGit);

    // A file tracked by the store and ignored later leaves the next capture.
    appendFileSync(join(ws, '.gitignore'), 'src/deep/\n');
    const again = await cp.track();
    expect(storeTreePaths(cp, again.hash)).toEqual(['.gitignore', 'README.md', 'src/a.ts']);
  });

  it('skips files over the size cap and nested repositories, in a directory that is not a repository', async () => {
    const ws = tempDir('agentgate-cp-plain-');
    writeFiles(ws, {
      'small.txt': 'small',
      'big.bin': Buffer.alloc(2048, 7),
      'grows.txt': 'tiny',
      'vendor/lib/code.c': 'int x;',
    });
    git(join(ws, 'vendor/lib'), ['init', '-q']);
    const cp = await openCheckpoints(ws, { maxFileSizeBytes: 1024 });
    expect(cp.location.projectId).toMatch(/^path-[0-9a-f]{16}$/);

    const t = await cp.track();
    expect(t.skipped).toEqual([
      { path: join(ws, 'big.bin'), reason: 'too-large', size: 2048 },
      { path: join(ws, 'vendor/lib'), reason: 'nested-repository', size: null },
    ]);
    expect(storeTreePaths(cp, t.hash)).toEqual(['grows.txt', 'small.txt']);

    // A captured file that grows over the cap leaves the capture rather than keeping a stale version.
    writeFileSync(join(ws, 'grows.txt'), Buffer.alloc(4096, 1));
    const t2 = await cp.track();
    expect(t2.skipped.map((s) => [s.path, s.reason, s.size])).toContainEqual([
      join(ws, 'grows.txt'),
      'too-large',
      4096,
    ]);
    expect(storeTreePaths(cp, t2.hash)).toEqual(['small.txt']);
  });

  it('a directory whose .git git takes for no repository (empty, or HEAD alone) is captured, as git lists it', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const cp = await openCheckpoints(ws);
    await cp.track();
    writeFiles(ws, { 'sub/f.txt': 'f\n', 'sub/.git/HEAD': 'ref: refs/heads/main\n', 'other/g.txt': 'g\n' });
    mkdirSync(join(ws, 'other', '.git'));
    const t = await cp.track();
    expect(t.skipped).toEqual([]);
    expect(storeTreePaths(cp, t.hash)).toEqual(['a.txt', 'other/g.txt', 'sub/f.txt']);
  });

  it('refuses the home directory and / with UNSAFE_WORKSPACE', async () => {
    await expect(Checkpoints.open(process.env.HOME ?? '/nonexistent')).rejects.toMatchObject({
      code: 'UNSAFE_WORKSPACE',
    });
    await expect(Checkpoints.open('/')).rejects.toMatchObject({ code: 'UNSAFE_WORKSPACE' });
    const ws = repoWithCommit();
    await expect(Checkpoints.open(join(ws, '.git'))).rejects.toMatchObject({ code: 'UNSAFE_WORKSPACE' });
  });

  it("refuses the home's own directories (logs, anchors, ...) but not a project beside them", async () => {
    const home = tempDir('agentgate-cp-own-');
    for (const dir of ['logs', 'anchors', 'cache', 'runs', 'tmp/gates/x']) {
      mkdirSync(join(home, dir), { recursive: true });
      await expect(Checkpoints.open(join(home, dir), { home })).rejects.toMatchObject({
        code: 'UNSAFE_WORKSPACE',
      });
    }
    mkdirSync(join(home, 'project'));
    await expect(Checkpoints.open(join(home, 'project'), { home })).resolves.toBeDefined();
  });

  it('lists checkpoints newest first; the first is the baseline until a new session starts', async () => {
    const ws = tempDir('agentgate-cp-list-');
    writeFiles(ws, { 'a.txt': '1' });
    const cp = await openCheckpoints(ws);
    expect(await cp.list()).toEqual([]);
    const a = await cp.track('step one');
    writeFiles(ws, { 'a.txt': '2' });
    const b = await cp.track();
    const list = await cp.list();
    expect(list.map((e) => [e.ref, e.hash, e.label, e.kind])).toEqual([
      [b.ref, b.hash, null, 'track'],
      [a.ref, a.hash, 'step one', 'track'],
    ]);
    expect(Date.parse(list[0]?.createdAt ?? '')).toBeGreaterThanOrEqual(Date.parse(list[1]?.createdAt ?? ''));
    let markers = await cp.markers();
    expect([markers.baseline?.ref, markers.latest?.ref, markers.safety]).toEqual([a.ref, b.ref, null]);

    // Another instance (another CLI call) continues the session; startSession begins a new one.
    const other = await Checkpoints.open(ws, { home: join(cp.location.dir, '../../..') });
    await other.track();
    expect((await other.markers()).baseline?.ref).toBe(a.ref);
    const s = await other.startSession('new session');
    markers = await other.markers();
    expect([markers.baseline?.ref, markers.latest?.ref]).toEqual([s.ref, s.ref]);
  });
});

describe('checkpoint patch, diff and diffFull', () => {
  it('reports modified, created, deleted and renamed files, directories, binaries, symlinks and odd names', async () => {
    const ws = tempDir('agentgate-cp-diff-');
    writeFiles(ws, {
      'a file.txt': 'one\ntwo\nthree\n',
      'dir é/ü.txt': 'umlaut\n',
      'old.txt': 'old\n',
      'rename-me.txt': 'moving\n',
      'gone/x.txt': 'x\n',
      'gone/deeper/y.txt': 'y\n',
      'bin.dat': Buffer.from([0, 1, 2, 3]),
      'run.sh': '#!/bin/sh\n',
    });
    symlinkSync('a file.txt', join(ws, 'link'));
    const cp = await openCheckpoints(ws);
    const t = await cp.track();
    const before = tempDir('agentgate-cp-before-');
    cpSync(ws, before, { recursive: true, verbatimSymlinks: true });

    writeFiles(ws, {
      'a file.txt': 'one\nTWO\nthree\nfour\n',
      'ñ new.txt': 'new\n',
      'bin.dat': Buffer.from([0, 9, 9]),
    });
    unlinkSync(join(ws, 'old.txt'));
    renameSync(join(ws, 'rename-me.txt'), join(ws, 'renamed.txt'));
    rmSync(join(ws, 'gone'), { recursive: true });
    unlinkSync(join(ws, 'link'));
    symlinkSync('dir é/ü.txt', join(ws, 'link'));
    chmodSync(join(ws, 'run.sh'), 0o755);

    const patch = await cp.patch(t.hash);
    expect(Patch.parse(patch)).toEqual(patch);
    expect(patch.hash).toBe(t.hash);
    const changed = [
      'a file.txt',
      'bin.dat',
      'gone/deeper/y.txt',
      'gone/x.txt',
      'link',
      'old.txt',
      'rename-me.txt',
      'renamed.txt',
      'run.sh',
      'ñ new.txt',
    ];
    expect([...patch.files].sort()).toEqual(changed.map((f) => join(ws, f)).sort());
    expect((await cp.list()).length).toBe(1); // patch captures without recording a checkpoint

    // The unified diff is plumbing output that applies to the old state and reproduces the new one.
    const diff = await cp.diff(t.hash);
    expect(diff).toContain('diff --git a/a file.txt b/a file.txt');
    expect(diff).toContain('GIT binary patch');
    expect(diff).not.toContain('\u001b[');
    gitRaw(before, ['apply', '--binary', '-'], diff);
    expect(treeState(before)).toEqual(treeState(ws));

    const full = await cp.diffFull(t.hash);
    for (const d of full) expect(FileDiff.parse(d)).toEqual(d);
    const by = Object.fromEntries(full.map((d) => [d.file, d]));
    expect(Object.keys(by).sort()).toEqual([...changed].sort());
    expect(by['a file.txt']).toEqual({
      file: 'a file.txt',
      before: 'one\ntwo\nthree\n',
      after: 'one\nTWO\nthree\nfour\n',
      additions: 2,
      deletions: 1,
      status: 'modified',
      binary: false,
    });
    expect(by['bin.dat']).toMatchObject({
      before: '',
      after: '',
      additions: 0,
      deletions: 0,
      status: 'modified',
      binary: true,
    });
    expect(by['old.txt']).toMatchObject({ status: 'deleted', before: 'old\n', after: '', deletions: 1 });
    expect(by['renamed.txt']).toMatchObject({ status: 'added', after: 'moving\n' });
    expect(by['rename-me.txt']).toMatchObject({ status: 'deleted' });
    expect(by['ñ new.txt']).toMatchObject({ status: 'added', after: 'new\n', additions: 1 });
    expect(by['link']).toMatchObject({
      status: 'modified',
      before: 'a file.txt',
      after: 'dir é/ü.txt',
      binary: false,
    });

    // Between two recorded checkpoints.
    const t2 = await cp.track();
    expect((await cp.diffFull(t.hash, t2.hash)).map((d) => d.file)).toEqual(full.map((d) => d.file));
    expect(await cp.diffFull(t2.hash, t2.hash.slice(0, 10))).toEqual([]);
  });

  it('answers CHECKPOINT_NOT_FOUND for unknown or malformed hashes', async () => {
    const ws = tempDir('agentgate-cp-missing-');
    writeFiles(ws, { 'a.txt': 'a' });
    const cp = await openCheckpoints(ws);
    await cp.track();
    for (const bad of [
      '0123456789abcdef0123456789abcdef01234567',
      'deadbeef',
      '--output=/tmp/x',
      'HEAD',
      '',
    ]) {
      await expect(cp.patch(bad)).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
    }
    await expect(cp.diff('abcdef12')).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
    await expect(cp.diffFull('abcdef12')).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
    await expect(cp.restore('abcdef12')).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
    expect((await cp.list()).length).toBe(1);
  });
});

describe('checkpoint track, staging only what changed', () => {
  it('gives exactly the tree a full add -A gives, through every change shape', async () => {
    const ws = tempDir('agentgate-cp-shapes-');
    writeFiles(ws, {
      'keep.txt': 'k\n',
      'edit.txt': 'e\n',
      'gone.txt': 'g\n',
      'old.txt': 'rename me\n',
      'd/f.txt': 'f\n',
      'x/y.txt': 'y\n',
      'exec.sh': 'echo\n',
      'to-dir': 'file\n',
    });
    const cp = await openCheckpoints(ws);
    await cp.track();
    const oracleTree = (): string => {
      const gitDir = tempDir('agentgate-cp-oracle-');
      git(gitDir, ['init', '-q', '--bare']);
      const env = { GIT_DIR: gitDir, GIT_WORK_TREE: ws, GIT_INDEX_FILE: join(gitDir, 'fresh-index') };
      git(ws, ['add', '-A'], { env: { ...process.env, ...env } });
      return git(ws, ['write-tree'], { env: { ...process.env, ...env } });
    };
    const steps: Array<() => void> = [
      () => writeFiles(ws, { 'edit.txt': 'e2\n', 'new/deep/n.txt': 'n\n' }),
      () => {
        unlinkSync(join(ws, 'gone.txt'));
        renameSync(join(ws, 'old.txt'), join(ws, 'new.txt'));
        chmodSync(join(ws, 'exec.sh'), 0o755);
      },
      () => {
        rmSync(join(ws, 'd'), { recursive: true });
        symlinkSync('x', join(ws, 'd'));
      },
      () => {
        unlinkSync(join(ws, 'to-dir'));
        writeFiles(ws, { 'to-dir/inside.txt': 'i\n' });
      },
      () => {
        rmSync(join(ws, 'x'), { recursive: true });
        writeFiles(ws, { x: 'now a file\n' });
      },
    ];
    for (const step of steps) {
      step();
      expect((await cp.track()).hash).toBe(oracleTree());
    }
  });
});
