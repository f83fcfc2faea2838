import { describe, expect, it } from 'vitest';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { computeTrace } from '../../src/provenance/trace.js';
import { commitAll, git, lines, recordRunsCleanedUp, writeFiles } from '../helpers/provenance.js';

const run = recordRunsCleanedUp();

/** The lines of `path` at `rev` that `trace` gives to an iteration and blames on a commit other than the first parent's history. */
async function tracedFromRuns(
  s: Awaited<ReturnType<typeof run>>,
  path: string,
  rev: string,
): Promise<number> {
  const trace = await computeTrace(s.src, s.repo, path, { rev });
  const old = new Set(git(s.dir, ['rev-list', `${rev}^1`]).split('\n'));
  return trace.ranges
    .filter((r) => r.origin !== null && r.origin.iteration > 0 && !old.has(r.commit))
    .reduce((n, r) => n + r.end - r.start + 1, 0);
}

describe('merge shapes', () => {
  it("a merge whose conflict a person resolved: the run's short lines that came through it are ancestry, as in trace", async () => {
    const s = await run(
      [{ 'f.txt': lines('base', 10).replace('base 5\n', 'agent 5\n').replace('base 9\n', 'nine\n') }],
      {
        base: { 'f.txt': lines('base', 10) },
      },
    );
    writeFiles(s.dir, { 'f.txt': lines('base', 10).replace('base 5\n', 'person 5\n') });
    commitAll(s.dir, 'person');
    expect(() => git(s.dir, ['merge', '-q', '--no-edit', 'agent-run-a'], { stdio: 'pipe' })).toThrow();
    // The person keeps neither side of line 5 and the run's line 9.
    writeFiles(s.dir, {
      'f.txt': lines('base', 10).replace('base 5\n', 'both 5\n').replace('base 9\n', 'nine\n'),
    });
    const merge = commitAll(s.dir, 'merge, conflict resolved');
    expect(git(s.dir, ['rev-list', '--parents', '-n1', merge]).split(' ')).toHaveLength(3);
    const anchor = await computeAnchor(s.src, s.repo, merge);
    expect(anchor.files).toEqual([
      expect.objectContaining({
        path: 'f.txt',
        method: 'ancestry',
        linesAdded: 2,
        linesFromRuns: 1,
        origins: [{ runId: 'run-a', iteration: 1, lines: 1 }],
      }),
    ]);
    expect(anchor.runs).toEqual([{ runId: 'run-a', iterations: [1] }]);
    expect(anchor.coverage.linesFromRuns).toBe(await tracedFromRuns(s, 'f.txt', merge));
  });

  it("a clean merge with a person's edit in the merge commit next to the run's line (an evil merge): ancestry", async () => {
    const long = 'the agent wrote this line with plenty of letters\n';
    const s = await run([{ 'f.txt': lines('base', 10).replace('base 9\n', long) }], {
      base: { 'f.txt': lines('base', 10) },
    });
    writeFiles(s.dir, { 'f.txt': lines('base', 10).replace('base 2\n', 'person 2\n') });
    commitAll(s.dir, 'person');
    git(s.dir, ['merge', '-q', '--no-commit', '--no-ff', 'agent-run-a']);
    writeFiles(s.dir, {
      'f.txt': lines('base', 10)
        .replace('base 2\n', 'person 2\n')
        .replace('base 7\n', 'evil 7\n')
        .replace('base 9\n', long),
    });
    const merge = commitAll(s.dir, 'evil merge');
    const anchor = await computeAnchor(s.src, s.repo, merge);
    expect(anchor.files).toEqual([
      expect.objectContaining({ path: 'f.txt', method: 'ancestry', linesAdded: 2, linesFromRuns: 1 }),
    ]);
    expect(anchor.coverage.linesFromRuns).toBe(await tracedFromRuns(s, 'f.txt', merge));
  });
});
