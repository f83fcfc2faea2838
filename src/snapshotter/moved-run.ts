import { stat } from 'node:fs/promises';
import type { RunRecord } from '../../types/run.js';
import { batchCheck } from '../git/record-objects.js';
import type { Repo } from '../git/repo.js';
import { assertRunWorkspace } from '../store/run-records.js';
import type { SnapshotterCore } from './core.js';
import { assertRecordsNotLinked } from './excludes.js';

/**
 * The run's record, checked to belong to this workspace (RUN_WORKSPACE_MISMATCH otherwise). A run
 * whose recorded workspace is no directory any more, and whose commits (its before state's and every
 * snapshot's after commit) this repository holds, was moved here (`mv project project2`, `git
 * worktree move`): it is taken along, its snapshots and then its record naming this workspace, so
 * that it goes on here as `show`, `verify -C` and `push` already follow it. A copy leaves the
 * recorded workspace in place, and a repository without the run's commits is another one: neither
 * takes the run. Call under the repository lock, before the run's records are read: a home inside
 * the workspace whose record directories the agent linked elsewhere is refused first.
 */
export async function runOfWorkspace(
  core: SnapshotterCore,
  repo: Repo,
  runId: string,
): Promise<RunRecord | null> {
  await assertRecordsNotLinked(repo, core.store.home);
  const run = await core.store.loadRun(runId);
  if (run !== null && run.workspace !== repo.topLevel && (await movedHere(core, repo, run)))
    return takeRun(core, run, repo.topLevel);
  assertRunWorkspace(run, runId, repo.topLevel);
  return run;
}

/** Whether the run's recorded workspace is gone and this repository holds every commit of the run. */
async function movedHere(core: SnapshotterCore, repo: Repo, run: RunRecord): Promise<boolean> {
  const there = await stat(run.workspace).then(
    (s) => s.isDirectory(),
    () => false,
  );
  if (there) return false;
  const { snapshots } = await core.store.inspectRun(run.runId);
  const shas = [...(run.before ? [run.before.sha] : []), ...snapshots.map((s) => s.afterSha)];
  if (shas.length === 0) return false;
  const found = await batchCheck(
    repo,
    shas.map((sha) => `${sha}^{commit}`),
  );
  return found.every((f) => f.found);
}

/**
 * Points the run's snapshots, then its record, at `workspace`, under the run's lock: of two
 * workspaces taking one run at once, the one that gets the lock first takes it. A call killed
 * half-way leaves the record at the old path, so the next one takes the rest along.
 */
async function takeRun(core: SnapshotterCore, run: RunRecord, workspace: string): Promise<RunRecord> {
  const taken = await core.store.updateRun(run.runId, null, async (current) => {
    if (current.workspace !== run.workspace) return null;
    const { snapshots } = await core.store.inspectRun(run.runId);
    for (const s of snapshots.filter((s) => s.workspace === run.workspace))
      await core.store.save({ ...s, workspace }, { replace: true });
    return { ...current, workspace };
  });
  // Another call took it first, elsewhere: the usual check says so.
  assertRunWorkspace(taken, run.runId, workspace);
  return taken as RunRecord;
}
