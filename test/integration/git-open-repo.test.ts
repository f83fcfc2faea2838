/**
 * openRepo reads the repository's driver names while rev-parse runs, from the `.git` directory it
 * expects; whatever git then reports, the drivers of the config git really uses are switched off.
 */
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openRepo } from '../../src/git/repo.js';
import { gitCallCount } from '../../src/git/runner.js';
import { git, repoWithCommit, tempDir } from '../helpers/repo.js';

/** Key and value apart: a name holding `=` (the second filter) stays whole. */
const NEUTRALISED = [
  ['filter.armed.clean', ''],
  ['filter.armed.smudge', ''],
  ['filter.armed.process', ''],
  ['filter.x=y.clean', ''],
  ['filter.x=y.required', 'false'],
];

let opened = 0;

/** Each config is another text (`armed.n`): a text read before costs no git process (configEntries). */
function armed(dir: string): string {
  git(dir, ['config', 'armed.n', String(++opened)]);
  git(dir, ['config', 'filter.armed.clean', 'touch /never']);
  git(dir, ['config', 'filter.x=y.clean', 'touch /never']);
  return dir;
}

describe('openRepo', () => {
  it('at the top level: two git processes, the config read while rev-parse runs', async () => {
    const dir = armed(repoWithCommit());
    const calls = gitCallCount();
    const repo = await openRepo(dir);
    expect(gitCallCount() - calls).toBe(2);
    expect(repo.topLevel).toBe(realpathSync(dir));
    expect(repo.config).toEqual(expect.arrayContaining(NEUTRALISED));
  });

  it('opened again unchanged: the config text is not read by git again; changed, it is', async () => {
    const dir = armed(repoWithCommit());
    await openRepo(dir);
    let calls = gitCallCount();
    expect((await openRepo(dir)).config).toEqual(expect.arrayContaining(NEUTRALISED));
    expect(gitCallCount() - calls).toBe(1);
    git(dir, ['config', 'filter.later.clean', 'touch /never']);
    calls = gitCallCount();
    expect((await openRepo(dir)).config).toEqual(expect.arrayContaining([['filter.later.clean', '']]));
    expect(gitCallCount() - calls).toBe(2);
  });

  it('from a subdirectory: nothing is guessed, the drivers are still found', async () => {
    const dir = armed(repoWithCommit());
    mkdirSync(join(dir, 'sub'));
    const calls = gitCallCount();
    const repo = await openRepo(join(dir, 'sub'));
    expect(gitCallCount() - calls).toBe(2);
    expect(repo.topLevel).toBe(realpathSync(dir));
    expect(repo.config).toEqual(expect.arrayContaining(NEUTRALISED));
  });

  it('a linked worktree: the shared config is read, not the guessed .git', async () => {
    const main = armed(repoWithCommit());
    const linked = join(tempDir('agentgate-linked-'), 'wt');
    git(main, ['worktree', 'add', '-q', '-b', 'side', linked]);
    const repo = await openRepo(linked);
    expect(repo.topLevel).toBe(realpathSync(linked));
    expect(repo.config).toEqual(expect.arrayContaining(NEUTRALISED));
  });

  it('a .git directory git does not take for a repository is never trusted', async () => {
    // inner/.git holds only a config: git walks up to the outer repository, which we refuse.
    const outer = armed(repoWithCommit());
    const inner = join(outer, 'inner');
    mkdirSync(join(inner, '.git'), { recursive: true });
    writeFileSync(join(inner, '.git', 'config'), '[core]\n\tbare = false\n');
    await expect(openRepo(inner)).rejects.toMatchObject({ code: 'UNSAFE_WORKSPACE' });
  });
});

describe('openRepo of a path with a line break', () => {
  it('reads the top level and git dir whole (rev-parse is asked one question at a time)', async () => {
    const dir = join(tempDir('agentgate-nl-'), 'x\ny');
    mkdirSync(dir);
    git(dir, ['init', '-q', '-b', 'main']);
    const repo = await openRepo(dir);
    expect(repo.topLevel).toBe(realpathSync(dir));
    expect(repo.gitDir).toBe(join(realpathSync(dir), '.git'));
  });
});

describe('openRepo of a .git that takes another repository for its own', () => {
  it('a commondir file in a .git directory, or a .git symlink to another checkout, is UNSAFE_WORKSPACE', async () => {
    const victim = repoWithCommit({ 'v.txt': 'victim\n' });
    const planted = repoWithCommit();
    writeFileSync(join(planted, '.git', 'commondir'), `${join(victim, '.git')}\n`);
    await expect(openRepo(planted)).rejects.toMatchObject({ code: 'UNSAFE_WORKSPACE' });
    const linked = join(tempDir('agentgate-link-'), 'ws');
    mkdirSync(linked);
    symlinkSync(join(victim, '.git'), join(linked, '.git'));
    await expect(openRepo(linked)).rejects.toMatchObject({ code: 'UNSAFE_WORKSPACE' });
  });
});
