import { stat } from 'node:fs/promises';
import type { RunRecord } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import { ConcurrentUpdateError, RunNotFoundError, RunWorkspaceMismatchError } from '../errors.js';
import { batchCheck, listRefsWithParents, objectFormat, type CommitRef } from '../git/record-objects.js';
import type { Repo } from '../git/repo.js';
import { listRefs, updateRefs, type RefUpdate } from '../git/refs.js';
import { withRepoLock } from '../git/repo-lock.js';
import { assertSafeId } from '../store/paths.js';
import { buildRecord, recordObjects, recordRef, RECORDS_PREFIX } from './records.js';
import { writeRecordObjects, type RecordObjects } from './record-objects.js';
import type { Selection, SharingCore } from './core.js';
import { ownRecords } from './own-records.js';

/**
 * The runs a selection names (records of other workspaces cannot be built here), and for the
 * default selection the runs of this workspace fetched or imported from elsewhere, which it leaves
 * out (only this machine's own verdicts on them travel: sharing.ts).
 */
async function selectRuns(
  core: SharingCore,
  repo: Repo,
  sel: Selection,
): Promise<{ runs: RunRecord[]; fetched: RunRecord[] }> {
  if (sel.runId !== undefined) {
    const run = await core.store.loadRun(assertSafeId(sel.runId, 'run id'));
    if (run === null)
      throw new RunNotFoundError(
        `no run ${sel.runId} in ${core.store.home}; "runs" lists the recorded ones`,
        { details: { runId: sel.runId } },
      );
    if ((await runsHere(core, repo, [run])).length === 0) {
      throw new RunWorkspaceMismatchError(
        `run ${sel.runId} belongs to ${run.workspace}, not ${repo.topLevel}; give that workspace with -C`,
        {
          details: { runId: sel.runId, workspace: run.workspace, given: repo.topLevel },
        },
      );
    }
    return { runs: [run], fetched: [] };
  }
  // Strict: a damaged record may be one of the runs selected; a run set that is not whole is no "all".
  const runs = await runsHere(core, repo, await core.store.listRunsStrict());
  if (sel.all) return { runs, fetched: [] };
  const made = await Promise.all(runs.map((r) => recordedHere(core, r.runId)));
  return { runs: runs.filter((_, i) => made[i]), fetched: runs.filter((_, i) => !made[i]) };
}

/** Whether this machine recorded any iteration of the run (a fetched snapshot names where it was recorded). */
async function recordedHere(core: SharingCore, runId: string): Promise<boolean> {
  const { snapshots } = await core.store.inspectRun(runId);
  return snapshots.length === 0 || snapshots.some((s) => s.recordedWorkspace === undefined);
}

/**
 * The runs that belong to this repository: recorded here, or recorded in a workspace that is not on
 * this machine (a copied home, a moved workspace) whose commits this repository holds, whether -C
 * named it or it is the current directory. One object check for all of them.
 */
async function runsHere(core: SharingCore, repo: Repo, runs: readonly RunRecord[]): Promise<RunRecord[]> {
  const here = runs.filter((r) => r.workspace === repo.topLevel);
  const gone = await Promise.all(
    runs.map(
      async (r) =>
        r.workspace !== repo.topLevel &&
        !(await stat(r.workspace).then(
          (st) => st.isDirectory(),
          () => false,
        )),
    ),
  );
  const orphans = await Promise.all(
    runs
      .filter((_, i) => gone[i])
      .map(async (run) => ({
        run,
        shas: (await core.store.inspectRun(run.runId)).snapshots.map((sn) => sn.afterSha),
      })),
  );
  const found = new Map(
    (
      await batchCheck(
        repo,
        orphans.flatMap((o) => o.shas.map((sha) => `${sha}^{commit}`)),
      )
    ).map((f) => [f.name, f.found]),
  );
  const adopted = orphans
    .filter((o) => o.shas.length > 0 && o.shas.every((sha) => found.get(`${sha}^{commit}`) === true))
    .map((o) => o.run);
  return runs.filter((r) => here.includes(r) || adopted.includes(r));
}

/** The runs whose records a push or export carries, their record refs, and the fetched runs left out. */
export interface Materialised {
  runs: string[];
  refs: string[];
  /** Runs of this workspace recorded elsewhere that the default selection leaves out (sorted). */
  fetched: string[];
  /** Record refs of this home's snapshots that held another record, replaced by the home's own (sorted). */
  replaced: string[];
}

/**
 * Makes sure every selected run's iteration has its record commit under refs/agentgate/records/:
 * an existing record that is the one this home makes of the snapshot (isRecordOf) is kept as it is;
 * a missing one, or another record in its place, is written (three hash-object processes and one ref
 * transaction for all of them; a compare-and-swap on each ref).
 */
export async function materialise(core: SharingCore, repo: Repo, sel: Selection): Promise<Materialised> {
  return withRepoLock(repo, core.options.lockTimeoutMs, () => materialiseLocked(core, repo, sel));
}

async function materialiseLocked(core: SharingCore, repo: Repo, sel: Selection): Promise<Materialised> {
  const { runs, fetched } = await selectRuns(core, repo, sel);
  const existing = new Map((await listRefsWithParents(repo, RECORDS_PREFIX)).map((r) => [r.ref, r]));
  const format = await objectFormat(repo);
  const pending: Pending[] = [];
  const others: Array<{ ref: CommitRef; snapshot: Snapshot; run: RunRecord; objects: RecordObjects }> = [];
  const refs: string[] = [];
  for (const run of runs) {
    // Strict: a run published without an iteration whose file is damaged would be taken for whole.
    const snapshots = await core.store.loadByRun(run.runId);
    const latest = new Map<number, Snapshot>();
    for (const s of snapshots) latest.set(s.iteration, s);
    for (const snapshot of latest.values()) {
      const ref = recordRef(run.runId, snapshot.iteration);
      refs.push(ref);
      const have = existing.get(ref);
      const objects = recordObjects(format, buildRecord(snapshot, run));
      if (have?.sha === objects.commit.id) continue;
      if (have?.type === 'commit' && have.parents.length === 1 && have.parents[0] === snapshot.afterSha)
        others.push({ ref: have, snapshot, run, objects });
      else pending.push({ ref, objects, old: have?.sha ?? null });
    }
  }
  // A record ref of one of this home's snapshots that holds another record (taken in by another home,
  // or by a plain git fetch) is replaced by the home's own: what a push publishes is this home's.
  const ours = await ownRecords(repo, others);
  const replaced = others.filter((o) => !ours.has(o.ref.ref));
  pending.push(...replaced.map((o) => ({ ref: o.ref.ref, objects: o.objects, old: o.ref.sha })));
  if (pending.length > 0) await publishRecords(core, repo, pending);
  return {
    runs: runs.map((r) => r.runId),
    refs,
    fetched: fetched.map((r) => r.runId).sort(),
    replaced: replaced.map((o) => o.ref.ref).sort(),
  };
}

type Pending = { ref: string; objects: RecordObjects; old: string | null };

/** Writes the records' objects, then points their refs at them. */
async function publishRecords(core: SharingCore, repo: Repo, pending: Pending[]): Promise<void> {
  await writeRecordObjects(
    repo,
    core.options.home,
    'sharing',
    pending.map((p) => p.objects),
  );
  const updates: RefUpdate[] = pending.map((p) => ({
    ref: p.ref,
    newSha: p.objects.commit.id,
    oldSha: p.old,
  }));
  try {
    await updateRefs(repo, updates, { message: 'agentgate: record' });
  } catch (error) {
    // A concurrent push in this repository wrote the same records (they are deterministic): fine.
    const now = new Map((await listRefs(repo, RECORDS_PREFIX)).map((r) => [r.ref, r.sha]));
    if (!(error instanceof ConcurrentUpdateError) || !updates.every((u) => now.get(u.ref) === u.newSha))
      throw error;
  }
}

/**
 * PUSH_REJECTED's message. A `[rejected]` ref is git's own compare-and-swap (the remote holds
 * another record or anchor there, or it moved since we looked); any other (`[remote rejected]`,
 * `[remote failure]`) is the remote's own refusal (a hidden ref, a server hook, a failed update),
 * and its reason, as the remote gave it, is what to act on.
 */
export function rejectionMessage(rejected: ReadonlyArray<{ ref: string; summary: string }>): string {
  const held = rejected.filter((r) => r.summary.startsWith('[rejected]'));
  const refused = rejected.filter((r) => !held.includes(r));
  const some = (refs: typeof rejected, say: (r: { ref: string; summary: string }) => string) =>
    `${refs.length} ref(s) (${refs.slice(0, 3).map(say).join(', ')}${refs.length > 3 ? ', ...' : ''})`;
  const parts: string[] = [];
  if (refused.length > 0)
    parts.push(`the remote refused ${some(refused, (r) => `${r.ref}: ${r.summary.slice(0, 200)}`)}`);
  if (held.length > 0)
    parts.push(`the remote already holds other records or anchors for ${some(held, (r) => r.ref)}`);
  const next =
    refused.length === 0
      ? 'Fetch them to compare, or publish under another run id'
      : "The remote's reason says what it does not take (its configuration or hooks): fix that and push again";
  return `${parts.join('; ')}; nothing was overwritten. ${next}`;
}
