/**
 * Retries of `before` and `after`, as an orchestrator makes when a call was killed or its answer
 * lost: a retry of the same call gives the same before state or snapshot back, including when HEAD
 * is the WIP commit an earlier (perhaps killed) `before` made, and never RUN_DIVERGED,
 * ITERATION_EXISTS, or advice that would drop that commit. A kill is simulated by building the state
 * it leaves: the WIP commit made, the record not written, the repository lock left by a dead owner.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RunRecord } from '../../types/run.js';
import { BeforeState, Snapshot } from '../../types/snapshot.js';
import { wipMessage, wipStagedMessage } from '../../src/snapshotter/message.js';
import type { Snapshotter } from '../../src/snapshotter/snapshotter.js';
import { runCli } from '../helpers/cli.js';
import { deadPid } from '../helpers/node-child.js';
import { git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { codeOf, expectCode } from '../helpers/codes.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

/** Two iterations of run `r`; returns their snapshots. */
async function twoIterations(dir: string, s = newSnapshotter()) {
  await s.captureBeforeState(dir, { runId: 'r' });
  writeFiles(dir, { 'a.txt': 'one\n' });
  const s1 = await s.captureAfterState(dir, null, { runId: 'r', iteration: 1 });
  await s.captureBeforeState(dir, { runId: 'r' });
  writeFiles(dir, { 'a.txt': 'two\n' });
  const s2 = await s.captureAfterState(dir, null, { runId: 'r', iteration: 2 });
  return { s, s1, s2 };
}

/** Commits the index (or everything) on HEAD with `message`, as `before`'s plumbing does. */
function commitAs(dir: string, message: string, all = true): string {
  if (all) git(dir, ['add', '-A']);
  const tree = git(dir, ['write-tree']);
  const sha = git(dir, ['commit-tree', tree, '-p', 'HEAD'], { input: message });
  git(dir, ['update-ref', 'HEAD', sha]);
  return sha;
}

/**
 * What a `before` killed right after its WIP commit leaves: the commit (on the staged one when
 * `staged` is given), no record of it, and our repository lock held by a process that is gone.
 */
async function killedAfterWip(dir: string, runId: string, staged?: Record<string, string>): Promise<string> {
  if (staged) {
    writeFiles(dir, staged);
    git(dir, ['add', '-A']);
    commitAs(dir, wipStagedMessage(runId), false);
  }
  writeFiles(dir, { 'a.txt': 'uncommitted work\n' });
  const wip = commitAs(dir, wipMessage(runId));
  const owner = { pid: await deadPid(), hostname: hostname(), createdAt: new Date().toISOString() };
  writeFileSync(join(dir, '.git', 'agentgate.lock'), JSON.stringify({ ...owner, token: 'f'.repeat(24) }));
  return wip;
}

function runFile(s: Snapshotter, runId: string): string {
  return readFileSync(join(s.options.home, 'runs', `${runId}.json`), 'utf8');
}

describe('before --restart-from, again', () => {
  it('a retry on the WIP commit the first call made gives the same before state and records the restart once', async () => {
    const dir = repoWithCommit();
    const { s, s1 } = await twoIterations(dir);
    git(dir, ['reset', '-q', '--hard', s1.afterSha]);
    writeFiles(dir, { 'a.txt': 'the user edits before restarting\n' });
    const first = await s.captureBeforeState(dir, { runId: 'r', restartFrom: 1 });
    expect(first).toMatchObject({ isDirty: true, wipSha: head(dir) });
    const record = runFile(s, 'r');
    expect(await s.captureBeforeState(dir, { runId: 'r', restartFrom: 1 })).toEqual(first);
    expect(runFile(s, 'r')).toBe(record);
    expect(RunRecord.parse(await s.store.loadRun('r')).restarts).toHaveLength(1);
    // A plain before from there builds on the restart, keeping the WIP commit as the before state.
    expect(await s.captureBeforeState(dir, { runId: 'r' })).toEqual(first);
    writeFiles(dir, { 'a.txt': 'three\n' });
    const s3 = await s.captureAfterState(dir, null, { runId: 'r', iteration: 3 });
    expect(s3.beforeSha).toBe(first.sha);
    expect((await s.verify({ runId: 'r' })).checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('after a call killed between its WIP commit and its record: before names the way out, the retry records the restart', async () => {
    const dir = repoWithCommit();
    const { s, s1 } = await twoIterations(dir);
    git(dir, ['reset', '-q', '--hard', s1.afterSha]);
    const wip = await killedAfterWip(dir, 'r');
    await expectCode(s.captureAfterState(dir, null, { runId: 'r', iteration: 3 }), 'NO_BEFORE_STATE');
    const refused = s.captureBeforeState(dir, { runId: 'r' });
    await expect(refused).rejects.toMatchObject({
      code: 'RUN_DIVERGED',
      details: { restartFrom: 1, wipSha: wip },
    });
    const before = await s.captureBeforeState(dir, { runId: 'r', restartFrom: 1 });
    expect(before).toMatchObject({ sha: wip, isDirty: true, wipSha: wip });
    expect(RunRecord.parse(await s.store.loadRun('r')).restarts).toEqual([
      { from: 1, sha: s1.afterSha, lastIteration: 2, at: expect.any(String) },
    ]);
    expect(head(dir)).toBe(wip);
    writeFiles(dir, { 'a.txt': 'three\n' });
    await s.captureAfterState(dir, null, { runId: 'r', iteration: 3 });
    expect((await s.verify({ runId: 'r' })).checks.filter((c) => !c.ok)).toEqual([]);
  });

  it('a WIP commit elsewhere is still RUN_DIVERGED, and the advice keeps it before any reset', async () => {
    const dir = repoWithCommit();
    const { s, s1, s2 } = await twoIterations(dir);
    writeFiles(dir, { 'a.txt': 'work on top of iteration 2\n' });
    const wip = (await s.captureBeforeState(dir, { runId: 'r' })).wipSha as string;
    writeFiles(dir, { 'b.txt': 'more, uncommitted\n' });
    const error = (await s
      .captureBeforeState(dir, { runId: 'r', restartFrom: 1 })
      .catch((e: unknown) => e)) as {
      code: string;
      message: string;
    };
    expect(error.code).toBe('RUN_DIVERGED');
    // Kept first (stash, then a branch at HEAD), reset last.
    const reset = error.message.indexOf(`reset --hard ${s1.afterSha}`);
    expect(error.message.indexOf('git stash')).toBeGreaterThan(-1);
    expect(error.message.indexOf(`git branch kept-r ${wip}`)).toBeGreaterThan(-1);
    expect(error.message.indexOf(`git branch kept-r ${wip}`)).toBeLessThan(reset);
    expect(error.message.indexOf('git stash')).toBeLessThan(reset);
    expect(git(dir, ['rev-parse', 'HEAD~1'])).toBe(s2.afterSha);
  });
});

describe('before, again', () => {
  it('a second before on the WIP commit the first made keeps isDirty and wipSha, and writes nothing', async () => {
    const s = newSnapshotter();
    const dir = repoWithCommit();
    writeFiles(dir, { 'README.md': 'dirty\n' });
    const first = await s.captureBeforeState(dir, { runId: 'x' });
    expect(first).toMatchObject({ isDirty: true, wipSha: head(dir) });
    const record = runFile(s, 'x');
    expect(await s.captureBeforeState(dir, { runId: 'x' })).toEqual(first);
    expect(runFile(s, 'x')).toBe(record);
  });

  it('a before killed after its WIP commit (on a staged commit, too) is finished by the retry', async () => {
    for (const staged of [undefined, { 'b.txt': 'staged\n' }]) {
      const s = newSnapshotter();
      const dir = repoWithCommit();
      const wip = await killedAfterWip(dir, 'x', staged);
      const before = await s.captureBeforeState(dir, { runId: 'x' });
      expect(before, JSON.stringify(staged)).toMatchObject({ sha: wip, isDirty: true, wipSha: wip });
    }
  });

  it('mid-run too; but not for a WIP commit of another run, nor one an iteration already used', async () => {
    const dir = repoWithCommit();
    const { s, s2 } = await twoIterations(dir);
    const wip = await killedAfterWip(dir, 'r');
    expect(await s.captureBeforeState(dir, { runId: 'r' })).toMatchObject({ isDirty: true, wipSha: wip });
    // That WIP commit is where iteration 3 starts; it changes nothing, so HEAD stays there.
    const s3 = await s.captureAfterState(dir, null, { runId: 'r', iteration: 3 });
    expect(s3).toMatchObject({ beforeSha: wip, afterSha: wip });
    expect(await s.captureBeforeState(dir, { runId: 'r' })).toMatchObject({
      sha: wip,
      isDirty: false,
      wipSha: null,
    });
    // Another run's WIP commit is that run's, not this one's.
    const other = repoWithCommit();
    await killedAfterWip(other, 'someone-else');
    expect(await s.captureBeforeState(other, { runId: 'y' })).toMatchObject({ isDirty: false, wipSha: null });
    expect(s2.iteration).toBe(2);
  });
});

describe('after, again', () => {
  it('a retry of a capture whose commit the agent made itself gets the stored snapshot back', async () => {
    for (const revert of [false, true]) {
      const s = newSnapshotter();
      const dir = repoWithCommit({ 'a.txt': 'a\n' });
      await s.captureBeforeState(dir, { runId: 'n' });
      writeFiles(dir, { 'a.txt': 'the agent\n' });
      git(dir, ['commit', '-qam', "agent's own"]);
      // An agent that undid its own commit with a revert: HEAD is the revert, the tree the start's.
      if (revert) git(dir, ['revert', '--no-edit', 'HEAD'], { stdio: 'pipe' });
      const opts = { runId: 'n', iteration: 1, taskPrompt: 't' };
      const first = await s.captureAfterState(dir, null, opts);
      expect(first.commitMessage).toBe('');
      expect(first.afterSha).toBe(head(dir));
      expect((await s.captureAfterState(dir, null, opts)).id, String(revert)).toBe(first.id);
      // Another task or gate is another capture.
      expect(await codeOf(s.captureAfterState(dir, null, { ...opts, taskPrompt: 'u' }))).toBe(
        'ITERATION_EXISTS',
      );
      await expectCode(s.captureAfterState(dir, null, { ...opts, gatePlanSource: 'g' }), 'ITERATION_EXISTS');
    }
  });
});

describe('CLI: the retries the black-box tester ran', () => {
  it('before --restart-from twice on a dirty workspace; after twice on an agent commit', () => {
    const dir = repoWithCommit({ 'a.txt': 'hello\n' });
    const home = tempDir('agentgate-home-');
    const run = (args: string[]) => runCli(['-C', dir, '--home', home, ...args, '--json']);
    const ok = (args: string[]) => {
      const res = run(args);
      expect(res.status, res.stdout + res.stderr).toBe(0);
      return res.json();
    };
    for (const i of [1, 2]) {
      ok(['before', '--run', 'R']);
      writeFiles(dir, { 'a.txt': `hello\n${i}\n` });
      ok(['after', '--run', 'R', '--iteration', String(i)]);
    }
    git(dir, ['reset', '-q', '--hard', 'refs/agentgate/runs/R/iteration-1']);
    writeFiles(dir, { 'a.txt': 'hello\n1\ndirty\n' });
    const first = BeforeState.parse(ok(['before', '--run', 'R', '--restart-from', '1']));
    expect(BeforeState.parse(ok(['before', '--run', 'R', '--restart-from', '1']))).toEqual(first);

    ok(['before', '--run', 'R']);
    writeFiles(dir, { 'a.txt': 'agent\n' });
    git(dir, ['commit', '-qam', "agent's own"]);
    const args = ['after', '--run', 'R', '--iteration', '3', '--task', 't'];
    const snap = Snapshot.parse(ok(args));
    expect(Snapshot.parse(ok(args)).id).toBe(snap.id);
  });
});
