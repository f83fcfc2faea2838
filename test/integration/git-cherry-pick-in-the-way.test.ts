import { appendFileSync, mkdirSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cherryPick } from '../../src/git/cherry-pick.js';
import { openRepo } from '../../src/git/repo.js';
import { okIn, cliIn } from '../helpers/cli.js';
import { commitAll, git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { fingerprint } from '../helpers/snapshotter.js';

/** Makes `paths` ignored through `.git/info/exclude` (nothing in the tree says so). */
function ignore(dir: string, ...paths: string[]): void {
  appendFileSync(join(dir, '.git', 'info', 'exclude'), paths.map((p) => `/${p}\n`).join(''));
}

/**
 * main: base -> main edit of n.txt. feature (from base): one commit that rewrites n.txt (a
 * conflict on main) or not, and adds `files`. Returns the repository and that commit.
 */
function featureRepo(files: Record<string, string>, clash: boolean): { dir: string; pick: string } {
  const dir = repoWithCommit({ 'n.txt': '1\n2\n3\n', 'keep/k.txt': 'k\n' });
  git(dir, ['checkout', '-q', '-b', 'feature']);
  writeFiles(dir, { ...files, ...(clash ? { 'n.txt': '1\nAGENT\n3\n' } : {}) });
  const pick = commitAll(dir, 'feature');
  git(dir, ['checkout', '-q', 'main']);
  writeFiles(dir, { 'n.txt': '1\nMAIN\n3\n' });
  commitAll(dir, 'main edit');
  return { dir, pick };
}

describe('cherryPick onto the checked-out branch: what git status does not show', () => {
  for (const [clash, code] of [
    [true, 'CHERRY_PICK_CONFLICT'],
    [false, 'DIRTY_WORKSPACE'],
  ] as const) {
    it(`never overwrites an ignored file where the commit writes (${clash ? 'a conflict' : 'a clean pick'}): ${code}`, async () => {
      const { dir, pick } = featureRepo({ 'cfg.local': 'agent-version\n' }, clash);
      ignore(dir, 'cfg.local');
      writeFiles(dir, { 'cfg.local': 'my local secrets\n' });
      const print = fingerprint(dir);
      await expect(cherryPick(await openRepo(dir), pick)).rejects.toMatchObject({
        code,
        details: clash ? { files: ['n.txt'] } : { paths: ['cfg.local'] },
      });
      expect(readFileSync(join(dir, 'cfg.local'), 'utf8')).toBe('my local secrets\n');
      expect(fingerprint(dir)).toBe(print);
    });
  }

  it('picks a change to tracked files (one in a directory) onto the checked-out branch: they are in the index, not in the way', async () => {
    const dir = repoWithCommit({ 'n.txt': '1\n2\n3\n', 'keep/k.txt': 'k\n' });
    git(dir, ['checkout', '-q', '-b', 'feature']);
    writeFiles(dir, { 'n.txt': '1\n2\nFEATURE\n', 'keep/k.txt': 'k2\n' });
    const pick = commitAll(dir, 'feature');
    git(dir, ['checkout', '-q', 'main']);
    const info = await cherryPick(await openRepo(dir), pick);
    expect(head(dir)).toBe(info.sha);
    expect(readFileSync(join(dir, 'n.txt'), 'utf8')).toBe('1\n2\nFEATURE\n');
    expect(readFileSync(join(dir, 'keep', 'k.txt'), 'utf8')).toBe('k2\n');
  });

  it('looks where the merge puts a file: into a directory HEAD renamed (merge.directoryRenames=true)', async () => {
    const dir = repoWithCommit({ 'a/x.txt': 'x\n', 'a/y.txt': 'y\n' });
    git(dir, ['checkout', '-q', '-b', 'feature']);
    writeFiles(dir, { 'a/new.txt': 'new\n' });
    const pick = commitAll(dir, 'add a/new.txt');
    git(dir, ['checkout', '-q', 'main']);
    git(dir, ['mv', 'a', 'b']);
    git(dir, ['commit', '-qm', 'rename a to b']);
    git(dir, ['config', 'merge.directoryRenames', 'true']);
    ignore(dir, 'b/new.txt');
    writeFiles(dir, { 'b/new.txt': 'ignored\n' });
    const print = fingerprint(dir);
    await expect(cherryPick(await openRepo(dir), pick)).rejects.toMatchObject({
      code: 'DIRTY_WORKSPACE',
      details: { paths: ['b/new.txt'] },
    });
    expect(fingerprint(dir)).toBe(print);
    // With the default (a conflict there), it is a conflict, and the file stays too.
    git(dir, ['config', '--unset', 'merge.directoryRenames']);
    await expect(cherryPick(await openRepo(dir), pick)).rejects.toMatchObject({
      code: 'CHERRY_PICK_CONFLICT',
    });
    expect(fingerprint(dir)).toBe(print);
  });

  it('names an ignored file where the commit needs a directory, and ignored files inside a directory where it writes a file', async () => {
    const { dir, pick } = featureRepo({ 'd/y.txt': 'y\n', e: 'file now\n', 'keep/new.txt': 'n\n' }, false);
    ignore(dir, 'd', 'e');
    writeFiles(dir, { d: 'ignored file\n', 'e/secret.txt': 'ignored in a directory\n' });
    const before = head(dir);
    await expect(cherryPick(await openRepo(dir), pick)).rejects.toMatchObject({
      code: 'DIRTY_WORKSPACE',
      details: { paths: ['d', 'e'] },
    });
    expect(head(dir)).toBe(before);
    expect(readFileSync(join(dir, 'd'), 'utf8')).toBe('ignored file\n');
    expect(readFileSync(join(dir, 'e', 'secret.txt'), 'utf8')).toBe('ignored in a directory\n');
  });

  it('goes ahead when ignored files lie elsewhere, or in a directory the commit adds a new file to', async () => {
    const { dir, pick } = featureRepo({ 'build/new.txt': 'n\n' }, false);
    ignore(dir, 'build', 'other.log');
    writeFiles(dir, { 'build/old.o': 'object\n', 'other.log': 'log\n' });
    const info = await cherryPick(await openRepo(dir), pick);
    expect(head(dir)).toBe(info.sha);
    expect(readFileSync(join(dir, 'build', 'old.o'), 'utf8')).toBe('object\n');
    expect(readFileSync(join(dir, 'other.log'), 'utf8')).toBe('log\n');
  });

  for (const mark of ['--assume-unchanged', '--skip-worktree']) {
    it(`refuses a local change to a file marked ${mark} (DIRTY_WORKSPACE), and picks once it is undone`, async () => {
      const { dir, pick } = featureRepo({ 'x.txt': 'x\n' }, false);
      git(dir, ['update-index', mark, 'n.txt']);
      writeFiles(dir, { 'n.txt': 'LOCAL\n' });
      const before = head(dir);
      await expect(cherryPick(await openRepo(dir), pick)).rejects.toMatchObject({
        code: 'DIRTY_WORKSPACE',
        details: { paths: ['n.txt'] },
      });
      expect(head(dir)).toBe(before);
      expect(readFileSync(join(dir, 'n.txt'), 'utf8')).toBe('LOCAL\n');
      // Marked but holding the index's content: nothing would be lost.
      writeFiles(dir, { 'n.txt': '1\nMAIN\n3\n' });
      await cherryPick(await openRepo(dir), pick);
      expect(git(dir, ['rev-parse', 'HEAD~1'])).toBe(before);
    });
  }

  it("a marked file with the index's content but stale stat data, which the pick rewrites: git's refusal is DIRTY_WORKSPACE", async () => {
    const { dir, pick } = featureRepo({ 'keep/k.txt': 'picked\n' }, false);
    git(dir, ['update-index', '--assume-unchanged', 'keep/k.txt']);
    utimesSync(join(dir, 'keep', 'k.txt'), new Date(2001, 0, 1), new Date(2001, 0, 1));
    const print = fingerprint(dir);
    await expect(cherryPick(await openRepo(dir), pick)).rejects.toMatchObject({
      code: 'DIRTY_WORKSPACE',
      details: { paths: ['keep/k.txt'] },
    });
    expect(fingerprint(dir)).toBe(print);
  });

  it('the CLI: a conflicting snapshot over an ignored file is CHERRY_PICK_CONFLICT and the file stays', () => {
    const ws = repoWithCommit({ 'n.txt': '1\n2\n3\n' });
    const home = join(tempDir(), 'home');
    mkdirSync(home);
    okIn(ws, home, ['before', '--run', 'r', '--branch', 'agent']);
    writeFiles(ws, { 'n.txt': '1\nAGENT\n3\n', 'cfg.local': 'agent-version\n' });
    const snap = okIn<{ id: string }>(ws, home, ['after', '--run', 'r', '--iteration', '1']);
    git(ws, ['checkout', '-q', 'main']);
    writeFiles(ws, { 'n.txt': '1\nMAIN\n3\n' });
    commitAll(ws, 'main');
    ignore(ws, 'cfg.local');
    writeFiles(ws, { 'cfg.local': 'my local secrets\n' });
    const res = cliIn(ws, home, ['cherry-pick', snap.id]);
    expect(res.status).toBe(1);
    expect(res.json()).toMatchObject({
      error: { code: 'CHERRY_PICK_CONFLICT', details: { files: ['n.txt'] } },
    });
    expect(readFileSync(join(ws, 'cfg.local'), 'utf8')).toBe('my local secrets\n');
  });
});
