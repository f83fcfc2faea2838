import { stat } from 'node:fs/promises';
import type { RunRecord, RunRestart } from '../../types/run.js';
import type { RebuiltIndex, RecordFile } from '../../types/sharing.js';
import type { Snapshot } from '../../types/snapshot.js';
import { GitTimeoutError, OutputTooLargeError, UnsafeWorkspaceError } from '../errors.js';
import { batchCheck, type CommitRef } from '../git/record-objects.js';
import type { Repo } from '../git/repo.js';
import { listRefs, updateRefs, type RefUpdate } from '../git/refs.js';
import { treeDiffSize } from '../git/unified-diff.js';
import { assertNoLinkInside } from '../fs/inside.js';
import { patchPath } from '../store/paths.js';
import { byInstant } from '../store/json-file.js';
import {
  isRecordOf,
  iterationRef,
  recordRef,
  RECORDS_PREFIX,
  refInTheWay,
  refInTheWayReason,
  RUNS_PREFIX,
} from './records.js';
import { MAX_PATCH_BYTES, type SharingCore } from './core.js';
import { restartContradiction, restartName, type RunIteration } from '../snapshotter/restart-check.js';

/**
 * A record that passed the checks, with the commit that carries it; `replaces`: the other record this
 * repository holds under its ref, which it replaces only as this home's own record.
 */
export type Accepted = { ref: CommitRef; record: RecordFile; replaces?: string };

export async function rebuildAccepted(
  core: SharingCore,
  repo: Repo,
  accepted: Accepted[],
  refuse: (ref: string, reason: string) => void,
  index: RebuiltIndex,
): Promise<{ done: Accepted[]; kept: Accepted[] }> {
  if (accepted.length === 0) return { done: [], kept: [] };
  // Listed without the trailing slash: a ref named `refs/agentgate/runs` (or `records`) itself is in
  // the way of every ref below it.
  const iterationRefs = new Map((await listRefs(repo, RUNS_PREFIX.slice(0, -1))).map((r) => [r.ref, r.sha]));
  const records = await listRefs(repo, RECORDS_PREFIX.slice(0, -1));
  const inTheWay = refInTheWay([...iterationRefs.keys(), ...records.map((r) => r.ref)]);
  // The before SHA must name a commit itself: a tree or a tag there (`^{tree}` peels both) would be
  // taken in and make verify, report and provenance fail on it with GIT_FAILED.
  const trees = await batchCheck(
    repo,
    accepted.flatMap((a) => [
      a.record.snapshot.beforeSha,
      `${a.record.snapshot.beforeSha}^{tree}`,
      `${a.record.snapshot.afterSha}^{tree}`,
    ]),
  );
  const done: Accepted[] = [];
  const kept: Accepted[] = [];
  const refUpdates: RefUpdate[] = [];
  /** Per run: iteration -> snapshot id already stored here (read once per run, kept up to date). */
  const iterations = new Map<string, Map<number, string>>();
  /** The runs this call created (the first record of a run that was not here). */
  const created = new Set<string>();
  /** Per run: what a travelled restart is checked against, the iterations held here and received now. */
  const lines = new Map<string, Promise<RunIteration[]>>();
  /** Per run and restart: why the commits contradict it (every later record carries the same one). */
  const verdicts = new Map<string, Promise<{ why: string } | null>>();
  const contradiction = (runId: string, restart: RunRestart, here: boolean) => {
    if (!lines.has(runId)) lines.set(runId, receivedLine(core, accepted, runId, here));
    const key = JSON.stringify([runId, restart]);
    if (!verdicts.has(key))
      verdicts.set(
        key,
        (lines.get(runId) as Promise<RunIteration[]>).then((line) =>
          restartContradiction(restart, line, repo),
        ),
      );
    return verdicts.get(key) as Promise<{ why: string } | null>;
  };
  for (const [i, a] of accepted.entries()) {
    const s = a.record.snapshot;
    const [before, from, to] = [trees[3 * i], trees[3 * i + 1], trees[3 * i + 2]];
    if (!before?.found || !from?.found || !to?.found) {
      refuse(a.ref.ref, 'its before or after commit is not in the repository');
      continue;
    }
    if (before.type !== 'commit') {
      refuse(a.ref.ref, `its before SHA ${s.beforeSha} names a ${before.type}, not a commit`);
      continue;
    }
    const blocked = [iterationRef(s.runId, s.iteration), recordRef(s.runId, s.iteration)]
      .map((ref) => ({ ref, blocker: inTheWay(ref) }))
      .find((b) => b.blocker !== null);
    if (blocked?.blocker) {
      refuse(a.ref.ref, refInTheWayReason(blocked.ref, blocked.blocker));
      continue;
    }
    const stored = await core.store.load(s.id).catch(() => null);
    if (
      stored !== null &&
      (stored.runId !== s.runId || stored.iteration !== s.iteration || stored.afterSha !== s.afterSha)
    ) {
      refuse(a.ref.ref, `snapshot id ${s.id} is already used by another snapshot here`);
      continue;
    }
    const run = await core.store.loadRun(s.runId).catch(() => null);
    if (run !== null && run.workspace !== repo.topLevel) {
      refuse(a.ref.ref, `run ${s.runId} already exists here for another workspace (${run.workspace})`);
      continue;
    }
    // A run is known by when it started: the same id started elsewhere is another run, and its
    // records must not be mixed into this one.
    if (run !== null && run.createdAt !== a.record.run.createdAt) {
      refuse(
        a.ref.ref,
        `run ${s.runId} here is another run (started ${run.createdAt}, the record's run ${a.record.run.createdAt}); fetch into another home, or publish under another run id`,
      );
      continue;
    }
    if (a.replaces !== undefined && (stored === null || run === null)) {
      refuse(a.ref.ref, `conflicts with this repository's record ${a.replaces}; kept the local one`);
      continue;
    }
    // A snapshot this home holds publishes one record: another (edited on the remote, or under a ref
    // this repository lost) is not taken for it, so that push still publishes ours.
    if (stored !== null && run !== null && !isRecordOf(a.ref.sha, a.record, stored, run)) {
      refuse(
        a.ref.ref,
        `it is not the record this home makes of its snapshot ${s.id} (edited since?); kept this home's, which push publishes (PUSH_REJECTED while the remote holds the other)`,
      );
      continue;
    }
    const restart = a.record.run.restart;
    const wrong = restart && (await contradiction(s.runId, restart, run !== null));
    if (wrong) {
      refuse(
        a.ref.ref,
        `${restartName(restart)} that it carries does not agree with the commits: ${wrong.why}`,
      );
      continue;
    }
    if (run !== null && stored === null) {
      if (!iterations.has(s.runId))
        iterations.set(
          s.runId,
          new Map((await core.store.inspectRun(s.runId)).snapshots.map((o) => [o.iteration, o.id])),
        );
      const other = iterations.get(s.runId)?.get(s.iteration);
      if (other !== undefined && other !== s.id) {
        refuse(a.ref.ref, `iteration ${s.iteration} of run ${s.runId} is already recorded here as ${other}`);
        continue;
      }
    }
    const itRef = iterationRef(s.runId, s.iteration);
    const itSha = iterationRefs.get(itRef);
    if (itSha !== undefined && itSha !== s.afterSha) {
      refuse(a.ref.ref, `${itRef} points at ${itSha}, not at the record's after commit`);
      continue;
    }
    const patch = a.record.patch === null ? null : patchPath(core.options.artifactsDir, s.runId, s.iteration);
    const patchThere = patch === null || (await exists(patch));
    // A record this home made itself (pushed, then fetched back) only needs its refs.
    const here = stored !== null && run !== null && run.snapshotIds.includes(s.id) && patchThere;
    if (patch !== null && (stored === null || !patchThere)) {
      const why = await checkPatch(core, repo, { from: from.id, to: to.id }, patch);
      if (why !== null) {
        refuse(a.ref.ref, why);
        continue;
      }
    }
    if (run === null) created.add(s.runId);
    // A new run takes the record's start first, so that a call killed after this point leaves a
    // run that the check above still recognises as this one.
    if (run === null)
      await core.store.updateRun(s.runId, repo.topLevel, (cur) => ({
        ...cur,
        createdAt: a.record.run.createdAt,
      }));
    if (stored === null) {
      // What travelled, plus where it lives on this machine.
      const snapshot: Snapshot = {
        ...s,
        patchPath: patch,
        workspace: repo.topLevel,
        ref: itRef,
        recordedWorkspace: a.record.workspace,
      };
      await core.store.save(snapshot);
    }
    await core.store.linkSnapshot(s.runId, repo.topLevel, s.id, s.iteration);
    await core.store.updateRun(s.runId, repo.topLevel, (cur) => {
      // Only a run this call created takes a before state from a record: a run that exists here
      // may be in the middle of an iteration, whose before state is this machine's own.
      const before = created.has(s.runId) ? a.record.run.before : null;
      const later = cur.before === null || (before !== null && before.capturedAt > cur.before.capturedAt);
      const next = {
        ...cur,
        before: before !== null && later ? before : cur.before,
        ...withRestart(cur, a.record.run.restart),
        ...(a.record.workspace !== cur.workspace ? { recordedWorkspace: a.record.workspace } : {}),
      };
      return JSON.stringify(next) === JSON.stringify(cur) ? null : next;
    });
    iterations.get(s.runId)?.set(s.iteration, s.id);
    if (itSha === undefined) refUpdates.push({ ref: itRef, newSha: s.afterSha, oldSha: null });
    const rec = recordRef(s.runId, s.iteration);
    refUpdates.push({ ref: rec, newSha: a.ref.sha, oldSha: a.replaces ?? null });
    (here ? kept : done).push(a);
  }
  // Records already promoted by an earlier, interrupted call are skipped by the compare-and-swap list.
  const present = new Map(records.map((r) => [r.ref, r.sha]));
  await updateRefs(
    repo,
    refUpdates.filter((u) => present.get(u.ref) !== u.newSha),
    { message: 'agentgate: fetched record' },
  );
  for (const a of [...done, ...kept]) index.records[a.ref.sha] = a.record.snapshot.id;
  return { done, kept };
}

/**
 * Checks a received record's patch without writing it; the reason to refuse the record instead,
 * when its artifact's path leads through a link in the workspace or the patch would pass
 * maxPatchBytes (counted as git prints it; git is stopped there, or at its timeout: one such record
 * must not fail the whole call). The artifact itself is built when it is first asked for
 * (`buildReceivedArtifact`, src/snapshotter/received-artifact.ts), so that a fetch writes nothing in
 * proportion to the patches it receives.
 */
async function checkPatch(
  core: SharingCore,
  repo: Repo,
  trees: { from: string; to: string },
  patch: string,
): Promise<string | null> {
  const maxBytes = core.options.maxPatchBytes ?? MAX_PATCH_BYTES;
  try {
    await assertNoLinkInside(repo.topLevel, patch);
    await treeDiffSize(repo, trees, maxBytes);
    return null;
  } catch (error) {
    if (error instanceof UnsafeWorkspaceError)
      return `its patch artifact would be written through a link: ${error.message}`;
    if (error instanceof OutputTooLargeError)
      return `its patch would be larger than ${maxBytes} bytes, the most a received record may hold`;
    if (error instanceof GitTimeoutError)
      return `its patch could not be made within the git timeout (${error.message})`;
    throw error;
  }
}

export async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The iterations of run `runId` this home holds (`here`: the run exists) and those `accepted` brings, once each. */
async function receivedLine(
  core: SharingCore,
  accepted: readonly Accepted[],
  runId: string,
  here: boolean,
): Promise<RunIteration[]> {
  const held = here ? ((await core.store.inspectRun(runId).catch(() => null))?.snapshots ?? []) : [];
  const received = accepted.map((a) => a.record.snapshot).filter((s) => s.runId === runId);
  return [...new Map([...held, ...received].map((s) => [s.id, s])).values()];
}

/** The run's restarts with a travelled one added (once, in order of declaration); `{}` when nothing changes. */
function withRestart(run: RunRecord, restart: RunRestart | undefined): Pick<RunRecord, 'restarts'> {
  const known = run.restarts ?? [];
  const same = (r: RunRestart) =>
    restart !== undefined && r.at === restart.at && r.sha === restart.sha && r.from === restart.from;
  if (restart === undefined || known.some(same)) return {};
  return { restarts: [...known, restart].sort((x, y) => byInstant(x.at, y.at)) };
}
