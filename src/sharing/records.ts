import { iterationRef, RUNS_PREFIX } from '../snapshotter/core.js';
import type { RunRecord } from '../../types/run.js';
import {
  RECORD_FILE,
  RECORD_FORMAT,
  RecordFile,
  type RecordFile as RecordFileType,
} from '../../types/sharing.js';
import type { BeforeState as BeforeStateType, Snapshot } from '../../types/snapshot.js';
import { SafeId } from '../../types/snapshot.js';
import { listRefsWithParents, type CommitRef, type ObjectFormat } from '../git/record-objects.js';
import type { GitOptions } from '../git/runner.js';
import { recordCommit, type RecordObjects } from './record-objects.js';
import { PATCH_ARGS } from '../git/unified-diff.js';

/** Where the records live, locally and on every remote: one ref per iteration. */
export const RECORDS_PREFIX = 'refs/agentgate/records/';
/** Fetches and imports land here first; only records that pass every check are moved to RECORDS_PREFIX. */
export const INCOMING_PREFIX = 'refs/agentgate/incoming/';
/** The iteration refs the snapshotter keeps (after commit). */

/** The diff-tree arguments of every patch artifact (the two tree ids follow). */
export const PATCH_RECIPE_ARGS: readonly string[] = PATCH_ARGS.slice(1);

export function recordRef(runId: string, iteration: number, prefix = RECORDS_PREFIX): string {
  return `${prefix}${runId}/iteration-${iteration}`;
}

/** `<prefix><runId>/iteration-<n>` back to its parts; null for any other name (untrusted input). */
export function parseRecordRef(ref: string, prefix: string): { runId: string; iteration: number } | null {
  if (!ref.startsWith(prefix)) return null;
  const m = /^([^/]+)\/iteration-(0|[1-9][0-9]{0,15})$/.exec(ref.slice(prefix.length));
  if (!m || !SafeId.safeParse(m[1]).success) return null;
  const iteration = Number(m[2]);
  return Number.isSafeInteger(iteration) ? { runId: m[1] as string, iteration } : null;
}

/** The patch file of a snapshot, relative to the artifacts directory. */
export function relativePatchFile(runId: string, iteration: number): string {
  return `${runId}/iteration-${iteration}/patch.diff`;
}

/**
 * The record that travels for one snapshot (its run gives createdAt, the before state when it
 * matches, and the latest restart declared before this iteration).
 */
export function buildRecord(snapshot: Snapshot, run: RunRecord): RecordFileType {
  const before = run.before !== null && run.before.sha === snapshot.beforeSha ? run.before : null;
  const restart = (run.restarts ?? []).filter((r) => r.lastIteration < snapshot.iteration).at(-1);
  const changed = snapshot.beforeSha !== snapshot.afterSha;
  return RecordFile.parse({
    format: RECORD_FORMAT,
    snapshot: {
      id: snapshot.id,
      runId: snapshot.runId,
      iteration: snapshot.iteration,
      beforeSha: snapshot.beforeSha,
      afterSha: snapshot.afterSha,
      branch: snapshot.branch,
      commitMessage: snapshot.commitMessage,
      patchSha256: snapshot.patchSha256,
      filesChanged: snapshot.filesChanged,
      insertions: snapshot.insertions,
      deletions: snapshot.deletions,
      createdAt: snapshot.createdAt,
      files: snapshot.files,
      task: snapshot.task ?? null,
      gate: snapshot.gate ?? null,
      ...(snapshot.skipped === undefined ? {} : { skipped: snapshot.skipped }),
    },
    workspace: snapshot.recordedWorkspace ?? snapshot.workspace,
    patch: changed
      ? { file: relativePatchFile(snapshot.runId, snapshot.iteration), args: [...PATCH_RECIPE_ARGS] }
      : null,
    run: { createdAt: run.createdAt, before, ...(restart === undefined ? {} : { restart }) },
  });
}

/**
 * The record commit: its tree holds `record.json`, its only parent is the after commit (so that the
 * iteration's history travels with it), dated by the snapshot (a repeated publication is "up to date").
 */
export function recordObjects(format: ObjectFormat, record: RecordFileType): RecordObjects {
  const s = record.snapshot;
  return recordCommit(format, {
    file: RECORD_FILE,
    json: Buffer.from(`${JSON.stringify(record, null, 2)}\n`),
    parent: s.afterSha,
    at: s.createdAt,
    message: `[agentgate] Record of run ${s.runId} iteration ${s.iteration}\n\nAgentgate-Snapshot: ${s.id}\n`,
  });
}

/**
 * Whether `commit`, received with `received`, is the record this home makes of its own `snapshot`:
 * the very commit, so nothing edited can pass for ours. Only the run's before state may differ, and
 * only once the run has a later one: a record made while the iteration's own was current carried
 * that, which this home no longer holds, so it must be one that iteration could have started from.
 */
export function isRecordOf(
  commit: string,
  received: RecordFileType,
  snapshot: Snapshot,
  run: RunRecord,
): boolean {
  const ours = buildRecord(snapshot, run);
  const current = run.beforeUsedBy?.snapshotId === snapshot.id;
  const before = received.run.before;
  if (!current && before !== null && !couldBeBeforeOf(before, snapshot)) return false;
  const expected = current ? ours : { ...ours, run: { ...ours.run, before } };
  return recordObjects(commit.length === 64 ? 'sha256' : 'sha1', expected).commit.id === commit;
}

/**
 * Whether `before` can be the before state `snapshot` started from, as far as the snapshot tells
 * (buildRecord carries only one whose sha is the snapshot's before commit). Neither its branch (an
 * agent may switch or detach HEAD during the iteration) nor its capturedAt (after an iteration that
 * changed nothing, the next one's before state has the same sha and is carried) is compared.
 */
export function couldBeBeforeOf(
  before: BeforeStateType,
  snapshot: Pick<Snapshot, 'runId' | 'beforeSha'>,
): boolean {
  return (
    before.runId === snapshot.runId &&
    before.sha === snapshot.beforeSha &&
    (before.wipSha === null || before.wipSha === before.sha) &&
    before.isDirty === (before.wipSha !== null)
  );
}

export { iterationRef, RUNS_PREFIX };

/**
 * For each ref name, the ref of `existing` that keeps git from making it, or null: git keeps refs
 * as files in directories, so `a/b` and `a/b/c` cannot both exist (a plain `git fetch` of a
 * remote's `refs/agentgate/*`, or another tool, can leave such a name).
 */
export function refInTheWay(existing: Iterable<string>): (ref: string) => string | null {
  const names = new Set(existing);
  /** Each directory that holds refs, and one ref below it. */
  const dirs = new Map<string, string>();
  for (const name of names)
    for (let i = name.indexOf('/'); i !== -1; i = name.indexOf('/', i + 1))
      if (!dirs.has(name.slice(0, i))) dirs.set(name.slice(0, i), name);
  return (ref) => {
    const below = dirs.get(ref);
    if (below !== undefined) return below;
    for (let i = ref.indexOf('/'); i !== -1; i = ref.indexOf('/', i + 1))
      if (names.has(ref.slice(0, i))) return ref.slice(0, i);
    return null;
  };
}

/**
 * The refs held under `prefix` (`refs/agentgate/gates/`) by name, and what would keep a new one from
 * being made (refInTheWay). Listed without the prefix's slash: a ref named like the directory itself
 * (which a plain `git fetch` of a remote's refs/agentgate/* can bring) is in the way of every one.
 */
export async function heldUnder(
  repo: GitOptions,
  prefix: string,
): Promise<{ local: Map<string, CommitRef>; inTheWay: (ref: string) => string | null }> {
  const listed = await listRefsWithParents(repo, prefix.slice(0, -1));
  return {
    local: new Map(listed.filter((r) => r.ref.startsWith(prefix)).map((r) => [r.ref, r])),
    inTheWay: refInTheWay(listed.map((r) => r.ref)),
  };
}

/** Why a received ref is refused when `blocker` (see refInTheWay) keeps it from being made. */
export function refInTheWayReason(ref: string, blocker: string): string {
  return `this repository's ref ${blocker} is in the way of ${ref} (git cannot hold both); remove it with "git update-ref -d ${blocker}" and receive again`;
}
