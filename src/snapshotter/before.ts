import { ON_DIRTY, type OnDirty } from '../../types/config.js';
import type { RunRecord, RunRestart } from '../../types/run.js';
import type { BeforeState } from '../../types/snapshot.js';
import { commitIndex, createSnapshotCommit, hiddenChanges } from '../git/commit.js';
import { assertNoRefusedFilter } from '../git/refused-filters.js';
import { assertSafeWorkspace, initRepo, openRepo, type Repo, userAttributesFile } from '../git/repo.js';
import { excludeNestedRepositories } from '../git/nested-repos.js';
import { isAncestor, listRefs, updateRefs } from '../git/refs.js';
import { switchToBranch } from '../git/branches.js';
import { readIndexEntries } from '../git/index-entries.js';
import { getRepoState, operationInProgress, type RepoState } from '../git/state.js';
import { indexStateAgain, readIndexState, sealOf, trustIndex } from '../git/index-seal.js';
import {
  DirtyWorkspaceError,
  InvalidArgumentError,
  IterationInterruptedError,
  NotARepositoryError,
  OperationInProgressError,
  RunDivergedError,
  UnmergedPathsError,
} from '../errors.js';
import { assertSafeId } from '../store/paths.js';
import { wipMessage, wipStagedMessage } from './message.js';
import { restartPoint } from './restart-check.js';
import {
  checkoutAdvice,
  killedRestart,
  ownWip,
  recordedAgain,
  wipAtHead,
  wipRescue,
} from './before-retry.js';
import { withRepoLock } from '../git/repo-lock.js';
import { captureExcludes, hasUserFiles } from './excludes.js';
import { DEFAULT_BRANCH, wipRef, type SnapshotterCore } from './core.js';
import { linkOrphans } from './orphans.js';
import { runOfWorkspace } from './moved-run.js';

export interface BeforeOptions {
  runId: string;
  onDirty?: OnDirty;
  /**
   * Initialise a directory that is not a repository yet (branch main) and commit its files as the
   * root commit. Without it such a directory is NOT_A_REPOSITORY: creating a repository, and
   * committing whatever lies there, must be a choice.
   */
  init?: boolean;
  /**
   * Commit the run on this branch instead of the checked-out one: it is created at HEAD when it does
   * not exist, and HEAD is switched to it without a checkout (files and index stay as they are), so
   * the WIP commit and every iteration land there and the user's branch never moves.
   */
  branch?: string;
  /**
   * Declares that the next iteration starts from iteration N's after commit (0: the run's first
   * before SHA), where HEAD must be: the restart is recorded, and `verify` accepts it. Without it,
   * a HEAD that does not build on the run's last iteration is RUN_DIVERGED.
   */
  restartFrom?: number;
}

const MAX_DETACHED_BRANCHES = 100;

/**
 * Records where the run's next iteration starts. A missing repository is initialised, an unborn
 * branch gets a root commit, HEAD is switched to `branch` when one is given (otherwise a detached
 * HEAD gets the branch `agentgate/<runId>`), and uncommitted work is saved as a WIP commit (or
 * refused with DIRTY_WORKSPACE when onDirty is "error").
 */
export async function captureBeforeState(
  core: SnapshotterCore,
  workspace: string,
  opts: BeforeOptions,
): Promise<BeforeState> {
  const runId = assertSafeId(opts.runId, 'run id');
  const onDirty = opts.onDirty ?? core.options.onDirty;
  const { repo, nested } = await openOrInit(core, workspace, onDirty, opts.init === true);
  return withRepoLock(repo, core.options.lockTimeoutMs, async (recovered) => {
    if (recovered) await linkOrphans(core, repo.topLevel);
    await runOfWorkspace(core, repo, runId);
    const excludes = await captureExcludes(repo, core.options);
    return beforeIn(core, repo, {
      runId,
      onDirty,
      nested,
      excludes,
      branch: opts.branch,
      restartFrom: opts.restartFrom,
    });
  });
}

/** The before state, under the repository lock, once the run record has been checked. */
export async function beforeIn(
  core: SnapshotterCore,
  repo: Repo,
  opts: {
    runId: string;
    onDirty: OnDirty;
    nested: string[];
    excludes: string[];
    branch: string | undefined;
    restartFrom: number | undefined;
  },
): Promise<BeforeState> {
  const { runId, onDirty, nested, excludes } = opts;
  const [run, indexNow] = await Promise.all([core.store.loadRun(runId), readIndexState(repo)]);
  // An index written since this run's last capture may carry stat data that hides an edit; a new
  // run starts from the user's own index as it is.
  const trusted = run?.indexSeal === undefined ? indexNow : await trustIndex(repo, run.indexSeal, indexNow);
  // The index beside status: the files it marks assume-unchanged or skip-worktree, which status
  // does not compare, are named in `skipped` also when nothing is committed.
  const [state, index] = await Promise.all([
    getRepoState(repo, excludes),
    readIndexEntries(repo, 'marked', trusted.bytes),
    assertNoRefusedFilter(repo),
  ]);
  assertNoOperation(state);
  await assertNoAgentWorkLeft(repo, run, state);
  const { restart, wip, unusedAfter } = await startOfNext(core, repo, run, runId, state, opts.restartFrom);
  const dirty = state.isDirty;
  if (dirty && onDirty === 'error') {
    throw new DirtyWorkspaceError(
      `${repo.topLevel} has uncommitted changes; commit or stash them, or use --on-dirty wip-commit`,
      {
        details: { workspace: repo.topLevel },
      },
    );
  }
  let branch = state.branch;
  if (opts.branch !== undefined) {
    branch = await switchToBranch(repo, opts.branch, state.sha);
  } else if (state.headState === 'detached' && state.sha) {
    branch = await nameDetachedHead(repo, runId, state.sha);
  } else if (state.headState === 'unborn' && branch === null) {
    // Unborn on a ref outside refs/heads/ or on a name that is not UTF-8: the root commit would land
    // there, under a branch no record can name. It lands on a branch of the run's own instead.
    branch = await nameDetachedHead(repo, runId, null);
  }
  const unborn = state.headState === 'unborn';
  const message = unborn && !dirty ? `[agentgate] Root commit before run ${runId}\n` : wipMessage(runId);
  // A staged version that is neither HEAD's nor the work tree's would be lost by staging the work
  // tree: it is committed first, as it stands, and the WIP commit (the work tree) goes on top.
  const staged = dirty && state.partlyStaged ? await commitIndex(repo, wipStagedMessage(runId)) : undefined;
  // The WIP commit gets its ref in the same update-ref as the branch: once HEAD moves past it (an
  // agent's reset), that ref alone keeps the user's work. HEAD itself is no WIP commit of ours.
  const keep = (sha: string) => (sha === state.sha ? [] : [{ ref: wipRef(runId, sha) }]);
  const commit =
    dirty || unborn
      ? await createSnapshotCommit(repo, message, {
          excludes,
          index,
          ...(staged ? { head: staged } : {}),
          ...(dirty ? { alsoPoint: keep } : {}),
        })
      : null;
  // With the staged commit made, HEAD moved even when the work tree added nothing to it.
  const made = dirty && commit !== null && (commit.created || staged !== undefined) ? commit.sha : null;
  // A retry finds the WIP commit an earlier call made at HEAD (and nothing new to commit): still
  // dirty. Its ref is written again (a call killed between its staged commit and its WIP commit).
  if (made === null && wip !== null)
    await updateRefs(repo, [{ ref: wipRef(runId, wip), newSha: wip }], {
      message: 'agentgate: keep WIP commit',
    });
  const wipSha = made ?? wip;
  const skipped = commit?.skipped ?? (await hiddenChanges(repo, null, index));
  // Only an unborn HEAD has no SHA, and then the root commit was just made.
  const sha = (commit?.sha ?? state.sha) as string;
  const before: BeforeState = {
    sha,
    branch: branch ?? DEFAULT_BRANCH,
    isDirty: wipSha !== null,
    wipSha,
    capturedAt: new Date().toISOString(),
    runId,
    headState: state.headState,
    ...(nested.length > 0 ? { nestedRepositories: nested } : {}),
    ...(skipped.length > 0 ? { skipped } : {}),
  };
  const again = restart === null && unusedAfter === null ? recordedAgain(run, before) : null;
  if (again !== null) return again;
  const seal = sealOf(await indexStateAgain(repo, trusted), sha);
  await core.store.recordBefore(runId, repo.topLevel, before, restart, unusedAfter, seal);
  return before;
}

/**
 * Where the run's next iteration may start, checked before anything is written: on HEAD when it
 * builds on the run's last iteration (or on a restart declared since), else RUN_DIVERGED. With
 * `restartFrom`, HEAD must be at that iteration's after commit, or at this run's WIP commit made
 * there (a retry), and the restart to record is returned (null: that very restart is the last one
 * recorded). `wip`: the WIP commit of an earlier call found at HEAD, which a retry keeps as its own.
 */
async function startOfNext(
  core: SnapshotterCore,
  repo: Repo,
  run: RunRecord | null,
  runId: string,
  state: Pick<RepoState, 'sha' | 'isDirty'>,
  restartFrom: number | undefined,
): Promise<{ restart: RunRestart | null; wip: string | null; unusedAfter: number | null }> {
  const head = state.sha;
  if (restartFrom !== undefined) {
    const restart = await restartOf(core, repo, run, runId, state, restartFrom);
    return { ...restart, unusedAfter: restart.restart?.lastIteration ?? null };
  }
  const base = await assertBuildsOnRun(core, repo, run, head, 'HEAD').catch(async (error: unknown) => {
    if (!(error instanceof RunDivergedError)) throw error;
    throw await killedRestart(repo, runId, head, () => core.store.loadByRun(runId), error);
  });
  const wip = state.isDirty || head === null ? null : await wipAtHead(repo, run, runId, head, base);
  return { restart: null, wip, unusedAfter: await voidedRestarts(core, repo, run, head) };
}

/**
 * The run's last iteration when restarts were declared after it (none built on them yet) and HEAD
 * holds that iteration's work: a plain before there voids them (the iteration it starts builds on
 * the last one, whatever they set aside), else null.
 */
async function voidedRestarts(
  core: SnapshotterCore,
  repo: Repo,
  run: RunRecord | null,
  head: string | null,
): Promise<number | null> {
  if (run?.restarts === undefined || head === null) return null;
  const last = await core.store.loadLast(run);
  if (last === null || !run.restarts.some((r) => r.lastIteration === last.iteration)) return null;
  const holds = head === last.afterSha || (await isAncestor(repo, last.afterSha, head).catch(() => false));
  return holds ? last.iteration : null;
}

/** `before --restart-from N`: see startOfNext. */
async function restartOf(
  core: SnapshotterCore,
  repo: Repo,
  run: RunRecord | null,
  runId: string,
  state: Pick<RepoState, 'sha' | 'isDirty'>,
  from: number,
): Promise<{ restart: RunRestart | null; wip: string | null }> {
  const head = state.sha;
  const snapshots = run === null ? [] : await core.store.loadByRun(runId);
  const last = snapshots.at(-1) ?? null;
  const sha = restartPoint(snapshots, from);
  if (last === null || sha === null)
    throw new InvalidArgumentError(
      `run ${runId} has no iteration ${from} to restart from${last === null ? ' (no iteration was recorded yet)' : ''}`,
      { details: { runId, restartFrom: from } },
    );
  const wip = head === sha ? null : await ownWip(repo, runId, head);
  if (head !== sha && wip?.base !== sha)
    throw new RunDivergedError(
      `HEAD is at ${head ?? '(no commit)'}, not at ${from === 0 ? "the run's start" : `iteration ${from}'s after commit`} ${sha}; ${await checkoutAdvice(repo, runId, state, sha, wip)}`,
      { details: { runId, restartFrom: from, expected: sha, head } },
    );
  const declared = run?.restarts?.at(-1);
  const again = declared?.from === from && declared.sha === sha && declared.lastIteration === last.iteration;
  return {
    restart: again ? null : { from, sha, lastIteration: last.iteration, at: new Date().toISOString() },
    wip: wip?.sha ?? null,
  };
}

/**
 * RUN_DIVERGED unless `start` (HEAD for `before`, the start of an `after`) builds on the run's
 * last iteration, or on the restart declared since. `what` names the start in the message.
 * Returns the commit it builds on (null: nothing to build on, or the iteration is not the next).
 */
export async function assertBuildsOnRun(
  core: SnapshotterCore,
  repo: Repo,
  run: RunRecord | null,
  start: string | null,
  what: string,
  /** The iteration that will start there: an earlier or the same one is for the iteration checks to refuse or return. */
  iteration?: number,
): Promise<string | null> {
  // The last iteration alone: reading every snapshot of a long run would cost each iteration more.
  const last = run === null ? null : await core.store.loadLast(run);
  if (run === null || last === null || (iteration !== undefined && iteration <= last.iteration)) return null;
  const declared = (run.restarts ?? []).filter((r) => r.lastIteration === last.iteration).at(-1);
  const base = declared?.sha ?? last.afterSha;
  if (start !== null && (start === base || (await isAncestor(repo, base, start).catch(() => false))))
    return base;
  const restart = `check out iteration N's after commit and run "before --run ${run.runId} --restart-from N" (N = 0: the run's start)`;
  // HEAD left the recorded before state too (an agent's reset): its WIP commit is named, so that a
  // reset to go on does not leave that work behind unseen.
  const wip = what === 'HEAD' && !run.beforeUsedBy ? (run.before?.wipSha ?? null) : null;
  const rescue = wip === null ? null : await wipRescue(repo, run.runId, wip, start);
  throw new RunDivergedError(
    `${what} (${start ?? 'no commit'}) does not build on ${declared ? `the restart from iteration ${declared.from}` : `iteration ${last.iteration}'s after commit`} ${base}; ${what === 'HEAD' ? '' : `start the iteration there or later (--before ${base}), or `}to start over from an earlier point, ${restart}${rescue === null ? '' : `. ${rescue.text.trimEnd()}`}`,
    {
      details: {
        runId: run.runId,
        expected: base,
        head: start,
        lastIteration: last.iteration,
        ...rescue?.details,
      },
    },
  );
}

/** Opens the workspace's repository, or initialises one; with onDirty "error", files there refuse first (nothing is created). */
export async function openOrInit(
  core: SnapshotterCore,
  workspace: string,
  onDirty: OnDirty,
  init: boolean,
): Promise<{ repo: Repo; nested: string[] }> {
  // Checked here, where `before` and `iterate` both start: a misspelt word must not mean "commit"
  // (a WIP commit of someone's work is not undone by a retry).
  if (!(ON_DIRTY as readonly string[]).includes(onDirty))
    throw new InvalidArgumentError(
      `onDirty must be one of ${ON_DIRTY.join(', ')}, not ${JSON.stringify(onDirty)}`,
      {
        details: { onDirty },
      },
    );
  try {
    return { repo: await openRepo(workspace, core.gitOptions()), nested: [] };
  } catch (cause) {
    if (!(cause instanceof NotARepositoryError)) throw cause;
    const dir = typeof cause.details.workspace === 'string' ? cause.details.workspace : workspace;
    assertSafeWorkspace(dir);
    if (!init) {
      throw new NotARepositoryError(
        `${dir} is not a git repository; initialise it first, or let "before" do it (--init, or the init option), which commits the files there as the first commit`,
        {
          cause,
          details: { workspace: dir },
        },
      );
    }
    if (onDirty === 'error' && (await hasUserFiles(dir, core.options))) {
      throw new DirtyWorkspaceError(
        `${dir} is not a repository yet and holds files that the first commit would take; use --on-dirty wip-commit, or commit them yourself`,
        {
          details: { workspace: dir },
        },
      );
    }
    await assertNoRefusedFilter({ topLevel: dir, attributesFile: await userAttributesFile(dir) });
    const repo = await initRepo(workspace, DEFAULT_BRANCH, core.gitOptions());
    // Repositories nested in the directory stay theirs: never recorded as gitlinks of ours.
    return { repo, nested: await excludeNestedRepositories(repo) };
  }
}

/**
 * Gives a detached HEAD the branch `agentgate/<runId>` (files and index untouched; an unborn HEAD,
 * `sha` null, is put on it and the first commit makes it). If that name is
 * taken, or cannot be made beside an existing branch (`agentgate/<runId>/x`, or a branch named
 * `agentgate`, which no `agentgate/...` can sit beside), the next free one of
 * `agentgate/<runId>-2`, `-3`, ..., then `agentgate-<runId>`, `agentgate-<runId>-2`, ...
 */
export async function nameDetachedHead(repo: Repo, runId: string, sha: string | null): Promise<string> {
  const branches = (await listRefs(repo, 'refs/heads/')).map((r) => r.ref);
  const clashes = (name: string): boolean => {
    const ref = `refs/heads/${name}`;
    return branches.some((b) => b === ref || b.startsWith(`${ref}/`) || ref.startsWith(`${b}/`));
  };
  for (const prefix of ['agentgate/', 'agentgate-']) {
    for (let n = 1; n <= MAX_DETACHED_BRANCHES; n++) {
      const name = n === 1 ? `${prefix}${runId}` : `${prefix}${runId}-${n}`;
      if (clashes(name)) continue;
      return switchToBranch(repo, name, sha);
    }
  }
  throw new InvalidArgumentError(
    `no branch agentgate/${runId}, agentgate/${runId}-N or agentgate-${runId}(-N) up to ${MAX_DETACHED_BRANCHES} can be made beside the existing branches; delete the old ones, check out a branch, or name one with --branch`,
    {
      details: { runId },
    },
  );
}

export function assertNoOperation(state: Pick<RepoState, 'unmergedPaths' | 'operation'>): void {
  if (state.unmergedPaths.length > 0) {
    throw new UnmergedPathsError(
      `the workspace has unmerged paths (${state.unmergedPaths.slice(0, 5).join(', ')}); resolve the conflicts and commit, then retry`,
      {
        details: { paths: state.unmergedPaths },
      },
    );
  }
  if (state.operation) {
    const { what, giveUp } = operationInProgress(state.operation);
    throw new OperationInProgressError(`${what}; finish it or give it up (${giveUp}), then retry`, {
      details: { operation: state.operation },
    });
  }
}

/**
 * ITERATION_INTERRUPTED while the agent of an `iterate` whose after step failed left its work here
 * (RunRecord.agentRan): uncommitted, or committed on top of that iteration's start. A new before
 * would record it as the user's (a WIP commit, or its start) and no snapshot would hold it. Only
 * `after` of that iteration takes it; discarded (HEAD back at the start, nothing uncommitted), the
 * iteration can run again. HEAD moved elsewhere (reset past the start) holds none of it: what the
 * run's line allows there is decided as for any before.
 */
async function assertNoAgentWorkLeft(
  repo: Repo,
  run: RunRecord | null,
  state: Pick<RepoState, 'sha' | 'isDirty'>,
): Promise<void> {
  const ran = run?.agentRan;
  const before = run?.before;
  if (ran === undefined || !before || run?.beforeUsedBy || ran.beforeCapturedAt !== before.capturedAt) return;
  const committedOnTop =
    state.sha !== null &&
    state.sha !== before.sha &&
    (await isAncestor(repo, before.sha, state.sha).catch(() => false));
  if (!state.isDirty && !committedOnTop) return;
  throw new IterationInterruptedError(
    `the after step of iteration ${ran.iteration} of run ${run?.runId} failed once its agent had run, and the agent's work is still in the workspace (uncommitted, or committed on top of ${before.sha}): a new before would record it as yours. Fix what that after step refused, then record the iteration with "after --run ${run?.runId} --iteration ${ran.iteration}" (with the same --task and --gate); or discard the work (HEAD back at ${before.sha}, no uncommitted changes) to run it again`,
    { details: { runId: run?.runId, iteration: ran.iteration, before: before.sha } },
  );
}
