/**
 * One run id, two homes, one repository: an iteration's ref (`refs/agentgate/runs/<runId>/iteration-<n>`)
 * is set by compare-and-swap, so a second home (or a new run after a fetch) recording the same run
 * id never moves the first one's ref; a retry of the same capture and a capture after `delete` still work.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { expectCode, fingerprint, newSnapshotter, recordIteration } from '../helpers/snapshotter.js';

const REF = 'refs/agentgate/runs/r/iteration-1';

describe('the same run id recorded by a second home in one repository', () => {
  it("is RUN_ID_TAKEN before anything is committed; the first home's ref and verify are untouched", async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const [first, second] = [newSnapshotter(), newSnapshotter()];
    const theirs = await recordIteration(first, ws, 'r', 1, { 'a.txt': 'a2\n' });
    const before = await second.captureBeforeState(ws, { runId: 'r' });
    writeFiles(ws, { 'a.txt': 'a3\n' });
    const print = fingerprint(ws);
    await expectCode(second.captureAfterState(ws, before, { runId: 'r', iteration: 1 }), 'RUN_ID_TAKEN');
    expect(fingerprint(ws)).toBe(print);
    // With nothing new either: the ref is at HEAD, but it is the other home's iteration 1.
    git(ws, ['checkout', '--', 'a.txt']);
    await expectCode(second.captureAfterState(ws, before, { runId: 'r', iteration: 1 }), 'RUN_ID_TAKEN');
    expect(git(ws, ['rev-parse', REF])).toBe(theirs.afterSha);
    expect((await first.verify({ runId: 'r' })).ok).toBe(true);
    expect(await second.store.loadByRun('r')).toEqual([]);
    // Another run id is the way on.
    const mine = await recordIteration(second, ws, 'r-2', 1, { 'b.txt': 'b\n' });
    expect((await second.verify({ runId: 'r-2' })).ok).toBe(true);
    expect(mine.beforeSha).toBe(theirs.afterSha);
  });

  it('is RUN_ID_TAKEN with HEAD left detached when the agent detached it', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const [first, second] = [newSnapshotter(), newSnapshotter()];
    await recordIteration(first, ws, 'r', 1, { 'a.txt': 'a2\n' });
    const before = await second.captureBeforeState(ws, { runId: 'r' });
    git(ws, ['checkout', '-q', '--detach']);
    writeFiles(ws, { 'a.txt': 'a3\n' });
    const print = fingerprint(ws);
    await expectCode(second.captureAfterState(ws, before, { runId: 'r', iteration: 1 }), 'RUN_ID_TAKEN');
    expect(fingerprint(ws)).toBe(print);
  });

  it('iterate refuses it before its agent runs', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    await recordIteration(newSnapshotter(), ws, 'r', 1, { 'a.txt': 'a2\n' });
    const marker = join(tempDir('agentgate-marker-'), 'ran');
    const start = head(ws);
    await expectCode(
      newSnapshotter().iterate(ws, {
        runId: 'r',
        iteration: 1,
        agent: {
          argv: [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`],
        },
      }),
      'RUN_ID_TAKEN',
    );
    expect(existsSync(marker)).toBe(false);
    expect(head(ws)).toBe(start);
  });

  it('a no-change iteration of the first home is not moved by the second home either', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const [first, second] = [newSnapshotter(), newSnapshotter()];
    const still = await recordIteration(first, ws, 'r', 1, {});
    expect(still.afterSha).toBe(still.beforeSha);
    const before = await second.captureBeforeState(ws, { runId: 'r' });
    writeFiles(ws, { 'a.txt': 'a2\n' });
    await expectCode(second.captureAfterState(ws, before, { runId: 'r', iteration: 1 }), 'RUN_ID_TAKEN');
    expect(git(ws, ['rev-parse', REF])).toBe(still.afterSha);
    expect(head(ws)).toBe(still.afterSha);
    expect((await first.verify({ runId: 'r' })).ok).toBe(true);
  });
});

describe('the iteration ref of one home', () => {
  it('goes with delete (when it still names the snapshot), so the iteration can be captured again', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const s = newSnapshotter();
    const first = await recordIteration(s, ws, 'r', 1, { 'a.txt': 'a2\n' });
    const before = await s.captureBeforeState(ws, { runId: 'r' });
    writeFiles(ws, { 'a.txt': 'a3\n' });
    await s.delete(first.id);
    expect(git(ws, ['for-each-ref', 'refs/agentgate/'])).toBe('');
    expect(git(ws, ['cat-file', '-t', first.afterSha])).toBe('commit');
    const again = await s.captureAfterState(ws, before, { runId: 'r', iteration: 1 });
    expect(git(ws, ['rev-parse', REF])).toBe(again.afterSha);
    expect((await s.verify({ runId: 'r' })).ok).toBe(true);
  });

  it('moves off a commit of our own killed attempt (same message): the retry completes', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const s = newSnapshotter();
    const before = await s.captureBeforeState(ws, { runId: 'r' });
    writeFiles(ws, { 'a.txt': 'a2\n' });
    // What a call killed between its commit and its snapshot leaves: HEAD and the ref at its commit.
    const killed = await newSnapshotter().captureAfterState(ws, before, { runId: 'r', iteration: 1 });
    expect(git(ws, ['rev-parse', REF])).toBe(killed.afterSha);
    writeFiles(ws, { 'b.txt': 'late\n' });
    const retry = await s.captureAfterState(ws, before, { runId: 'r', iteration: 1 });
    expect(retry.files.map((f) => f.path).sort()).toEqual(['a.txt', 'b.txt']);
    expect(git(ws, ['rev-parse', REF])).toBe(retry.afterSha);
    expect((await s.verify({ runId: 'r' })).ok).toBe(true);
  });
});
