import { describe, expect, it } from 'vitest';
import { CommitInfo } from '../../types/snapshot.js';
import { getCommitInfo } from '../../src/git/commit-info.js';
import { openRepo } from '../../src/git/repo.js';
import { divergedRepo, git, head, oracleEnv, repoWithCommit } from '../helpers/repo.js';

describe('getCommitInfo', () => {
  it('matches what git log says, for a merge commit with all its parents', async () => {
    const { dir } = divergedRepo({ 'a.txt': 'a\n' }, { 's.txt': 's\n' }, { 'm.txt': 'm\n' });
    const env = oracleEnv({
      GIT_AUTHOR_DATE: '2024-05-06T07:08:09-0230',
      GIT_AUTHOR_NAME: 'Zoë Q',
      GIT_AUTHOR_EMAIL: 'zoe@example.com',
    });
    git(dir, ['merge', '-q', '--no-ff', '-m', 'Merge side\n\nwith a body', 'side'], { env });
    git(dir, ['config', 'log.showSignature', 'true']);
    const sha = head(dir);
    const info = await getCommitInfo(await openRepo(dir), sha.slice(0, 8));
    expect(CommitInfo.parse(info)).toEqual(info);
    expect(info).toEqual({
      sha,
      message: git(dir, ['log', '-1', '--format=%B']),
      author: 'Zoë Q <zoe@example.com>',
      date: git(dir, ['log', '-1', '--format=%aI']),
      parents: git(dir, ['log', '-1', '--format=%P']).split(' '),
    });
    expect(info.parents).toHaveLength(2);
    expect(info.date).toBe('2024-05-06T07:08:09-02:30');
  });

  it('accepts names and rejects what is not a commit', async () => {
    const dir = repoWithCommit();
    const repo = await openRepo(dir);
    expect((await getCommitInfo(repo, 'main')).sha).toBe(head(dir));
    await expect(getCommitInfo(repo, 'HEAD^{tree}')).rejects.toMatchObject({ code: 'REVISION_NOT_FOUND' });
    await expect(getCommitInfo(repo, 'nope')).rejects.toMatchObject({ code: 'REVISION_NOT_FOUND' });
  });
});
