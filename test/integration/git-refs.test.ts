import { describe, expect, it } from 'vitest';
import { openRepo, type Repo } from '../../src/git/repo.js';
import {
  deleteRef,
  deleteRefs,
  getTree,
  isAncestor,
  listRefs,
  objectExists,
  readHead,
  resolveRevision,
  updateRef,
  updateRefs,
} from '../../src/git/refs.js';
import { switchToBranch } from '../../src/git/branches.js';
import { commitAll, git, head, initRepo, repoWithCommit, writeFiles } from '../helpers/repo.js';

/** A repository with two commits on main and an annotated tag on the first. */
async function twoCommits(): Promise<{ dir: string; repo: Repo; first: string; second: string }> {
  const dir = repoWithCommit();
  const first = head(dir);
  git(dir, ['tag', '-a', '-m', 'v1', 'v1']);
  writeFiles(dir, { 'b.txt': 'b\n' });
  const second = commitAll(dir, 'second');
  return { dir, repo: await openRepo(dir), first, second };
}

describe('refs', () => {
  it('resolves full and abbreviated ids, names, tags and expressions to full ids', async () => {
    const { dir, repo, first, second } = await twoCommits();
    expect(await resolveRevision(repo, second)).toBe(second);
    expect(await resolveRevision(repo, second.slice(0, 7))).toBe(second);
    expect(await resolveRevision(repo, 'main')).toBe(second);
    expect(await resolveRevision(repo, 'HEAD~1')).toBe(first);
    expect(await resolveRevision(repo, 'v1')).toBe(first);
    expect(await resolveRevision(repo, 'v1', 'none')).toBe(git(dir, ['rev-parse', 'refs/tags/v1']));
    expect(await getTree(repo, 'v1')).toBe(git(dir, ['rev-parse', `${first}^{tree}`]));
    await expect(resolveRevision(repo, 'no-such-branch')).rejects.toMatchObject({
      code: 'REVISION_NOT_FOUND',
    });
    await expect(resolveRevision(repo, 'HEAD:README.md')).rejects.toMatchObject({
      code: 'REVISION_NOT_FOUND',
      details: { type: 'blob' },
    });
    await expect(resolveRevision(repo, '--all')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    // `:/text` searches messages: git reads the whole rest as the text, so it is peeled apart.
    const message = git(dir, ['log', '-1', '--format=%s', first]);
    expect(await resolveRevision(repo, `:/${message}`)).toBe(first);
    expect(await getTree(repo, `:/${message}`)).toBe(git(dir, ['rev-parse', `${first}^{tree}`]));
    // A revision git cannot even look up: no upstream is configured.
    await expect(resolveRevision(repo, 'HEAD@{u}')).rejects.toMatchObject({ code: 'REVISION_NOT_FOUND' });
  });

  it('reads HEAD on a branch, detached and unborn', async () => {
    const { dir, repo, second } = await twoCommits();
    expect(await readHead(repo)).toEqual({ ref: 'refs/heads/main', sha: second });
    git(dir, ['checkout', '-q', '--detach']);
    expect(await readHead(repo)).toEqual({ ref: null, sha: second });
    expect(await readHead(await openRepo(initRepo()))).toEqual({ ref: 'refs/heads/main', sha: null });
  });

  it('answers ancestry and object existence', async () => {
    const { repo, first, second } = await twoCommits();
    expect(await isAncestor(repo, first, second)).toBe(true);
    expect(await isAncestor(repo, second, first)).toBe(false);
    expect(await isAncestor(repo, second, second)).toBe(true);
    expect(await objectExists(repo, first)).toBe(true);
    expect(await objectExists(repo, '0123456789012345678901234567890123456789')).toBe(false);
    await expect(objectExists(repo, first.slice(0, 10))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('creates, moves and deletes refs only by compare-and-swap, and lists them', async () => {
    const { dir, repo, first, second } = await twoCommits();
    await updateRef(repo, 'refs/agentgate/b', second, null);
    await updateRef(repo, 'refs/agentgate/a', first, null);
    await expect(updateRef(repo, 'refs/agentgate/a', second, null)).rejects.toMatchObject({
      code: 'CONCURRENT_UPDATE',
      details: { actual: first },
    });
    await expect(updateRef(repo, 'refs/agentgate/a', second, second)).rejects.toMatchObject({
      code: 'CONCURRENT_UPDATE',
    });
    await updateRef(repo, 'refs/agentgate/a', second, first);
    await updateRef(repo, 'refs/agentgate/a', first, null, { force: true });
    expect(await listRefs(repo, 'refs/agentgate/')).toEqual([
      { ref: 'refs/agentgate/a', sha: first },
      { ref: 'refs/agentgate/b', sha: second },
    ]);
    await expect(deleteRef(repo, 'refs/agentgate/a', second)).rejects.toMatchObject({
      code: 'CONCURRENT_UPDATE',
    });
    await deleteRef(repo, 'refs/agentgate/a', first);
    await deleteRef(repo, 'refs/agentgate/b');
    expect(await listRefs(repo, 'refs/agentgate/')).toEqual([]);
    expect(git(dir, ['for-each-ref', 'refs/agentgate/'])).toBe('');
    await expect(updateRef(repo, 'agentgate/x', first, null)).rejects.toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
  });

  it('switches HEAD to a branch without touching files or index: created when missing, taken when at HEAD, refused elsewhere', async () => {
    const { dir, repo, first, second } = await twoCommits();
    git(dir, ['checkout', '-q', '--detach']);
    writeFiles(dir, { 'b.txt': 'uncommitted\n' });
    const index = git(dir, ['ls-files', '-s']);
    await switchToBranch(repo, 'agentgate/run-1', second);
    expect(git(dir, ['symbolic-ref', 'HEAD'])).toBe('refs/heads/agentgate/run-1');
    expect(head(dir)).toBe(second);
    expect(git(dir, ['ls-files', '-s'])).toBe(index);
    expect(git(dir, ['status', '--porcelain'])).toBe(' M b.txt');
    await switchToBranch(repo, 'agentgate/run-1', second); // already there: nothing to do
    await switchToBranch(repo, 'main', second); // exists at HEAD's commit: taken as it is
    expect(await readHead(repo)).toEqual({ ref: 'refs/heads/main', sha: second });
    git(dir, ['branch', 'old', first]);
    await expect(switchToBranch(repo, 'old', second)).rejects.toMatchObject({
      code: 'BRANCH_EXISTS',
      details: { branchSha: first, headSha: second },
    });
    for (const bad of ['bad..name', 'HEAD', '-f', 'no spaces'])
      await expect(switchToBranch(repo, bad, second)).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(switchToBranch(repo, 'fresh', first)).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect(await readHead(repo)).toEqual({ ref: 'refs/heads/main', sha: second });
    expect(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/heads/'])).toBe(
      'refs/heads/agentgate/run-1\nrefs/heads/main\nrefs/heads/old',
    );
    expect(git(dir, ['ls-files', '-s'])).toBe(index);
  });

  it('points an unborn HEAD at the branch, which its first commit will create', async () => {
    const dir = initRepo();
    const repo = await openRepo(dir);
    await switchToBranch(repo, 'agentgate/first', null);
    expect(await readHead(repo)).toEqual({ ref: 'refs/heads/agentgate/first', sha: null });
    expect(git(dir, ['for-each-ref'])).toBe('');
  });
});

describe('updateRefs', () => {
  it('moves several refs in one transaction, and none of them when a compare-and-swap fails', async () => {
    const dir = repoWithCommit();
    const first = head(dir);
    const second = commitAll(dir, 'second');
    const repo = await openRepo(dir);
    await updateRefs(repo, [
      { ref: 'refs/agentgate/a', newSha: first, oldSha: null },
      { ref: 'refs/agentgate/b', newSha: first },
    ]);
    expect([
      git(dir, ['rev-parse', 'refs/agentgate/a']),
      git(dir, ['rev-parse', 'refs/agentgate/b']),
    ]).toEqual([first, first]);
    const lost = updateRefs(repo, [
      { ref: 'refs/agentgate/a', newSha: second, oldSha: second },
      { ref: 'refs/agentgate/b', newSha: second },
    ]);
    await expect(lost).rejects.toMatchObject({ code: 'CONCURRENT_UPDATE' });
    expect([
      git(dir, ['rev-parse', 'refs/agentgate/a']),
      git(dir, ['rev-parse', 'refs/agentgate/b']),
    ]).toEqual([first, first]);
  });

  it('writes and deletes a symbolic ref planted among our refs itself, never the branch it names', async () => {
    const { dir, repo, first, second } = await twoCommits();
    const plant = (name: string) => git(dir, ['symbolic-ref', `refs/agentgate/${name}`, 'refs/heads/main']);
    const own = (name: string) => git(dir, ['rev-parse', '--verify', `refs/agentgate/${name}`]);
    for (const name of ['many', 'one', 'cas', 'gone']) plant(name);
    await updateRefs(repo, [{ ref: 'refs/agentgate/many', newSha: first }]);
    await updateRef(repo, 'refs/agentgate/one', first, null, { force: true });
    await updateRefs(repo, [{ ref: 'refs/agentgate/cas', newSha: first, oldSha: second }]);
    await deleteRefs(repo, [{ ref: 'refs/agentgate/gone', oldSha: second }]);
    expect(git(dir, ['rev-parse', 'main'])).toBe(second);
    expect([own('many'), own('one'), own('cas')]).toEqual([first, first, first]);
    // None of them symbolic now (an empty %(symref)), and the deleted one gone.
    const listed = git(dir, ['for-each-ref', '--format=%(refname)|%(symref)', 'refs/agentgate/']);
    expect(listed.split('\n')).toEqual([
      'refs/agentgate/cas|',
      'refs/agentgate/many|',
      'refs/agentgate/one|',
    ]);
  });
});
