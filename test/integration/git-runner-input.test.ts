/** The runner's streamed stdin: git starts before all of its input is known. */
import { afterEach, describe, expect, it } from 'vitest';
import { readCommitNodes } from '../../src/git/provenance.js';
import { runGit } from '../../src/git/runner.js';
import { head, remove, repoWithCommit } from '../helpers/repo.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) remove(d);
});

describe('runner: stdin from an async iterable', () => {
  it('writes each chunk as it comes, then closes stdin; a failing source ends the input there', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    dirs.push(dir);
    const commit = head(dir);
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    async function* late(): AsyncGenerator<string> {
      yield 'HEAD\n';
      await gate;
      yield 'HEAD:a.txt\n';
    }
    const answer = runGit({ cwd: dir }, ['cat-file', '--batch-check'], { input: late() });
    setTimeout(release, 20);
    const lines = (await answer).stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(`${commit} commit ${lines[0]?.split(' ')[2]}`);
    async function* failing(): AsyncGenerator<string> {
      yield 'HEAD\n';
      throw new Error('the source failed');
    }
    const res = await runGit({ cwd: dir }, ['cat-file', '--batch-check'], { input: failing() });
    expect(res.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('readCommitNodes reads later commits in the same process, batch by batch, and what came before a failure', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    dirs.push(dir);
    const commit = head(dir);
    async function* batches(): AsyncGenerator<string[]> {
      yield [commit];
      yield [commit, 'not-an-id'];
    }
    const nodes = await readCommitNodes({ cwd: dir }, [], batches());
    expect([...nodes.keys()]).toEqual([commit]);
    async function* failing(): AsyncGenerator<string[]> {
      yield [];
      throw new Error('blame failed');
    }
    const none = await readCommitNodes({ cwd: dir }, [commit], failing());
    expect([...none.keys()]).toEqual([commit]);
  });
});
