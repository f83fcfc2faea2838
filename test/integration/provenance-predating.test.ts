/**
 * A commit made before an iteration began holds none of that iteration's lines: an iteration that
 * wrote a line again (an edit undone, a block moved away and back) must not be credited with the
 * same line in the commit the run started from, nor in a person's commit between iterations.
 */
import { describe, expect, it } from 'vitest';
import { computeAnchor } from '../../src/provenance/anchor.js';
import { computeTrace } from '../../src/provenance/trace.js';
import { commitAll, git, recordRunsCleanedUp, squash, writeFiles } from '../helpers/provenance.js';

const run = recordRunsCleanedUp();

const base = Array.from({ length: 20 }, (_, i) => `export const originalBaseLineNumber_${i + 1};\n`);
const text = (edits: Record<number, string>) => base.map((l, i) => edits[i + 1] ?? l).join('');

const origins = (t: Awaited<ReturnType<typeof computeTrace>>) =>
  t.ranges.filter((r) => r.origin !== null).map((r) => [r.start, r.end, r.origin?.iteration]);

describe('a commit older than the iteration', () => {
  it('is not credited with a line the iteration wrote again', async () => {
    const s = await run(
      [
        {
          'lib.js': text({
            5: 'agentReplacedLineFive_withNewStuff;\n',
            15: 'agentReplacedLine15_withNewStuff;\n',
          }),
        },
        { 'lib.js': text({ 5: 'agentReplacedLineFive_withNewStuff;\n' }) },
      ],
      { base: { 'lib.js': text({}) } },
    );
    const start = git(s.dir, ['rev-parse', 'main']);
    squash(s.dir, 'agent-run-a');
    // The run began at `start`: its line 15 is the person's, though iteration 2 wrote it back.
    const older = await computeAnchor(s.src, s.repo, start);
    expect(older.runs).toEqual([]);
    expect(older.coverage.linesFromRuns).toBe(0);
    const t = await computeTrace(s.src, s.repo, 'lib.js');
    expect(origins(t)).toEqual([[5, 5, 1]]);
    expect(origins(await computeTrace(s.src, s.repo, 'lib.js', { rev: start }))).toEqual([]);
  });

  it("is not credited when it is a person's commit between iterations", async () => {
    const s = await run([{ 'a.txt': 'agent wrote this first file in iteration one\n' }], {
      base: { 'lib.js': text({}) },
    });
    git(s.dir, ['checkout', '-q', 'agent-run-a']);
    writeFiles(s.dir, { 'lib.js': text({ 8: 'personWroteThisBetweenIterations_value;\n' }) });
    const person = commitAll(s.dir, 'person between iterations');
    // Iteration 2 replaces the person's line, iteration 3 writes it back.
    for (const [iteration, line] of [
      [2, 'agentTriedSomethingElseHere_value;\n'],
      [3, 'personWroteThisBetweenIterations_value;\n'],
    ] as const) {
      await s.snap.captureBeforeState(s.dir, { runId: 'run-a' });
      writeFiles(s.dir, { 'lib.js': text({ 8: line }) });
      await s.snap.captureAfterState(s.dir, null, { runId: 'run-a', iteration, taskPrompt: 't' });
    }
    git(s.dir, ['checkout', '-q', 'main']);
    const a = await computeAnchor(s.src, s.repo, person);
    expect(a.files.map((f) => [f.path, f.method, f.linesFromRuns])).toEqual([['lib.js', 'none', 0]]);
    expect(origins(await computeTrace(s.src, s.repo, 'lib.js', { rev: person }))).toEqual([]);
  });
  it('a run that began after the blamed commit is not in its alsoIn', async () => {
    const shared = 'export const sharedConfigurationValue = computeSharedThing(1);\n';
    const s = await run([{ 'lib.js': text({ 6: shared }) }], { base: { 'lib.js': text({}) } });
    const first = squash(s.dir, 'agent-run-a', 'squash a');
    // Run b starts from run a's squash, takes the line out and puts it back.
    await run([{ 'lib.js': text({}) }, { 'lib.js': text({ 6: shared }) }], { setup: s, runId: 'run-b' });
    writeFiles(s.dir, { 'other.txt': 'a person lands run b, which left lib.js as it found it\n' });
    squash(s.dir, 'agent-run-b', 'squash b');
    const t = await computeTrace(s.src, s.repo, 'lib.js');
    const line = t.ranges.find((r) => r.start <= 6 && r.end >= 6);
    expect(line?.commit).toBe(first);
    expect([line?.origin?.runId, line?.alsoIn]).toEqual(['run-a', []]);
  });
  it("a person's file the run copied is not the run's where the person wrote it", async () => {
    const s = await run([{ 'copy.js': text({}) }], { base: { 'lib.js': text({}) } });
    const start = git(s.dir, ['rev-parse', 'main']);
    squash(s.dir, 'agent-run-a');
    expect(origins(await computeTrace(s.src, s.repo, 'lib.js'))).toEqual([]);
    expect(origins(await computeTrace(s.src, s.repo, 'copy.js'))).toEqual([[1, 20, 1]]);
    expect((await computeAnchor(s.src, s.repo, start)).runs).toEqual([]);
  });
  it('nor with lines that several iterations wrote back', async () => {
    const x = 'agentReplacedThisLine_withNewStuff;\n';
    const s = await run(
      [{ 'lib.js': text({ 5: x }) }, { 'lib.js': text({ 15: x }) }, { 'lib.js': text({}) }],
      {
        base: { 'lib.js': text({}) },
      },
    );
    const start = git(s.dir, ['rev-parse', 'main']);
    // Iterations 2 and 3 each wrote a line of the start back: two starts, the commit older than both.
    const a = await computeAnchor(s.src, s.repo, start);
    expect([a.runs, a.coverage.linesFromRuns]).toEqual([[], 0]);
    expect(origins(await computeTrace(s.src, s.repo, 'lib.js', { rev: start }))).toEqual([]);
    // On the run's branch, blame names the iterations' own commits: they did write the lines back.
    const own = await computeTrace(s.src, s.repo, 'lib.js', { rev: 'agent-run-a' });
    expect(origins(own)).toEqual([
      [5, 5, 2],
      [15, 15, 3],
    ]);
  });
});
