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
