/**
 * A run with some of its commits in the repository and some gone (an iteration's ref deleted and
 * its commits pruned) gives no answer from the rest of it: OBJECT_MISSING naming the missing
 * commit, for anchor, verify --anchor and trace alike, and a recorded anchor stays as it was.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { computeAnchor, computeAnchors } from '../../src/provenance/anchor.js';
import { recheckAnchors } from '../../src/provenance/anchor-keeper.js';
import { computeTrace } from '../../src/provenance/trace.js';
import { expectCode } from '../helpers/codes.js';
import {
  git,
  lines,
  recordRunsCleanedUp,
  setupCli,
  squash,
  writeFiles,
  commitAll,
  type RunSetup,
} from '../helpers/provenance.js';

const run = recordRunsCleanedUp();

/** Drops iterations `gone` of run-a (their refs) and its branch, and prunes what nothing else reaches. */
function prune(s: RunSetup, gone: number[], runId = 'run-a'): void {
  for (const n of gone) git(s.dir, ['update-ref', '-d', `refs/agentgate/runs/${runId}/iteration-${n}`]);
  git(s.dir, ['branch', '-D', '-q', `agent-${runId}`]);
  git(s.dir, ['reflog', 'expire', '--expire=now', '--all']);
  git(s.dir, ['gc', '-q', '--prune=now']);
}

const error = (r: ReturnType<typeof setupCli>) =>
  (r.json() as { error: { code: string; details: Record<string, unknown> } }).error;

describe('a run with an iteration’s commits gone', () => {
  it('squashed: anchor, verify --anchor and trace are OBJECT_MISSING, and the recorded anchor stays', async () => {
    const s = await run([{ 'a.txt': lines('agent line', 2) }, { 'a.txt': lines('agent line', 4) }]);
    const c = squash(s.dir, 'agent-run-a');
    expect(setupCli(s, ['anchor', 'HEAD']).status).toBe(0);
    const file = join(s.snap.options.home, 'anchors', `${c}.json`);
    const recorded = readFileSync(file, 'utf8');
    prune(s, [2]);
    const missing = { runId: 'run-a', iteration: 2, commit: s.snapshots[1]?.afterSha };
    for (const args of [
      ['anchor', 'HEAD'],
      ['verify', '--anchor', 'HEAD'],
      ['trace', 'a.txt'],
    ]) {
      const res = setupCli(s, ['--json', ...args]);
      expect([res.status, error(res).code, error(res).details], args.join(' ')).toEqual([
        1,
        'OBJECT_MISSING',
        missing,
      ]);
    }
    expect(readFileSync(file, 'utf8')).toBe(recorded);
  });

  it('fast-forwarded up to the iteration before: trace’s shortcut gives no partial answer either', async () => {
    const s = await run([
      { 'a.txt': lines('agent line', 2) },
      { 'a.txt': lines('agent line', 4) },
      { 'a.txt': lines('agent line', 6) },
    ]);
    git(s.dir, ['merge', '-q', '--ff-only', 'agent-run-a~1']);
    prune(s, [3]);
    for (const shortcut of [true, false])
      await expectCode(computeTrace(s.src, s.repo, 'a.txt', { shortcut }), 'OBJECT_MISSING');
  });

  it('of a run that did not touch the commit’s files, or with every iteration gone, stops nothing', async () => {
    const s = await run([{ 'a.txt': lines('agent line', 2) }, { 'a.txt': lines('agent line', 4) }]);
    await run([{ 'b.txt': lines('other line', 2) }, { 'b.txt': lines('other line', 4) }], {
      setup: s,
      runId: 'run-b',
    });
    squash(s.dir, 'agent-run-a');
    prune(s, [2], 'run-b');
    expect((await computeAnchor(s.src, s.repo, 'HEAD')).coverage).toMatchObject({ linesFromRuns: 4 });
    // Every commit of run-a gone: it is no candidate here, like a run of another clone.
    prune(s, [1, 2]);
    writeFiles(s.dir, { 'a.txt': lines('agent line', 5) });
    commitAll(s.dir, 'person');
    expect((await computeAnchor(s.src, s.repo, 'HEAD')).files.map((f) => f.method)).toEqual(['none']);
  });

  it('stops the recheck of a received anchor it may explain, not of the others checked with it', async () => {
    const s = await run([{ 'a.txt': lines('agent line', 2) }]);
    await run([{ 'b.txt': lines('other line', 2) }, { 'b.txt': lines('other line', 4) }], {
      setup: s,
      runId: 'run-b',
    });
    const x = squash(s.dir, 'agent-run-a');
    writeFiles(s.dir, { 'b.txt': lines('person line', 3) });
    const y = commitAll(s.dir, 'person');
    const anchors = await computeAnchors(s.src, s.repo, [x, y]);
    prune(s, [2], 'run-b');
    const why = await recheckAnchors(s.src, s.repo, anchors);
    expect(why[0]).toBeNull();
    expect(why[1]).toMatch(/^OBJECT_MISSING: /);
  });
});
