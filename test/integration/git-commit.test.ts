import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import { createSnapshotCommit } from '../../src/git/commit.js';
import { openRepo } from '../../src/git/repo.js';
import {
  commitAll,
  git,
  gitRaw,
  head,
  initRepo,
  repoWithCommit,
  tempDir,
  writeFiles,
} from '../helpers/repo.js';

const SHA = /^[0-9a-f]{40}$/;
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
const lsTree = (dir: string, rev: string): string[] =>
  git(dir, ['ls-tree', '-r', '--name-only', rev]).split('\n').filter(Boolean);

describe('createSnapshotCommit', () => {
  it('makes the root commit on an unborn branch', async () => {
    const dir = initRepo();
    writeFiles(dir, { 'a.txt': 'a\n', 'dir/b.txt': 'b\n' });
    const result = await createSnapshotCommit(await openRepo(dir), 'first snapshot');
    expect(result).toMatchObject({ parent: null, parentTree: null, created: true, ref: 'refs/heads/main' });
    expect(result.sha).toMatch(SHA);
    expect(head(dir)).toBe(result.sha);
    expect(git(dir, ['rev-list', '--parents', '-n1', 'HEAD'])).toBe(result.sha);
    expect(git(dir, ['rev-parse', 'HEAD^{tree}'])).toBe(result.tree);
    expect(lsTree(dir, 'HEAD')).toEqual(['a.txt', 'dir/b.txt']);
    expect(gitRaw(dir, ['cat-file', 'commit', 'HEAD']).toString()).toMatch(/\n\nfirst snapshot\n$/);
    expect(git(dir, ['status', '--porcelain'])).toBe('');
  });

  it('makes a root commit of an empty tree too, so that a sha always comes back', async () => {
    const dir = initRepo();
    const result = await createSnapshotCommit(await openRepo(dir), '');
    expect(result.created).toBe(true);
    expect(result.sha).toMatch(SHA);
    expect(lsTree(dir, 'HEAD')).toEqual([]);
  });

  it('commits every change (edit, add, delete) on top of HEAD but never ignored files', async () => {
    const dir = repoWithCommit({ '.gitignore': '*.log\n', 'keep.txt': 'k\n', 'gone.txt': 'g\n' });
    const before = head(dir);
    const beforeTree = git(dir, ['rev-parse', 'HEAD^{tree}']);
    writeFiles(dir, { 'keep.txt': 'changed\n', 'new file.txt': 'n\n', 'debug.log': 'noise' });
    rmSync(join(dir, 'gone.txt'));
    const result = await createSnapshotCommit(await openRepo(dir), 'snap\n\nbody');
    expect(result).toMatchObject({ parent: before, parentTree: beforeTree, created: true });
    expect(git(dir, ['rev-parse', 'HEAD^'])).toBe(before);
    expect(lsTree(dir, 'HEAD')).toEqual(['.gitignore', 'keep.txt', 'new file.txt']);
    expect(git(dir, ['show', 'HEAD:keep.txt'])).toBe('changed');
  });

  it('creates nothing when the tree equals HEAD', async () => {
    const dir = repoWithCommit();
    const before = head(dir);
    const result = await createSnapshotCommit(await openRepo(dir), 'nothing');
    expect(result).toEqual({
      sha: before,
      tree: git(dir, ['rev-parse', 'HEAD^{tree}']),
      parent: before,
      parentTree: git(dir, ['rev-parse', 'HEAD^{tree}']),
      created: false,
      ref: 'refs/heads/main',
      skipped: [],
    });
    expect(head(dir)).toBe(before);
  });

  it('moves a detached HEAD and no branch', async () => {
    const dir = repoWithCommit();
    const main = head(dir);
    git(dir, ['checkout', '-q', '--detach']);
    writeFiles(dir, { 'x.txt': 'x\n' });
    const result = await createSnapshotCommit(await openRepo(dir), 'detached');
    expect(result).toMatchObject({ parent: main, created: true, ref: 'HEAD' });
    expect(head(dir)).toBe(result.sha);
    expect(git(dir, ['rev-parse', 'refs/heads/main'])).toBe(main);
    expect(() => git(dir, ['symbolic-ref', '-q', 'HEAD'], { stdio: 'pipe' })).toThrow(); // still detached
  });

  it('throws CONCURRENT_UPDATE and moves nothing when the branch is no longer where the caller expected', async () => {
    const dir = repoWithCommit();
    const first = head(dir);
    writeFiles(dir, { 'b.txt': 'b\n' });
    const second = commitAll(dir, 'moved by someone else');
    writeFiles(dir, { 'c.txt': 'c\n' });
    await expect(
      createSnapshotCommit(await openRepo(dir), 'late', { expectedHead: first }),
    ).rejects.toMatchObject({
      code: 'CONCURRENT_UPDATE',
      details: { ref: 'refs/heads/main', expected: first, actual: second },
    });
    expect(head(dir)).toBe(second);
  });

  it('never stages excluded paths, given relative or absolute, and reads them literally', async () => {
    const dir = repoWithCommit();
    writeFiles(dir, {
      '.agentgate/artifacts/patch.diff': 'p',
      'out*/x.txt': 'x',
      'outside/y.txt': 'y',
      'src/a.ts': 'a',
    });
    const repo = await openRepo(dir);
    const result = await createSnapshotCommit(repo, 'excludes', {
      excludes: [join(repo.topLevel, '.agentgate', 'artifacts'), 'out*/', tempDir()],
    });
    expect(lsTree(dir, result.sha)).toEqual(['README.md', 'outside/y.txt', 'src/a.ts']);
    await expect(createSnapshotCommit(repo, 'all', { excludes: ['.'] })).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('fails with INDEX_LOCKED, and commits nothing, when staging meets a held index.lock', async () => {
    const dir = repoWithCommit();
    const before = head(dir);
    writeFiles(dir, { 'x.txt': 'x\n' });
    writeFileSync(join(dir, '.git', 'index.lock'), '');
    await expect(createSnapshotCommit(await openRepo(dir), 'blocked')).rejects.toMatchObject({
      code: 'INDEX_LOCKED',
    });
    expect(head(dir)).toBe(before);
  });

  describe('with a hostile global config', () => {
    const saved = { HOME: process.env.HOME, GIT_CONFIG_GLOBAL: process.env.GIT_CONFIG_GLOBAL };
    afterEach(() => {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    });

    it('commits without signing and with our identity when commit.gpgsign=true and no user is configured', async () => {
      const home = tempDir('agentgate-home-');
      const markers = tempDir('agentgate-markers-');
      const gpg = join(home, 'fake-gpg');
      writeFileSync(gpg, `#!/bin/sh\ntouch '${markers}/gpg'\nexit 1\n`, { mode: 0o755 });
      const config = `[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = ${gpg}\n[user]\n\tuseConfigOnly = true\n`;
      writeFileSync(join(home, '.gitconfig'), config);
      process.env.HOME = home;
      process.env.GIT_CONFIG_GLOBAL = join(home, '.gitconfig');
      const dir = initRepo();
      git(dir, ['config', 'commit.gpgsign', 'true']);
      writeFiles(dir, { 'a.txt': 'a\n' });
      // Control: plain git with this environment cannot commit at all.
      expect(() =>
        execFileSync('git', ['commit-tree', '-m', 'x', EMPTY_TREE], {
          cwd: dir,
          env: process.env,
          stdio: 'pipe',
        }),
      ).toThrow();
      const result = await createSnapshotCommit(await openRepo(dir), 'signed?');
      const raw = gitRaw(dir, ['cat-file', 'commit', result.sha]).toString();
      expect(raw).not.toMatch(/^gpgsig/m);
      expect(raw).toContain(`author ${DEFAULT_IDENTITY.name} <${DEFAULT_IDENTITY.email}>`);
      expect(head(dir)).toBe(result.sha);
      expect(readdirSync(markers)).toEqual([]);
    });
  });
});
