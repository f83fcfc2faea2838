/**
 * A run's file that a person renamed (`git mv`) on the run's branch before a squash: at the squash
 * it has a name no run's records give it, yet its content and mode are the run's version. `anchor`
 * links it by `blob`, and `trace` gives its lines the iteration, as for any blob match.
 */
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { computeTrace } from '../../src/provenance/trace.js';
import { commitAll, git, recordRunsCleanedUp, setupCli, squash, writeFiles } from '../helpers/provenance.js';

const run = recordRunsCleanedUp();

const origins = (t: Awaited<ReturnType<typeof computeTrace>>) =>
  t.ranges.map((r) => [r.start, r.end, r.origin?.runId ?? null, r.origin?.iteration ?? null]);

describe('a run’s file under a name its records never give it', () => {
  it('renamed by a person on the branch, then squashed: blob, in anchor and trace alike', async () => {
    const s = await run([{ 'new.txt': 'second run wrote this line with many chars\n' }]);
    git(s.dir, ['checkout', '-q', 'agent-run-a']);
    git(s.dir, ['mv', 'new.txt', 'src.txt']);
    commitAll(s.dir, 'a person moves the file');
    git(s.dir, ['checkout', '-q', 'main']);
    const c = squash(s.dir, 'agent-run-a');
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(anchor.files).toMatchObject([
      {
        path: 'src.txt',
        method: 'blob',
        linesAdded: 1,
        linesFromRuns: 1,
        origins: [{ runId: 'run-a', iteration: 1, lines: 1 }],
      },
    ]);
    expect(anchor.runs).toEqual([{ runId: 'run-a', iterations: [1] }]);
    expect(origins(await computeTrace(s.src, s.repo, 'src.txt'))).toEqual([[1, 1, 'run-a', 1]]);
    // Recorded, it recomputes the same.
    expect(setupCli(s, ['anchor', c]).status).toBe(0);
    expect(setupCli(s, ['verify', '--anchor', c]).status).toBe(0);
  });

  it('a copy with another mode, or a person’s file that only shares a line, is not the run’s', async () => {
    const text = 'a line the run wrote, long enough to count\n';
    const s = await run([{ 'new.txt': text }]);
    // The copy made executable: its mode is part of the version.
    writeFiles(s.dir, { 'tool.sh': text, 'notes.txt': `${text}and a person's own line\n` });
    chmodSync(join(s.dir, 'tool.sh'), 0o755);
    const c = commitAll(s.dir, 'a person');
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(anchor.files.map((f) => [f.path, f.method])).toEqual([
      ['notes.txt', 'none'],
      ['tool.sh', 'none'],
    ]);
    for (const path of ['notes.txt', 'tool.sh'])
      expect(origins(await computeTrace(s.src, s.repo, path)).every((o) => o[2] === null)).toBe(true);
  });
});

describe('a run’s change landed on a file a person renamed on main meanwhile', () => {
  it('squashed or cherry-picked with other edits: the run’s lines keep their iteration (lines)', async () => {
    const base = Array.from({ length: 12 }, (_, i) => `base line number ${i + 1} of the file\n`).join('');
    const agent = 'agent line written by iteration one here\n';
    const s = await run(
      [{ 'old/a.txt': base.replace('number 3 of the file\n', `number 3 of the file\n${agent}`) }],
      {
        base: { 'old/a.txt': base },
      },
    );
    git(s.dir, ['mv', 'old/a.txt', 'a.txt']);
    commitAll(s.dir, 'a person moves the file on main');
    git(s.dir, ['merge', '-q', '--squash', 'agent-run-a']);
    // The person also edits the file in the squash: it is no version of the run's (no blob).
    const edited = base.replace('number 3 of the file\n', `number 3 of the file\n${agent}`);
    writeFiles(s.dir, {
      'a.txt': edited.replace('number 12 of', 'number twelve, edited by a person, of'),
      'b.txt': 'a person adds a file in the squash\n',
    });
    const c = commitAll(s.dir, 'squash');
    const anchor = await computeAnchor(s.src, s.repo, c);
    expect(anchor.files.map((f) => [f.path, f.method, f.linesAdded, f.linesFromRuns, f.origins])).toEqual([
      ['a.txt', 'lines', 2, 1, [{ runId: 'run-a', iteration: 1, lines: 1 }]],
      ['b.txt', 'none', 1, 0, []],
    ]);
    expect(origins(await computeTrace(s.src, s.repo, 'a.txt'))).toEqual([
      [1, 3, null, null],
      [4, 4, 'run-a', 1],
      [5, 12, null, null],
      [13, 13, null, null],
    ]);
    expect(setupCli(s, ['anchor', c]).status).toBe(0);
    expect(setupCli(s, ['verify', '--anchor', c]).status).toBe(0);
  });
});
