/**
 * Crashes during run snapshots: `before` and `after` SIGKILLed at random moments on a large
 * repository (see crash-harness.ts for what is checked after every kill).
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunRecord } from '../../types/run.js';
import type { BeforeState, Snapshot } from '../../types/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { deadPid, finished, printed, spawnTs } from '../helpers/node-child.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { crashLoop, crashWorkspaces, KILLS, LOOP_TIMEOUT_MS } from './crash-harness.js';
import {
  applyContents,
  cliAsync,
  contentProblems,
  mutate,
  okJson,
  report,
  rng,
  SEED,
  type CliRun,
} from './support.js';

const { contents: templateContents, setup } = crashWorkspaces('agentgate-crash-snap-');

const EDIT = { modify: 150, add: 10, remove: 10 };

/** Nothing uncommitted is left and HEAD holds exactly the work tree. */
function cleanStatus(ws: string): string {
  return git(ws, ['status', '--porcelain=v1', '--untracked-files=all']);
}

describe('SIGKILL during after', () => {
  it(
    `survives ${KILLS} kills: store valid, work tree intact, fsck clean, next call succeeds`,
    { timeout: LOOP_TIMEOUT_MS },
    async () => {
      const { ws, home, env } = setup('after');
      const rand = rng(SEED + 11);
      let contents = templateContents();
      let expected: { before: string; changed: string[] } = { before: '', changed: [] };
      const runId = 'crash-after';

      const figures = await crashLoop(
        {
          name: 'after',
          workspace: ws,
          home,
          env,
          lockFiles: () => [join(ws, '.git', 'agentgate.lock')],
          async prepare(k) {
            const before = okJson<BeforeState>(
              await cliAsync(['before', '--run', runId, '--json'], { cwd: ws, env }),
              'before',
            );
            const edit = mutate(contents, rand, k + 1, EDIT);
            applyContents(ws, contents, edit.next);
            contents = edit.next;
            expected = { before: before.sha, changed: [...edit.changed].sort() };
            return {
              args: [
                'after',
                '--run',
                runId,
                '--iteration',
                String(k),
                '--task',
                `crash test ${k}`,
                '--json',
              ],
              allowed: [contents],
            };
          },
          check(k, run: CliRun) {
            const snapshot = okJson<Snapshot>(run, `after ${k}`);
            expect(snapshot.beforeSha).toBe(expected.before);
            expect(snapshot.afterSha).toBe(git(ws, ['rev-parse', 'HEAD']));
            // Every edited path, and nothing else (git may pair a deletion and an addition as a rename).
            expect(
              [
                ...new Set(snapshot.files.flatMap((f) => (f.oldPath ? [f.oldPath, f.path] : [f.path]))),
              ].sort(),
            ).toEqual(expected.changed);
            // The commit is ours (made by this call, or by the killed one): the snapshot says so.
            expect(snapshot.commitMessage).toBe(
              `${git(ws, ['cat-file', 'commit', snapshot.afterSha]).split('\n\n').slice(1).join('\n\n')}\n`,
            );
            expect(snapshot.commitMessage).toContain(`Task: crash test ${k}`);
            expect(cleanStatus(ws)).toBe('');
            expect(contentProblems(ws, [contents])).toEqual([]);
          },
        },
        1,
      );

      // Every iteration is linked, in order; the whole store verifies.
      const run = JSON.parse(readFileSync(join(home, 'runs', `${runId}.json`), 'utf8')) as RunRecord;
      const verify = await cliAsync(['verify', '--all', '--json'], { cwd: ws, env });
      expect(verify.status, verify.stdout).toBe(0);
      const list = okJson<Snapshot[]>(
        await cliAsync(['list', '--run', runId, '--json'], { cwd: ws, env }),
        'list',
      );
      const iterations = list.map((s) => s.iteration);
      expect(iterations).toEqual([...iterations].sort((a, b) => a - b));
      expect(new Set(iterations).size).toBe(figures.attempts + 2);
      expect(run.snapshotIds.length).toBe(list.length);
      report('crash', { ...figures, snapshotsStored: list.length });
    },
  );
});

describe('SIGKILL during before', () => {
  it(
    `survives ${KILLS} kills: store valid, work tree intact, fsck clean, next call succeeds`,
    { timeout: LOOP_TIMEOUT_MS },
    async () => {
      const { ws, home, env } = setup('before');
      const rand = rng(SEED + 12);
      let contents = templateContents();
      const runId = 'crash-before';

      const figures = await crashLoop(
        {
          name: 'before',
          workspace: ws,
          home,
          env,
          lockFiles: () => [join(ws, '.git', 'agentgate.lock')],
          prepare(k) {
            // A dirty work tree: before has to save it as a WIP commit.
            const edit = mutate(contents, rand, k + 1, EDIT);
            applyContents(ws, contents, edit.next);
            contents = edit.next;
            return { args: ['before', '--run', runId, '--json'], allowed: [contents] };
          },
          check(k, run: CliRun) {
            const state = okJson<BeforeState>(run, `before ${k}`);
            expect(state.sha).toBe(git(ws, ['rev-parse', 'HEAD']));
            expect(state.branch).toBe('main');
            expect(cleanStatus(ws)).toBe('');
            expect(contentProblems(ws, [contents])).toEqual([]);
          },
        },
        2,
      );
      const runs = okJson<RunRecord[]>(await cliAsync(['runs', '--json'], { cwd: ws, env }), 'runs');
      expect(runs.map((r) => r.before?.sha)).toEqual([git(ws, ['rev-parse', 'HEAD'])]);
      report('crash', figures);
    },
  );
});

/**
 * The two kill windows of `after` that random kills rarely land in, set up exactly: the kill came
 * after the snapshot was stored and linked (only the report was lost), or between storing the
 * snapshot and linking it into its run. Either way, the orchestrator's retry of the same call
 * succeeds with that snapshot, and the store verifies.
 */
describe('SIGKILL at the end of after', () => {
  function iterationDone(): {
    ws: string;
    home: string;
    env: NodeJS.ProcessEnv;
    snapshot: Snapshot;
    args: string[];
  } {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-crash-end-');
    const env = { AGENTGATE_HOME: home };
    expect(runCli(['before', '--run', 'end', '-C', ws], { env }).status).toBe(0);
    writeFiles(ws, { 'a.txt': 'two\n', 'b.txt': 'bee\n' });
    const args = ['after', '--run', 'end', '--iteration', '1', '--task', 'the task', '-C', ws, '--json'];
    const first = runCli(args, { env });
    expect(first.status, first.stdout).toBe(0);
    return { ws, home, env, snapshot: first.json() as Snapshot, args };
  }

  it('after the snapshot was linked: the retry returns the stored snapshot', () => {
    const { env, snapshot, args } = iterationDone();
    const retry = runCli(args, { env });
    expect(retry.status, retry.stdout).toBe(0);
    expect((retry.json() as Snapshot).id).toBe(snapshot.id);
    expect(runCli(['verify', '--all'], { env }).status).toBe(0);
  });

  it('after the commit, before anything was stored: the retry stores the snapshot of that commit, message included', () => {
    const { home, env, snapshot, args } = iterationDone();
    rmSync(join(home, 'snapshots', `${snapshot.id}.json`));
    const runFile = join(home, 'runs', 'end.json');
    writeFileSync(
      runFile,
      JSON.stringify(
        { ...(JSON.parse(readFileSync(runFile, 'utf8')) as RunRecord), snapshotIds: [] },
        null,
        2,
      ),
    );
    const retry = runCli(args, { env });
    expect(retry.status, retry.stdout).toBe(0);
    const again = retry.json() as Snapshot;
    expect(again).toMatchObject({
      beforeSha: snapshot.beforeSha,
      afterSha: snapshot.afterSha,
      commitMessage: snapshot.commitMessage,
      filesChanged: 2,
    });
    expect(runCli(['verify', '--all'], { env }).status).toBe(0);
  });

  it('between storing the snapshot and linking it: the retry links it, once', async () => {
    const { ws, home, env, snapshot, args } = iterationDone();
    // The state that kill leaves: the run record without the link, and our lock still in place.
    const runFile = join(home, 'runs', 'end.json');
    const record = JSON.parse(readFileSync(runFile, 'utf8')) as RunRecord;
    writeFileSync(runFile, JSON.stringify({ ...record, snapshotIds: [] }, null, 2));
    const owner = {
      pid: await deadPid(),
      hostname: hostname(),
      createdAt: new Date(Date.now() - 1000).toISOString(),
      token: 'dead0wner',
      purpose: `snapshot ${ws}`,
    };
    writeFileSync(join(ws, '.git', 'agentgate.lock'), JSON.stringify(owner));

    const retry = runCli(args, { env });
    expect(retry.status, retry.stdout).toBe(0);
    expect((retry.json() as Snapshot).id).toBe(snapshot.id);
    expect((JSON.parse(readFileSync(runFile, 'utf8')) as RunRecord).snapshotIds).toEqual([snapshot.id]);
    expect(runCli(['verify', '--all'], { env }).status).toBe(0);
  });
});

describe('a killed lock owner that its parent has not reaped yet', () => {
  it('is a zombie: dead, so the next call takes its lock over instead of waiting for it', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-zombie-');
    const config = join(home, 'impatient.yaml');
    writeFileSync(config, 'lockTimeoutMs: 5000\n');
    const holder = spawnTs('lock-child.ts', ['hold', join(ws, '.git', 'agentgate.lock')]);
    await printed(holder, 'held');
    holder.kill('SIGKILL');
    // spawnSync blocks this process's event loop, so the killed holder stays an unreaped zombie
    // (its pid still exists) for the whole call.
    const res = runCli(['before', '--run', 'zombie', '-C', ws, '--home', home, '--config', config, '--json']);
    expect(res.status, res.stdout).toBe(0);
    expect((res.json() as BeforeState).sha).toBe(git(ws, ['rev-parse', 'HEAD']));
    await finished(holder);
  });
});
