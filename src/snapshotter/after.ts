import { dirname } from 'node:path';
import { idGenerator } from '../fs/random-id.js';
import { sweepTempFiles } from '../fs/sweep.js';
import type { IndexSeal, RunRecord } from '../../types/run.js';
import type { AgentOutcome, BeforeState, DiffStats, Snapshot } from '../../types/snapshot.js';
import { createSnapshotCommit } from '../git/commit.js';
import { getCommitInfo } from '../git/commit-info.js';
import { treeDiffStats } from '../git/diff-stats.js';
import { assertNoRefusedFilter } from '../git/refused-filters.js';
import { openRepo, type Repo } from '../git/repo.js';
import { getTree, isAncestor, objectExists, resolveRevision } from '../git/refs.js';
import { readableRef } from '../git/branches.js';
import { getRepoHead, getRepoState, type RepoState } from '../git/state.js';
import { indexStateAgain, readIndexState, sealOf, trustIndex } from '../git/index-seal.js';
import {
  HistoryRewrittenError,
  InvalidArgumentError,
  IterationExistsError,
  IterationOutOfOrderError,
  NoBeforeStateError,
  RunIdTakenError,
  RunNotFoundError,
  StoreCorruptError,
} from '../errors.js';
import { assertSafeId, makeRunArtifactsDir, patchPath } from '../store/paths.js';
import { iterationMessage, trailer } from './message.js';
import { writePatchArtifact } from './patch-artifact.js';
import { withRepoLock } from '../git/repo-lock.js';
import { captureExcludes } from './excludes.js';
import { assertNoLinkInside } from '../fs/inside.js';
import { assertTempDirUsable } from '../fs/temp-dir.js';
import { assertBuildsOnRun, assertNoOperation, nameDetachedHead } from './before.js';
import { DEFAULT_BRANCH, iterationRef, type SnapshotterCore } from './core.js';
import { wipRescue } from './before-retry.js';
import { linkOrphans, linkSaved } from './orphans.js';
import { runOfWorkspace } from './moved-run.js';

export interface AfterOptions {
  runId: string;
  iteration: number;
  taskPrompt?: string;
  gatePlanSource?: string;
  /** Overrides the recorded before SHA (any revision the workspace can resolve). */
  beforeSha?: string;
}

const newSnapshotId = idGenerator(16);

/**
 * Commits everything the iteration changed and stores the snapshot. Compares against the before
 * SHA, not against "dirty", so commits the agent made itself are part of the snapshot. With no
 * change at all, nothing is committed and afterSha equals beforeSha.
 */
export async function captureAfterState(
  core: SnapshotterCore,
  workspace: string,
  before: BeforeState | null,
  opts: AfterOptions,
  agent?: AgentOutcome,
): Promise<Snapshot> {
  const runId = assertSafeId(opts.runId, 'run id');
  assertIteration(opts.iteration);
  assertBeforeOfRun(before, runId);
  // Opened and checked here, on every call: `iterate` comes through here too once its agent has
  // returned, because the agent may have rewritten the config, the attributes or `.git` itself.
  const repo = await openRepo(workspace, core.gitOptions());
  const texts = { taskPrompt: wellFormed(opts.taskPrompt), gatePlanSource: wellFormed(opts.gatePlanSource) };
  return withRepoLock(repo, core.options.lockTimeoutMs, (recovered) =>
    afterIn(core, repo, recovered, before, { ...opts, ...texts, runId }, agent),
  );
}

/**
 * A lone surrogate (a JavaScript caller's or a `serve` request's "\ud800") has no UTF-8 form: the
 * commit would hold U+FFFD where the store kept the surrogate, and `verify` would fail the new
 * snapshot's message and task. Both get U+FFFD, as a task file that is not UTF-8 does.
 */
function wellFormed(text: string | undefined): string | undefined {
  return text?.toWellFormed();
}

/** The after step under the repository lock (see captureAfterState). */
async function afterIn(
  core: SnapshotterCore,
  repo: Repo,
  recovered: boolean,
  before: BeforeState | null,
  opts: AfterOptions,
  agent?: AgentOutcome,
): Promise<Snapshot> {
  const { runId } = opts;
  // A call killed between saving its snapshot and linking it left the snapshot unlinked.
  if (recovered) {
    await linkOrphans(core, repo.topLevel);
    await core.store.sweepTempFiles();
    await sweepTempFiles(dirname(patchPath(core.options.artifactsDir, runId, opts.iteration)));
  }
  // HEAD, conflicts and operations come from HEAD and the index: add -A below is the one pass
  // over the work tree (a status pass here would cost as much again on a large tree).
  // The index is read and hashed while git reads HEAD: only add -A below writes it.
  const reading = readIndexState(repo);
  const [head, indexNow] = await Promise.all([
    getRepoHead(
      repo,
      reading.then((s) => s.bytes),
    ),
    reading,
  ]);
  const start = await startOf(core, repo, runId, opts.iteration, before, opts.beforeSha, head);
  // An index written since the run's last capture may carry stat data that hides an edit.
  const trusted = await trustIndex(repo, start.sealed, indexNow);
  assertNoOperation(head);
  await assertDescends(repo, runId, start, head);
  const message = iterationMessage({
    runId,
    iteration: opts.iteration,
    taskPrompt: opts.taskPrompt ?? '',
    gatePlanSource: opts.gatePlanSource ?? '',
    beforeSha: start.sha,
  });
  const excludes = await captureExcludes(repo, core.options);
  const done = await assertIterationFree(core, runId, opts.iteration, {
    beforeSha: start.sha,
    headSha: head.sha,
    message,
    task: opts.taskPrompt ?? null,
    gate: opts.gatePlanSource ?? null,
    isDirty: async () => (await getRepoState(repo, excludes)).isDirty,
  });
  if (done) {
    // A retry of a call killed before its link: the link, and the before state's use, are made now.
    await core.store.linkSnapshot(runId, repo.topLevel, done.id, done.iteration, start.usesBefore);
    return done;
  }
  // Refused before anything is committed: an artifact path through a link the agent made, and a
  // temporary directory where the diffs cannot run (WRITE_FAILED, not a commit and then a failure).
  const artifactPath = patchPath(core.options.artifactsDir, runId, opts.iteration);
  await assertNoLinkInside(repo.topLevel, artifactPath);
  await assertNoRefusedFilter(repo);
  await assertTempDirUsable();
  const ref = iterationRef(runId, opts.iteration);
  const messageOf = commitMessages(repo);
  // Before HEAD is given a branch: RUN_ID_TAKEN says nothing changed.
  const held = await heldIterationRef(
    repo,
    { runId, iteration: opts.iteration, message, head: head.sha },
    messageOf,
  );
  // An agent that detached HEAD gets a branch too, so that `branch` names where the commit is.
  const detached = head.headState === 'detached' && head.sha !== null;
  const branch = detached
    ? await nameDetachedHead(repo, runId, head.sha as string)
    : (head.branch ?? start.branch);
  const commit = await createSnapshotCommit(repo, message, {
    excludes,
    alsoPoint: [{ ref, oldSha: held.sha }],
    // Another's ref at HEAD may stay where it is (nothing new to commit), never move.
    ...(held.mayMove ? {} : { beforeCommit: () => Promise.reject(held.taken()) }),
    ...(detached ? {} : { head: { ref: head.ref, sha: head.sha } }),
    // HEAD at a commit another snapshot made (a second run in this workspace, or its WIP commit):
    // this iteration still gets its own commit, whose message and trailers verify checks.
    commitUnchanged: async (parent) =>
      parent !== start.sha && isOtherSnapshot(await messageOf(parent), message),
  });
  const afterSha = commit.sha;
  // Usually the agent made no commit of its own, and the commit's parent is the before commit.
  const beforeTree =
    commit.parent === start.sha && commit.parentTree !== null
      ? commit.parentTree
      : await getTree(repo, start.sha);
  const trees = { from: beforeTree, to: commit.tree };
  // A retry after a call killed once its commit was made finds HEAD at that commit: still ours.
  const ours =
    commit.created || (afterSha !== start.sha && (await messageOf(afterSha)) === message.replace(/\n$/, ''));
  const [stats, artifact, seal] = await Promise.all([
    treeDiffStats(repo, trees),
    afterSha === start.sha
      ? null
      : makeRunArtifactsDir(core.options.artifactsDir, runId).then(() =>
          writePatchArtifact(repo, trees, artifactPath),
        ),
    indexStateAgain(repo, trusted),
  ]);
  const snapshot: Snapshot = {
    id: `snap-${newSnapshotId()}`,
    runId,
    iteration: opts.iteration,
    beforeSha: start.sha,
    afterSha,
    branch,
    commitMessage: ours ? message : '',
    patchPath: artifact?.path ?? null,
    patchSha256: artifact?.sha256 ?? null,
    ...totals(stats),
    createdAt: new Date().toISOString(),
    files: stats.files,
    workspace: repo.topLevel,
    ref,
    task: opts.taskPrompt ?? null,
    gate: opts.gatePlanSource ?? null,
    ...(commit.skipped.length > 0 ? { skipped: commit.skipped } : {}),
    ...(agent === undefined ? {} : { agent }),
  };
  await core.store.save(snapshot);
  await linkSaved(core, repo.topLevel, snapshot, start.usesBefore, sealOf(seal, afterSha));
  return snapshot;
}

/** Where an iteration started (`wipSha`: the WIP commit that start is, if any). */
type Start = { sha: string; branch: string; wipSha: string | null; usesBefore: boolean };

/**
 * Where the iteration started: the given state, else `--before SHA`, else the run's recorded
 * before state, which one `after` uses up (a second needs a new `before`: NO_BEFORE_STATE).
 * `usesBefore` tells whether the start is the run's before state; `sealed`, the run's index seal.
 */
async function startOf(
  core: SnapshotterCore,
  repo: Repo,
  runId: string,
  iteration: number,
  given: BeforeState | null,
  beforeRev: string | undefined,
  state: { branch: string | null },
): Promise<Start & { sealed: IndexSeal | undefined }> {
  const run = await runOfWorkspace(core, repo, runId);
  const start = await givenStart(repo, { runId, run, iteration }, given, beforeRev, state);
  // As `before` checks HEAD: a start that skips the run's last iteration would break its continuity.
  const what = beforeRev === undefined ? 'the before state' : 'the start given with --before';
  await assertBuildsOnRun(core, repo, run, start.sha, what, iteration);
  return { ...start, sealed: run?.indexSeal };
}

/** The given before state, else `--before SHA`, else the run's recorded before state (see startOf). */
async function givenStart(
  repo: Repo,
  { runId, run, iteration }: { runId: string; run: RunRecord | null; iteration: number },
  given: BeforeState | null,
  beforeRev: string | undefined,
  state: { branch: string | null },
): Promise<Start> {
  if (given) return { ...given, usesBefore: true };
  if (beforeRev !== undefined)
    return {
      sha: await resolveRevision(repo, beforeRev),
      branch: run?.before?.branch ?? state.branch ?? DEFAULT_BRANCH,
      wipSha: null,
      usesBefore: false,
    };
  if (!run?.before) {
    throw new RunNotFoundError(
      `run ${runId} has no recorded before state; call "before --run ${runId}" first or pass --before SHA`,
      { details: { runId } },
    );
  }
  const usedBy = run.beforeUsedBy;
  // The same or an earlier iteration again is a retry, ITERATION_EXISTS or ITERATION_OUT_OF_ORDER, decided by assertIterationFree.
  if (usedBy && iteration > usedBy.iteration) {
    throw new NoBeforeStateError(
      `the before state of run ${runId} was used by iteration ${usedBy.iteration} (snapshot ${usedBy.snapshotId}); call "before --run ${runId}" before each iteration, or pass --before SHA`,
      {
        details: { runId, usedBy },
      },
    );
  }
  return { ...run.before, usesBefore: true };
}

/**
 * One snapshot per iteration: a second one would replace the first one's patch artifact and
 * iteration ref, and the first would no longer verify. The exception is a retry of the very same
 * capture (same before, same message or none, the same whole task and gate, HEAD still at its after
 * commit, nothing new in the work tree), as an orchestrator makes when the first call was killed
 * before it could report: that gets the stored snapshot back.
 */
export async function assertIterationFree(
  core: SnapshotterCore,
  runId: string,
  iteration: number,
  /** What a retry of the same capture would find; null when no retry is possible (iterate, before its agent ran). */
  now: {
    beforeSha: string;
    headSha: string | null;
    message: string;
    /** The whole task and gate (the commit message holds a cut of the task; a no-change snapshot has none). */
    task: string | null;
    gate: string | null;
    isDirty: () => Promise<boolean>;
  } | null,
): Promise<Snapshot | null> {
  const run = await core.store.loadRun(runId);
  if (run === null) return null;
  // Usually the next iteration, which the last snapshot alone shows without reading a long run's
  // every file; a retry, a taken or an earlier iteration (or a damaged last link) looks at them all.
  const last = await core.store.loadLast(run).catch((error: unknown) => {
    if (error instanceof StoreCorruptError) return undefined;
    throw error;
  });
  if (last === null || (last !== undefined && iteration > last.iteration)) return null;
  const { snapshots } = await core.store.inspectRun(runId);
  const taken = snapshots.find((s) => s.iteration === iteration);
  const sameCapture =
    taken !== undefined &&
    now !== null &&
    taken.beforeSha === now.beforeSha &&
    taken.afterSha === now.headSha &&
    // Empty when the capture made no commit (no change, or HEAD at the agent's own commit): the
    // retry finds HEAD at that very commit and makes none either.
    (taken.commitMessage === now.message || taken.commitMessage === '') &&
    // The message keeps only the task's first 100 characters: the whole task and gate must match too.
    (taken.task ?? null) === now.task &&
    (taken.gate ?? null) === now.gate &&
    !(await now.isDirty());
  if (sameCapture) return taken;
  if (taken) {
    throw new IterationExistsError(
      `iteration ${iteration} of run ${runId} is already captured as snapshot ${taken.id}; capture the next iteration, or delete ${taken.id} first`,
      {
        details: { runId, iteration, existing: taken.id },
      },
    );
  }
  const highest = Math.max(-1, ...snapshots.map((s) => s.iteration));
  if (iteration < highest) {
    throw new IterationOutOfOrderError(
      `run ${runId} is already at iteration ${highest}; iterations only go forward, so capture ${highest + 1} or later`,
      { details: { runId, iteration, last: highest } },
    );
  }
  return null;
}

/**
 * The iteration's ref as this capture finds it. It may be set when it is absent or already at the
 * commit the capture ends on; moved, only off a commit of our own earlier attempt (a killed call:
 * the same message). Any other commit there is the same run id's iteration recorded by another home
 * or machine (or fetched), whose ref must not move: RUN_ID_TAKEN, at once when it cannot stay (it is
 * not HEAD, or it claims this very iteration), else `taken` for the caller to throw before a commit.
 */
async function heldIterationRef(
  repo: Repo,
  want: { runId: string; iteration: number; message: string; head: string | null },
  messageOf: (sha: string) => Promise<string>,
): Promise<{ sha: string | null; mayMove: boolean; taken: () => RunIdTakenError }> {
  const ref = iterationRef(want.runId, want.iteration);
  const sha = await readableRef(repo, ref);
  const taken = () => runIdTaken(repo, ref, want.runId, want.iteration, sha as string);
  if (sha === null) return { sha, mayMove: true, taken };
  const found = await messageOf(sha);
  if (found === want.message.replace(/\n$/, '')) return { sha, mayMove: true, taken };
  const claims =
    trailer(found, 'Agentgate-Run') === want.runId &&
    trailer(found, 'Agentgate-Iteration') === String(want.iteration);
  if (sha !== want.head || claims) throw taken();
  return { sha, mayMove: false, taken };
}

/** `iterate`, before its agent runs: the iteration's ref must not exist yet (see heldIterationRef). */
export async function assertIterationRefFree(repo: Repo, runId: string, iteration: number): Promise<void> {
  const ref = iterationRef(runId, iteration);
  const sha = await readableRef(repo, ref);
  if (sha !== null) throw runIdTaken(repo, ref, runId, iteration, sha);
}

function runIdTaken(repo: Repo, ref: string, runId: string, iteration: number, sha: string): RunIdTakenError {
  return new RunIdTakenError(
    `the repository of ${repo.topLevel} already holds iteration ${iteration} of a run ${runId} that this home did not record (${ref} is at ${sha.slice(0, 12)}): another home or machine recorded it, or it was fetched. Use another run id; nothing was committed. (If a killed "after" of this very run made that commit, finish it with "after --run ${runId} --iteration ${iteration}" and the same --task and --gate)`,
    { details: { runId, iteration, ref, sha, workspace: repo.topLevel } },
  );
}

/**
 * The iteration must build on its before SHA: a rewritten history cannot be snapshotted honestly.
 * When the start is a WIP commit, the error names it, its ref and how to get that work back.
 */
async function assertDescends(
  repo: Repo,
  runId: string,
  start: { sha: string; wipSha: string | null },
  state: Pick<RepoState, 'sha'>,
): Promise<void> {
  const beforeSha = start.sha;
  const { wipSha } = start;
  const fail = async (why: string): Promise<never> => {
    const rescue = wipSha === null ? null : await wipRescue(repo, runId, wipSha, state.sha);
    throw new HistoryRewrittenError(
      `${why}; the iteration's history was rewritten. ${rescue?.text ?? ''}To go on with run ${runId}, put HEAD back where this iteration began ("git reset --hard ${beforeSha.slice(0, 12)}": first keep what you need of what was committed or changed since) and run "before" again, or restart from an earlier iteration with "before --restart-from N"`,
      { details: { beforeSha, head: state.sha, ...rescue?.details } },
    );
  };
  const head = state.sha;
  if (!head) return fail('HEAD has no commit any more');
  if (head === beforeSha) return;
  // Both questions at once; a missing before commit makes merge-base fail, which the first answers.
  const [exists, ancestor] = await Promise.all([
    objectExists(repo, beforeSha),
    isAncestor(repo, beforeSha, head).catch(() => false),
  ]);
  if (!exists) await fail(`before commit ${beforeSha} no longer exists`);
  if (!ancestor) await fail(`before commit ${beforeSha} is not an ancestor of HEAD`);
}

/** Reads commit messages, each once. */
function commitMessages(repo: Repo): (sha: string) => Promise<string> {
  const read = new Map<string, Promise<string>>();
  return (sha) => {
    const known = read.get(sha) ?? getCommitInfo(repo, sha).then((c) => c.message);
    read.set(sha, known);
    return known;
  };
}

/** A commit we made for another snapshot or before state (it carries our run trailer), not this one. */
function isOtherSnapshot(headMessage: string, message: string): boolean {
  return headMessage !== message.replace(/\n$/, '') && trailer(headMessage, 'Agentgate-Run') !== null;
}

/**
 * A given before state must be this run's: another run's would start the iteration where that run
 * was told to, and leave that run's own before state unused for its next iteration.
 */
function assertBeforeOfRun(before: BeforeState | null, runId: string): void {
  if (before === null || before.runId === runId) return;
  throw new InvalidArgumentError(
    `the before state given is run ${before.runId}'s, not run ${runId}'s; pass the state captureBeforeState returned for run ${runId} (or null, for the run's recorded one)`,
    { details: { argument: 'before.runId', runId, beforeRunId: before.runId } },
  );
}

/** Checked before anything is committed: the iteration becomes a ref name and a stored field. */
export function assertIteration(iteration: number): void {
  if (!Number.isSafeInteger(iteration) || iteration < 0) {
    throw new InvalidArgumentError(`iteration must be a whole number from 0 up, not ${String(iteration)}`, {
      details: { iteration },
    });
  }
}

function totals(stats: DiffStats): Pick<Snapshot, 'filesChanged' | 'insertions' | 'deletions'> {
  return { filesChanged: stats.filesChanged, insertions: stats.insertions, deletions: stats.deletions };
}
