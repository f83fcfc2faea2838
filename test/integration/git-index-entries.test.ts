import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../src/fs/path-bytes.js';
import { readIndexEntries, readIndexStat } from '../../src/git/index-entries.js';
import { parseIndexStat } from '../../src/git/parsers/ls-files-debug.js';
import { GITLINK_MODE, parseIndexEntries, type IndexEntry } from '../../src/git/parsers/ls-files-tagged.js';
import { openRepo } from '../../src/git/repo.js';
import { gitCallCount, runGitBuffer } from '../../src/git/runner.js';
import { git, gitRaw, initRepo, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** What oracle git lists for the index of the work tree at `dir`. */
const oracle = (dir: string) => parseIndexEntries(decodeBytes(gitRaw(dir, ['ls-files', '-z', '-v', '-s'])));

/** The fields ls-files -v -s gives (the file's reader adds the cached times). */
const listed = (entries: readonly IndexEntry[]) =>
  entries.map(({ tag, mode, oid, path }) => ({ tag, mode, oid, path }));

/** A repository whose index holds every kind of mark, a link, a submodule's commit and a conflict. */
function markedRepo(dir = initRepo()): string {
  writeFiles(dir, { 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n', 'sub/d.txt': 'd\n', 'e.txt': 'e\n' });
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '-m', 'base']);
  git(dir, ['update-index', '--assume-unchanged', 'a.txt']);
  git(dir, ['update-index', '--skip-worktree', 'b.txt', 'sub/d.txt']);
  writeFiles(dir, { 'new.txt': 'n\n' });
  git(dir, ['add', '-N', 'new.txt']);
  const headSha = git(dir, ['rev-parse', 'HEAD']).trim();
  git(dir, ['update-index', '--add', '--cacheinfo', `${GITLINK_MODE},${headSha},vendor/lib`]);
  const blob = git(dir, ['rev-parse', 'HEAD:e.txt']).trim();
  git(dir, ['update-index', '--index-info'], {
    input: `0 ${'0'.repeat(blob.length)}\te.txt\n100644 ${blob} 1\te.txt\n100644 ${blob} 2\te.txt\n`,
  });
  return dir;
}

describe('readIndexEntries: the index file read without git', () => {
  it('lists what ls-files -v -s lists, marks, gitlinks and stages included, and starts no git', async () => {
    const dir = markedRepo();
    const repo = await openRepo(dir);
    const calls = gitCallCount();
    const all = await readIndexEntries(repo);
    const marked = await readIndexEntries(repo, 'marked');
    expect(gitCallCount() - calls).toBe(0);
    expect(listed(all)).toEqual(oracle(dir));
    expect(new Set(all.map((e) => e.tag))).toEqual(new Set(['H', 'h', 'S', 'M']));
    expect(marked.map((e) => e.path)).toEqual([
      'a.txt',
      'b.txt',
      'e.txt',
      'e.txt',
      'sub/d.txt',
      'vendor/lib',
    ]);
  });

  it.each([
    ['version 4', (dir: string): unknown => git(dir, ['update-index', '--index-version', '4'])],
    ['SHA-256', (dir: string): unknown => void dir, ['--object-format=sha256']],
  ])('reads an index of %s', async (_, change, init = []) => {
    const dir = tempDir('agentgate-repo-');
    git(dir, ['init', '-q', '-b', 'main', ...init]);
    markedRepo(dir);
    change(dir);
    const repo = await openRepo(dir);
    const calls = gitCallCount();
    expect(listed(await readIndexEntries(repo))).toEqual(oracle(dir));
    expect(gitCallCount() - calls).toBe(0);
  });

  it("reads a linked worktree's own index, not the main one", async () => {
    const dir = markedRepo();
    const other = join(tempDir('agentgate-wt-'), 'wt');
    git(dir, ['worktree', 'add', '-q', '--detach', other]);
    git(other, ['update-index', '--assume-unchanged', 'c.txt']);
    const entries = await readIndexEntries(await openRepo(other), 'marked');
    expect(listed(entries)).toEqual(oracle(other).filter((e) => e.tag !== 'H' || e.mode === GITLINK_MODE));
    expect(entries.map((e) => e.path)).toEqual(['c.txt']);
  });

  it('asks git for a split index, and for a repository with no index yet', async () => {
    const dir = markedRepo();
    git(dir, ['update-index', '--split-index']);
    writeFiles(dir, { 'f.txt': 'f\n' });
    git(dir, ['add', 'f.txt']);
    const repo = await openRepo(dir);
    let calls = gitCallCount();
    expect(listed(await readIndexEntries(repo))).toEqual(oracle(dir));
    expect(gitCallCount() - calls).toBe(1);

    const fresh = await openRepo(initRepo());
    calls = gitCallCount();
    expect(await readIndexEntries(fresh)).toEqual([]);
    expect(gitCallCount() - calls).toBe(1);
  });

  it('readIndexStat: the seconds of the cached ctime and mtime, as ls-files --debug gives them', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n', 'b.txt': 'b\n' });
    const debug = parseIndexStat(decodeBytes(gitRaw(dir, ['ls-files', '-z', '-v', '-s', '--debug'])));
    const read = await readIndexStat(await openRepo(dir));
    expect(read.map(({ path, ctime, mtime }) => ({ path, ctime, mtime }))).toEqual(
      debug.map(({ path, ctime, mtime }) => ({ path, ctime, mtime })),
    );
  });
});

describe('an index whose offset table (IEOT) is forged', () => {
  it('our git reads its entries in order, as our reader does, whatever index.threads the repository sets', async () => {
    const dir = initRepo();
    git(dir, ['config', 'index.threads', '4']);
    const bytes = readFileSync(new URL('../../fixtures/git-index/v4-ieot.index', import.meta.url));
    // The table's second block is pointed at the first: git's threads would load the first block twice.
    const table = bytes.indexOf('IEOT') + 8;
    bytes.writeUInt32BE(bytes.readUInt32BE(table + 4), table + 4 + 8);
    writeFileSync(join(dir, '.git', 'index'), bytes);
    const inOrder = parseIndexEntries(
      decodeBytes(gitRaw(dir, ['-c', 'index.threads=1', 'ls-files', '-z', '-v', '-s'])),
    );
    const threaded = parseIndexEntries(decodeBytes(gitRaw(dir, ['ls-files', '-z', '-v', '-s'])));
    expect(threaded).not.toEqual(inOrder);

    const repo = await openRepo(dir);
    expect(listed(await readIndexEntries(repo))).toEqual(inOrder);
    const ours = await runGitBuffer(repo, ['ls-files', '-z', '-v', '-s']);
    expect(parseIndexEntries(decodeBytes(ours.stdout))).toEqual(inOrder);
  });
});
