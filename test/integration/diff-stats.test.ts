// getDiffStats and the patch functions at their edges: root commits, identical trees, any
// tree-ish, error codes, sha256 repositories, and hostile repository config that must not change
// (or run anything during) what we produce.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getDiffStats } from '../../src/git/diff-stats.js';
import { emptyTreeId } from '../../src/git/empty-tree.js';
import { openRepo } from '../../src/git/repo.js';
import { gitCallCount } from '../../src/git/runner.js';
import { generateUnifiedDiff, unifiedDiff, writeUnifiedDiffToFile } from '../../src/git/unified-diff.js';
import { commitAll, git, gitRaw, initRepo, repoWithCommit, tempDir } from '../helpers/repo.js';
import { fsx, lines, oracleChanges, treeAfterApply, treeOf } from '../helpers/diff-oracle.js';

const code = (c: string) => expect.objectContaining({ code: c });

describe('getDiffStats / unified diff edges', () => {
  it('ignores diff.renameLimit and diff.suppressBlankEmpty: stats and patch stay what git gives by default', async () => {
    const dir = initRepo();
    fsx.write(dir, 'f.txt', `${lines('f', 20)}\n${lines('g', 2)}`);
    fsx.write(dir, 'h.txt', lines('h', 40));
    const base = commitAll(dir, 'base');
    git(dir, ['mv', 'f.txt', 'f2.txt']);
    git(dir, ['mv', 'h.txt', 'h2.txt']);
    fsx.write(dir, 'f2.txt', `${lines('f', 20)}\n${lines('g', 1)}`);
    fsx.write(dir, 'h2.txt', lines('h', 41));
    const next = commitAll(dir, 'renames with edits');
    const repo = await openRepo(dir);
    const plain = { stats: await getDiffStats(repo, base, next), patch: await unifiedDiff(repo, base, next) };
    expect(plain.stats.files.map((f) => f.status)).toEqual(['renamed', 'renamed']);
    expect(plain.patch).toMatch(/^ $/m); // the blank context line keeps its space
    git(dir, ['config', 'diff.renameLimit', '1']);
    git(dir, ['config', 'diff.suppressBlankEmpty', 'true']);
    expect({
      stats: await getDiffStats(repo, base, next),
      patch: await unifiedDiff(repo, base, next),
    }).toEqual(plain);
  });

  it('diffs a root commit against the empty tree (from === null) and the patch rebuilds it from nothing', async () => {
    const dir = initRepo();
    fsx.write(dir, 'a.txt', lines('a', 3));
    fsx.write(dir, 'b.bin', Buffer.from([0, 1, 2]));
    fsx.link(dir, 'l', 'a.txt');
    const root = commitAll(dir, 'root');
    const repo = await openRepo(dir);
    const stats = await getDiffStats(repo, null, root);
    expect(stats).toMatchObject({ filesChanged: 3, insertions: 4, deletions: 0 });
    expect(stats.files).toEqual(oracleChanges(dir, null, root));
    const patch = await generateUnifiedDiff(repo, null, root, { outputFile: join(tempDir(), 'root.diff') });
    expect(treeAfterApply(dir, null, patch.path)).toBe(treeOf(dir, root));
  });

  it('gives zeros and an empty patch when both sides are the same tree', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const sha = commitAll(dir, 'empty commit, same tree');
    const repo = await openRepo(dir);
    expect(await getDiffStats(repo, 'HEAD~1', sha)).toEqual({
      filesChanged: 0,
      insertions: 0,
      deletions: 0,
      files: [],
    });
    expect(await unifiedDiff(repo, sha, sha)).toBe('');
    const patch = await writeUnifiedDiffToFile(repo, sha, sha, join(tempDir(), 'same.diff'));
    expect(patch.bytes).toBe(0);
    expect(readFileSync(patch.path, 'utf8')).toBe('');
  });

  it('costs two git processes per call however many files changed (the empty tree id is cached)', async () => {
    const files = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`f${i}.txt`, `${i}\n`]));
    const dir = repoWithCommit(files);
    for (const name of Object.keys(files)) fsx.write(dir, name, 'changed\n');
    const sha = commitAll(dir, 'change all');
    const repo = await openRepo(dir);
    await emptyTreeId(repo);
    const start = gitCallCount();
    expect((await getDiffStats(repo, 'HEAD~1', sha)).filesChanged).toBe(60);
    expect((await getDiffStats(repo, null, sha)).filesChanged).toBe(60);
    await writeUnifiedDiffToFile(repo, 'HEAD~1', sha, join(tempDir(), 'p.diff'));
    expect(gitCallCount() - start).toBe(6);
  });

  it('accepts any revision naming a commit, tag or tree', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    git(dir, ['tag', '-a', '-m', 'v1', 'v1']);
    fsx.write(dir, 'a.txt', 'b\n');
    commitAll(dir, 'second');
    const tree = treeOf(dir, 'HEAD');
    const stats = await getDiffStats(await openRepo(dir), 'v1', tree);
    expect(stats.files).toEqual([
      { path: 'a.txt', oldPath: null, status: 'modified', insertions: 1, deletions: 1, binary: false },
    ]);
  });

  it('writes to a relative path, creates missing directories and leaves no temp file', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    fsx.write(dir, 'a.txt', 'b\n');
    const sha = commitAll(dir, 'second');
    const out = tempDir();
    const cwd = process.cwd();
    process.chdir(out);
    try {
      const patch = await writeUnifiedDiffToFile(await openRepo(dir), 'HEAD~1', sha, 'deep/er/p.diff');
      expect(patch.path).toBe(join(out, 'deep/er/p.diff'));
      expect(patch.bytes).toBe(readFileSync(patch.path).length);
    } finally {
      process.chdir(cwd);
    }
    expect(readdirSync(join(out, 'deep/er'))).toEqual(['p.diff']);
  });

  it('throws REVISION_NOT_FOUND for unknown, empty, multi-line and option-like revisions', async () => {
    const dir = repoWithCommit();
    const repo = await openRepo(dir);
    const trap = join(tempDir(), 'trap');
    for (const rev of ['nope', '', 'HEAD\nHEAD', `--output=${trap}`, '-p']) {
      await expect(getDiffStats(repo, rev, 'HEAD')).rejects.toThrow(code('REVISION_NOT_FOUND'));
      await expect(unifiedDiff(repo, 'HEAD', rev)).rejects.toThrow(code('REVISION_NOT_FOUND'));
    }
    await expect(getDiffStats(repo, null, 'HEAD:README.md')).rejects.toThrow(code('REVISION_NOT_FOUND'));
    expect(existsSync(trap)).toBe(false);
  });

  it('throws AMBIGUOUS_ID for an abbreviated id that matches several objects', async () => {
    const dir = repoWithCommit();
    // 600 blobs in one process: two of them surely share a four-digit prefix.
    const stream = Array.from({ length: 600 }, (_, i) => `blob\ndata ${String(i).length + 1}\n${i}\n`).join(
      '',
    );
    gitRaw(dir, ['fast-import', '--quiet'], stream);
    const ids = git(dir, ['cat-file', '--batch-all-objects', '--batch-check=%(objectname)']).split('\n');
    const seen = new Set<string>();
    const prefix = ids.map((id) => id.slice(0, 4)).find((p) => seen.has(p) || !seen.add(p));
    expect(prefix).toBeDefined();
    await expect(getDiffStats(await openRepo(dir), prefix as string, 'HEAD')).rejects.toThrow(
      code('AMBIGUOUS_ID'),
    );
  });

  it('throws WRITE_FAILED when the patch file cannot be created, and leaves nothing behind', async () => {
    const dir = repoWithCommit();
    const out = tempDir();
    writeFileSync(join(out, 'file'), 'a regular file where a directory is needed\n');
    await expect(
      writeUnifiedDiffToFile(await openRepo(dir), null, 'HEAD', join(out, 'file', 'p.diff')),
    ).rejects.toThrow(code('WRITE_FAILED'));
    expect(readdirSync(out)).toEqual(['file']);
  });

  it('round-trips submodule pointer (gitlink) changes, which ignore settings cannot hide', async () => {
    const dir = repoWithCommit({
      '.gitmodules': '[submodule "sub"]\n\tpath = sub\n\turl = ./nowhere\n\tignore = all\n',
    });
    const link = (id: string): void => (
      git(dir, ['update-index', '--add', '--cacheinfo', `160000,${id.repeat(40)},sub`]),
      undefined
    );
    link('1');
    git(dir, ['commit', '-q', '-m', 'add gitlink']);
    const before = git(dir, ['rev-parse', 'HEAD']);
    link('2');
    git(dir, ['commit', '-q', '-m', 'move gitlink']);
    git(dir, ['config', 'diff.ignoreSubmodules', 'all']);
    const repo = await openRepo(dir);
    const stats = await getDiffStats(repo, before, 'HEAD');
    expect(stats.files).toEqual([
      { path: 'sub', oldPath: null, status: 'modified', insertions: 1, deletions: 1, binary: false },
    ]);
    const patch = await writeUnifiedDiffToFile(repo, 'HEAD~2', 'HEAD', join(tempDir(), 'p.diff'));
    expect(treeAfterApply(dir, git(dir, ['rev-parse', 'HEAD~2']), patch.path)).toBe(treeOf(dir, 'HEAD'));
  });

  it('works in a sha256 repository (the empty tree is computed, not hard-coded)', async () => {
    const dir = tempDir();
    git(dir, ['init', '-q', '--object-format=sha256', '-b', 'main']);
    fsx.write(dir, 'a.txt', lines('a', 2));
    const root = commitAll(dir, 'root');
    const repo = await openRepo(dir);
    expect(await emptyTreeId(repo)).toHaveLength(64);
    expect((await getDiffStats(repo, null, root)).files).toEqual(oracleChanges(dir, null, root));
    const patch = await writeUnifiedDiffToFile(repo, null, root, join(tempDir(), 'p.diff'));
    expect(treeAfterApply(dir, null, patch.path)).toBe(treeOf(dir, root));
  });
});

describe('hostile repository config', () => {
  it('cannot change the stats or the patch, nor run a program', async () => {
    const dir = initRepo();
    const marker = join(tempDir(), 'ran');
    fsx.write(dir, 'sub/old.txt', lines('o', 12));
    fsx.write(dir, 'sub/code.txt', lines('c', 6));
    const before = commitAll(dir, 'before');
    fsx.mv(dir, 'sub/old.txt', 'sub/new.txt');
    fsx.write(dir, 'sub/code.txt', lines('c', 6).replace('c line 2', 'changed'));
    fsx.write(dir, 'top.bin', Buffer.from([0, 1, 2, 3]));
    const after = commitAll(dir, 'after');
    // The oracle's answer, taken before the repository is armed.
    const expected = gitRaw(dir, [
      'diff-tree',
      '-r',
      '-p',
      '--binary',
      '--full-index',
      '-M',
      '-C',
      before,
      after,
    ]);
    const expectedChanges = oracleChanges(dir, before, after);

    const run = `touch '${marker}' #`;
    for (const [k, v] of [
      ['diff.noprefix', 'true'],
      ['diff.mnemonicPrefix', 'true'],
      ['diff.relative', 'true'],
      ['diff.renames', 'false'],
      ['diff.external', run],
      ['diff.evil.textconv', run],
      ['diff.evil.command', run],
      ['diff.algorithm', 'patience'],
      ['color.ui', 'always'],
      ['color.diff', 'always'],
      ['core.abbrev', '7'],
      ['diff.context', '1'],
      ['diff.orderFile', 'order'],
    ] as const)
      git(dir, ['config', k, v]);
    fsx.write(dir, 'order', 'top.bin\n');
    fsx.write(dir, '.gitattributes', '* diff=evil\n');
    fsx.write(join(dir, '.git/info'), 'attributes', '* diff=evil\n');

    const repo = await openRepo(dir);
    const inSub = { ...repo, cwd: join(dir, 'sub') };
    expect((await getDiffStats(inSub, before, after)).files).toEqual(expectedChanges);
    const patch = await writeUnifiedDiffToFile(inSub, before, after, join(tempDir(), 'p.diff'));
    expect(readFileSync(patch.path)).toEqual(expected);
    expect(await unifiedDiff(inSub, before, after)).toBe(expected.toString('utf8'));
    expect(existsSync(marker)).toBe(false);
  });
});
