import { createReadStream } from 'node:fs';
import { readFile, rm, rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { Readable } from 'node:stream';
import { sweepTempFiles } from '../fs/sweep.js';
import { customAlphabet } from 'nanoid';
import type { Identity, OnDirty } from '../../types/config.js';
import type { RunRecord, RunRestart } from '../../types/run.js';
import {
  SafeId,
  type AgentOutcome,
  type BeforeState,
  type CommitInfo,
  type DiffStats,
  type Snapshot,
} from '../../types/snapshot.js';
import type { VerifyCheck, VerifyReport } from '../../types/verify.js';
import { cherryPick } from '../git/cherry-pick.js';
import { streamUnifiedDiff, unifiedDiff, writeUnifiedDiffToFile } from '../git/unified-diff.js';
import { commitTree, createSnapshotCommit } from '../git/commit.js';
import { getCommitInfo } from '../git/commit-info.js';
import { getDiffStats, treeDiffStats } from '../git/diff-stats.js';
import {
  assertNoLfs,
  assertSafeWorkspace,
  excludeNestedRepositories,
  initRepo,
  openRepo,
  resolveWorkspaceDir,
  type Repo,
} from '../git/repo.js';
import { runUserCommand } from '../process/user-command.js';
import { getTree, isAncestor, objectExists, readRef, resolveRevision, switchToBranch } from '../git/refs.js';
import { getRepoHead, getRepoState, type RepoState } from '../git/state.js';
import {
  AgentNotStartedError,
  AmbiguousIdError,
  DirtyWorkspaceError,
  EmptySnapshotError,
  SnapshotNotFoundError,
  StoreCorruptError,
  HistoryRewrittenError,
  InvalidArgumentError,
  IterationExistsError,
  IterationOutOfOrderError,
  NothingToVerifyError,
  NoBeforeStateError,
  NotARepositoryError,
  OperationInProgressError,
  RunDivergedError,
  RunNotFoundError,
  UnmergedPathsError,
} from '../errors.js';
import { assertSafeId, patchPath } from '../store/paths.js';
import { SnapshotStore } from '../store/snapshot-store.js';
import { LocalPaths } from '../store/local-paths.js';
import { assertRunWorkspace } from '../store/run-records.js';
import { iterationMessage, wipMessage } from './message.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { copyFileAtomic, sha256File, writePatchArtifact } from './patch-artifact.js';
import { continuityChecks, restartPoint, verifySnapshot } from './verify.js';
import { withRepoLock } from '../git/repo-lock.js';
import { hasUserFiles, workspaceExcludes } from './excludes.js';
import { assertNoLinkInside } from '../fs/inside.js';

export interface SnapshotterOptions {
  home: string;
  artifactsDir: string;
  identity: Identity;
  gitTimeoutMs: number;
  lockTimeoutMs: number;
  onDirty: OnDirty;
  /**
   * A workspace on this machine (the CLI's `-C`) that stands in for a recorded workspace that is not
   * here: a store copied from, or fetched from, another machine.
   */
  localWorkspace?: string;
}

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

export interface AfterOptions {
  runId: string;
  iteration: number;
  taskPrompt?: string;
  gatePlanSource?: string;
  /** Overrides the recorded before SHA (any revision the workspace can resolve). */
  beforeSha?: string;
}

export interface IterateOptions extends AfterOptions {
  onDirty?: OnDirty;
  init?: boolean;
  branch?: string;
  /** As for `before`: the iteration declared as the start of this one (0: the run's start). */
  restartFrom?: number;
  /** The agent: argv (never through a shell); with stdoutToStderr its stdout goes to our stderr. */
  agent: { argv: readonly string[]; stdoutToStderr?: boolean };
}

/** What `iterate` returns: the iteration's snapshot and how its agent ended. */
export type IterationSnapshot = Snapshot & { agent: AgentOutcome };

/**
 * Signals we receive while the agent runs and pass on to it. The agent stays in our process group,
 * so a terminal's Ctrl-C reaches it directly too; a SIGINT sent to us alone (an orchestrator's
 * kill) would not, hence it is forwarded as well.
 */
const AGENT_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const newSnapshotId = customAlphabet('0123456789abcdefghijklmnopqrstuvwxyz', 16);
const DEFAULT_BRANCH = 'main';
const MAX_DETACHED_BRANCHES = 100;

/**
 * Run snapshots: the before state of an iteration, one structured commit after it, exact stats,
 * a patch artifact and the stored metadata. Every call on a repository holds its repository lock.
 */
export class Snapshotter {
  readonly store: SnapshotStore;
  private readonly localPaths: LocalPaths;

  constructor(readonly options: SnapshotterOptions) {
    this.store = new SnapshotStore(options.home, { lockTimeoutMs: options.lockTimeoutMs });
    this.localPaths = new LocalPaths(options.artifactsDir, options.localWorkspace);
  }

  /**
   * Records where the run's next iteration starts. A missing repository is initialised, an unborn
   * branch gets a root commit, HEAD is switched to `branch` when one is given (otherwise a detached
   * HEAD gets the branch `agentgate/<runId>`), and uncommitted work is saved as a WIP commit (or
   * refused with DIRTY_WORKSPACE when onDirty is "error").
   */
  async captureBeforeState(workspace: string, opts: BeforeOptions): Promise<BeforeState> {
    const runId = assertSafeId(opts.runId, 'run id');
    const onDirty = opts.onDirty ?? this.options.onDirty;
    const { repo, nested } = await this.openOrInit(workspace, onDirty, opts.init === true);
    return withRepoLock(repo, this.options.lockTimeoutMs, async () => {
      assertRunWorkspace(await this.store.loadRun(runId), runId, repo.topLevel);
      const excludes = await workspaceExcludes(repo.topLevel, this.options);
      return this.beforeIn(repo, {
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
  private async beforeIn(
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
    const state = await getRepoState(repo, excludes);
    assertNoOperation(state);
    const restart = await this.startOfNext(repo, runId, state.sha, opts.restartFrom);
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
      await switchToBranch(repo, opts.branch, state.sha);
      branch = opts.branch;
    } else if (state.headState === 'detached' && state.sha) {
      branch = await nameDetachedHead(repo, runId, state.sha);
    }
    const unborn = state.headState === 'unborn';
    const message = unborn && !dirty ? `[agentgate] Root commit before run ${runId}\n` : wipMessage(runId);
    if (dirty) await assertNoLfs(repo);
    const commit = dirty || unborn ? await createSnapshotCommit(repo, message, { excludes }) : null;
    const wipSha = commit?.created && dirty ? commit.sha : null;
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
      ...(commit !== null && commit.skipped.length > 0 ? { skipped: commit.skipped } : {}),
    };
    await this.store.recordBefore(runId, repo.topLevel, before, restart);
    return before;
  }

  /**
   * Where the run's next iteration may start, checked before anything is written: on HEAD when it
   * builds on the run's last iteration (or on a restart declared since), else RUN_DIVERGED. With
   * `restartFrom`, HEAD must be at that iteration's after commit, and the restart to record is returned.
   */
  private async startOfNext(
    repo: Repo,
    runId: string,
    head: string | null,
    restartFrom: number | undefined,
  ): Promise<RunRestart | null> {
    const run = await this.store.loadRun(runId);
    if (restartFrom !== undefined) {
      const snapshots = run === null ? [] : await this.store.loadByRun(runId);
      const last = snapshots.at(-1) ?? null;
      const sha = restartPoint(snapshots, restartFrom);
      if (last === null || sha === null)
        throw new InvalidArgumentError(
          `run ${runId} has no iteration ${restartFrom} to restart from${last === null ? ' (no iteration was recorded yet)' : ''}`,
          { details: { runId, restartFrom } },
        );
      if (head !== sha)
        throw new RunDivergedError(
          `HEAD is at ${head ?? '(no commit)'}, not at ${restartFrom === 0 ? "the run's start" : `iteration ${restartFrom}'s after commit`} ${sha}; check that commit out (for example "git reset --hard ${sha}"), then retry`,
          { details: { runId, restartFrom, expected: sha, head } },
        );
      return { from: restartFrom, sha, lastIteration: last.iteration, at: new Date().toISOString() };
    }
    // The last iteration alone: reading every snapshot of a long run would cost each iteration more.
    const last = run === null ? null : await this.store.loadLast(run);
    if (last === null) return null;
    const declared = (run?.restarts ?? []).filter((r) => r.lastIteration === last.iteration).at(-1);
    const base = declared?.sha ?? last.afterSha;
    if (head !== null && (head === base || (await isAncestor(repo, base, head).catch(() => false))))
      return null;
    throw new RunDivergedError(
      `HEAD (${head ?? 'no commit'}) does not build on ${declared ? `the restart from iteration ${declared.from}` : `iteration ${last.iteration}'s after commit`} ${base}; to start over from an earlier point, check out iteration N's after commit and run "before --run ${runId} --restart-from N" (N = 0: the run's start)`,
      { details: { runId, expected: base, head, lastIteration: last.iteration } },
    );
  }

  /**
   * Commits everything the iteration changed and stores the snapshot. Compares against the before
   * SHA, not against "dirty", so commits the agent made itself are part of the snapshot. With no
   * change at all, nothing is committed and afterSha equals beforeSha.
   */
  async captureAfterState(
    workspace: string,
    before: BeforeState | null,
    opts: AfterOptions,
  ): Promise<Snapshot> {
    const runId = assertSafeId(opts.runId, 'run id');
    assertIteration(opts.iteration);
    const repo = await openRepo(workspace, this.gitOptions());
    return withRepoLock(repo, this.options.lockTimeoutMs, (recovered) =>
      this.afterIn(repo, recovered, before, { ...opts, runId }),
    );
  }

  /**
   * One whole iteration in one call: `before`, then the agent command in the workspace, then
   * `after`, whatever the agent's exit status. The repository is opened once and the work tree's
   * excludes are worked out once; the repository lock is held by the before and the after steps,
   * not while the agent runs (it may run git itself, for hours). An iteration number already taken
   * is refused before anything is recorded. A killed call leaves the run where a killed `before`
   * (before state recorded, no snapshot) or a killed `after` would.
   */
  async iterate(workspace: string, opts: IterateOptions): Promise<IterationSnapshot> {
    const runId = assertSafeId(opts.runId, 'run id');
    assertIteration(opts.iteration);
    const onDirty = opts.onDirty ?? this.options.onDirty;
    const { repo, nested } = await this.openOrInit(workspace, onDirty, opts.init === true);
    const excludes = await workspaceExcludes(repo.topLevel, this.options);
    const before = await withRepoLock(repo, this.options.lockTimeoutMs, async () => {
      const run = await this.store.loadRun(runId);
      assertRunWorkspace(run, runId, repo.topLevel);
      if (run !== null) await this.assertIterationFree(runId, opts.iteration, null);
      return this.beforeIn(repo, {
        runId,
        onDirty,
        nested,
        excludes,
        branch: opts.branch,
        restartFrom: opts.restartFrom,
      });
    });
    const ran = await runUserCommand({
      argv: opts.agent.argv,
      cwd: await resolveWorkspaceDir(workspace),
      stdio: 'inherit',
      stdoutToStderr: opts.agent.stdoutToStderr === true,
      forwardSignals: AGENT_SIGNALS,
    });
    if (ran.spawnError !== null) {
      const errno = ran.spawnError.code ?? 'error';
      throw new AgentNotStartedError(
        `cannot start the agent command ${JSON.stringify(opts.agent.argv[0] ?? '')} (${errno}); check its name, PATH and permissions. The before state is recorded: run iterate again, or "after --run ${runId} --iteration ${opts.iteration}"`,
        { details: { command: opts.agent.argv[0] ?? '', errno, runId } },
      );
    }
    const agent: AgentOutcome = { exitCode: ran.exitCode, signal: ran.signal, durationMs: ran.durationMs };
    const snapshot = await withRepoLock(repo, this.options.lockTimeoutMs, (recovered) =>
      this.afterIn(repo, recovered, before, { ...opts, runId }, excludes, agent),
    );
    return { ...snapshot, agent };
  }

  /** The after step under the repository lock (see captureAfterState). */
  private async afterIn(
    repo: Repo,
    recovered: boolean,
    before: BeforeState | null,
    opts: AfterOptions,
    knownExcludes?: string[],
    agent?: AgentOutcome,
  ): Promise<Snapshot> {
    const { runId } = opts;
    // A call killed between saving its snapshot and linking it left the snapshot unlinked.
    if (recovered) {
      await this.store.linkUnlinked(runId, repo.topLevel, opts.iteration);
      await this.store.sweepTempFiles();
      await sweepTempFiles(dirname(patchPath(this.options.artifactsDir, runId, opts.iteration)));
    }
    // HEAD, conflicts and operations come from HEAD and the index: add -A below is the one pass
    // over the work tree (a status pass here would cost as much again on a large tree).
    const head = await getRepoHead(repo);
    const start = await this.startOf(repo, runId, opts.iteration, before, opts.beforeSha, head);
    assertNoOperation(head);
    await this.assertDescends(repo, start.sha, head);
    const message = iterationMessage({
      runId,
      iteration: opts.iteration,
      taskPrompt: opts.taskPrompt ?? '',
      gatePlanSource: opts.gatePlanSource ?? '',
      beforeSha: start.sha,
    });
    const excludes = knownExcludes ?? (await workspaceExcludes(repo.topLevel, this.options));
    const done = await this.assertIterationFree(runId, opts.iteration, {
      beforeSha: start.sha,
      headSha: head.sha,
      message,
      isDirty: async () => (await getRepoState(repo, excludes)).isDirty,
    });
    if (done) return done;
    // Refused before anything is committed: an artifact path through a link the agent made.
    const artifactPath = patchPath(this.options.artifactsDir, runId, opts.iteration);
    await assertNoLinkInside(repo.topLevel, artifactPath);
    await assertNoLfs(repo);
    // An agent that detached HEAD gets a branch too, so that `branch` names where the commit is.
    const detached = head.headState === 'detached' && head.sha !== null;
    const branch = detached
      ? await nameDetachedHead(repo, runId, head.sha as string)
      : (head.branch ?? start.branch);
    const ref = `refs/agentgate/runs/${runId}/iteration-${opts.iteration}`;
    const commit = await createSnapshotCommit(repo, message, {
      excludes,
      alsoPoint: [ref],
      ...(detached ? {} : { head: { ref: head.ref, sha: head.sha } }),
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
      commit.created ||
      (afterSha !== start.sha &&
        (await getCommitInfo(repo, afterSha)).message === message.replace(/\n$/, ''));
    const [stats, artifact] = await Promise.all([
      treeDiffStats(repo, trees),
      afterSha === start.sha ? null : writePatchArtifact(repo, trees, artifactPath),
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
    await this.store.save(snapshot);
    await this.store.linkSnapshot(runId, repo.topLevel, snapshot.id, snapshot.iteration, start.usesBefore);
    return snapshot;
  }

  /** One snapshot by id, or by a full or abbreviated after SHA when that is unambiguous. */
  async getSnapshot(idOrSha: string): Promise<Snapshot> {
    // Every id and SHA (full or abbreviated) is in the safe set: anything else is no id at all.
    assertSafeId(idOrSha, 'snapshot id');
    const direct = await this.store.load(idOrSha);
    if (direct) return this.withLocalPaths(direct);
    const matches = await this.store.findByPrefix(idOrSha);
    if (matches.length === 1) return this.withLocalPaths(matches[0] as Snapshot);
    // A no-change iteration shares its after SHA with the iteration that made that commit: the SHA names the one that made it.
    const makers = matches.filter((m) => m.beforeSha !== m.afterSha);
    if (makers.length === 1 && matches.every((m) => m.afterSha === makers[0]?.afterSha))
      return this.withLocalPaths(makers[0] as Snapshot);
    if (matches.length > 1) {
      throw new AmbiguousIdError(
        `${idOrSha} matches ${matches.length} snapshots (${matches
          .slice(0, 5)
          .map((m) => m.id)
          .join(', ')}); give more characters`,
        {
          details: { matches: matches.map((m) => m.id) },
        },
      );
    }
    throw new SnapshotNotFoundError(
      `no snapshot ${JSON.stringify(idOrSha.slice(0, 80))}; "list" shows the stored ones`,
      { details: { id: idOrSha.slice(0, 200) } },
    );
  }

  /** The run's snapshots, ordered by iteration, with this machine's paths. */
  async listByRun(runId: string): Promise<Snapshot[]> {
    return Promise.all(
      (await this.store.loadByRun(assertSafeId(runId, 'run id'))).map((s) => this.withLocalPaths(s)),
    );
  }

  /**
   * The snapshot's patch: the artifact when it is intact, else regenerated from git. Writes it to
   * `outputFile` when given (atomically), else returns the text.
   */
  async generatePatch(snapshot: Snapshot, outputFile?: string): Promise<string> {
    if (snapshot.beforeSha === snapshot.afterSha) {
      if (outputFile) await writeFileAtomic(outputFile, '');
      return '';
    }
    snapshot = await this.withLocalPaths(snapshot);
    const artifact = await intactArtifact(snapshot);
    if (artifact !== null) {
      if (outputFile) await copyFileAtomic(artifact, outputFile);
      return outputFile ? '' : readFile(artifact, 'utf8');
    }
    const repo = await openRepo(snapshot.workspace, this.gitOptions());
    if (outputFile) {
      await writeUnifiedDiffToFile(repo, snapshot.beforeSha, snapshot.afterSha, outputFile);
      return '';
    }
    return unifiedDiff(repo, snapshot.beforeSha, snapshot.afterSha);
  }

  /**
   * The snapshot's patch as generatePatch has it, handed to `consume` chunk by chunk (from the
   * artifact when it is intact, else from git), so that a patch of any size is never held whole.
   */
  async streamPatch(
    snapshot: Snapshot,
    consume: (patch: AsyncIterable<Buffer>) => Promise<void>,
  ): Promise<void> {
    if (snapshot.beforeSha === snapshot.afterSha) return consume(Readable.from([]));
    snapshot = await this.withLocalPaths(snapshot);
    const artifact = await intactArtifact(snapshot);
    if (artifact !== null) return consume(createReadStream(artifact));
    const repo = await openRepo(snapshot.workspace, this.gitOptions());
    await streamUnifiedDiff(repo, snapshot.beforeSha, snapshot.afterSha, consume);
  }

  /** Diff statistics between any two revisions of a workspace. */
  async stats(workspace: string, from: string, to: string): Promise<DiffStats> {
    const repo = await openRepo(workspace, this.gitOptions());
    return getDiffStats(repo, await resolveRevision(repo, from), await resolveRevision(repo, to));
  }

  /** Verifies one snapshot, a run, or the whole store (including files that no longer load). */
  async verify(target: { id: string } | { runId: string } | { all: true }): Promise<VerifyReport> {
    const checks: VerifyCheck[] = [];
    let snapshots: Snapshot[];
    if ('id' in target) snapshots = [await this.getSnapshot(target.id)];
    else if ('runId' in target) {
      // A link to a missing or corrupt file is a failed check; the rest of the run is still verified.
      const contents = await this.store.inspectRun(assertSafeId(target.runId, 'run id'));
      snapshots = contents.snapshots;
      checks.push(...contents.problems.map((p) => storeFileCheck(p, target.runId)));
    } else {
      const listed = await this.store.list();
      snapshots = listed.snapshots;
      const runs = await this.store.listRuns();
      checks.push(...[...listed.problems, ...runs.problems].map((p) => storeFileCheck(p, null)));
    }
    if (snapshots.length === 0 && checks.length === 0) {
      const what =
        'id' in target
          ? `snapshot ${target.id}`
          : 'runId' in target
            ? `run ${target.runId}`
            : `the home ${this.store.home}`;
      throw new NothingToVerifyError(
        `${what} has no snapshots to verify; check --home (or AGENTGATE_HOME) and the run id: a gate that verifies nothing must not pass`,
        { details: { home: this.store.home } },
      );
    }
    const runs = new Map<string, RunRecord | null>();
    const local: Snapshot[] = [];
    for (const snapshot of snapshots) {
      if (!runs.has(snapshot.runId))
        runs.set(snapshot.runId, await this.store.loadRun(snapshot.runId).catch(() => null));
      const here = await this.withLocalPaths(snapshot);
      local.push(here);
      checks.push(...(await verifySnapshot(here, runs.get(snapshot.runId) ?? null, this.gitOptions())));
    }
    if (!('id' in target)) {
      // Along each run's own links: a stray file of the run that it does not link is checked above, not here.
      for (const [runId, run] of runs) {
        const linked = local.filter((s) => s.runId === runId && (run?.snapshotIds.includes(s.id) ?? false));
        checks.push(...(await continuityChecks(linked, this.gitOptions(), run?.restarts ?? [])));
      }
    }
    return { ok: checks.every((c) => c.ok), checks };
  }

  /** Removes the snapshot's metadata and its link from the run. The commit and its ref stay in git. */
  async delete(idOrSha: string): Promise<string> {
    // A corrupt or missing file behind a run's link is still deletable by its exact id.
    const id = await this.getSnapshot(idOrSha).then(
      (snapshot) => snapshot.id,
      (error: unknown) => {
        if (
          error instanceof StoreCorruptError ||
          (error instanceof SnapshotNotFoundError && SafeId.safeParse(idOrSha).success)
        )
          return idOrSha;
        throw error;
      },
    );
    const stored = await this.store.load(id).catch(() => null);
    await this.store.delete(id);
    // Metadata first: a crash after it leaves an orphan file, never a record without its patch.
    if (stored !== null) await this.removeArtifact(stored);
    return id;
  }

  /** The snapshot's own patch artifact (the recorded one, checked by its sha256), and its iteration directory if that is left empty. */
  private async removeArtifact(snapshot: Snapshot): Promise<void> {
    const local = await this.withLocalPaths(snapshot);
    if (local.patchPath === null || local.patchSha256 === null) return;
    if ((await sha256File(local.patchPath).catch(() => null)) !== local.patchSha256) return;
    await rm(local.patchPath, { force: true });
    await rmdir(dirname(local.patchPath)).catch(() => undefined);
  }

  /**
   * Applies the snapshot's whole change (before..after, the agent's own commits included) as one
   * commit on `onto` (default: the current branch).
   */
  async cherryPick(idOrSha: string, onto?: string): Promise<CommitInfo> {
    const snapshot = await this.getSnapshot(idOrSha);
    if (snapshot.beforeSha === snapshot.afterSha) {
      throw new EmptySnapshotError(
        `snapshot ${snapshot.id} changed nothing; there is nothing to cherry-pick`,
        { details: { id: snapshot.id } },
      );
    }
    const repo = await openRepo(snapshot.workspace, this.gitOptions());
    return withRepoLock(repo, this.options.lockTimeoutMs, async () => {
      const message =
        snapshot.commitMessage || `[agentgate] Run ${snapshot.runId} iteration ${snapshot.iteration}\n`;
      const squashed = await commitTree(
        repo,
        await getTree(repo, snapshot.afterSha),
        [snapshot.beforeSha],
        message,
      );
      const ignore = await workspaceExcludes(repo.topLevel, this.options);
      return cherryPick(repo, squashed, { ignore, ...(onto === undefined ? {} : { onto }) });
    });
  }

  /** The snapshot with this machine's paths (see LocalPaths). */
  withLocalPaths(snapshot: Snapshot): Promise<Snapshot> {
    return this.localPaths.snapshot(snapshot);
  }

  /** The run record with this machine's workspace (see LocalPaths). */
  withLocalWorkspace(run: RunRecord): Promise<RunRecord> {
    return this.localPaths.run(run);
  }

  gitOptions(): { identity: Identity; timeoutMs: number } {
    return { identity: this.options.identity, timeoutMs: this.options.gitTimeoutMs };
  }

  /** Opens the workspace's repository, or initialises one; with onDirty "error", files there refuse first (nothing is created). */
  private async openOrInit(
    workspace: string,
    onDirty: OnDirty,
    init: boolean,
  ): Promise<{ repo: Repo; nested: string[] }> {
    try {
      return { repo: await openRepo(workspace, this.gitOptions()), nested: [] };
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
      if (onDirty === 'error' && (await hasUserFiles(dir, this.options))) {
        throw new DirtyWorkspaceError(
          `${dir} is not a repository yet and holds files that the first commit would take; use --on-dirty wip-commit, or commit them yourself`,
          {
            details: { workspace: dir },
          },
        );
      }
      const repo = await initRepo(workspace, DEFAULT_BRANCH, this.gitOptions());
      // Repositories nested in the directory stay theirs: never recorded as gitlinks of ours.
      return { repo, nested: await excludeNestedRepositories(repo) };
    }
  }

  /**
   * Where the iteration started: the given state, else `--before SHA`, else the run's recorded
   * before state, which one `after` uses up (a second needs a new `before`: NO_BEFORE_STATE).
   * `usesBefore` tells whether the start is the run's before state.
   */
  private async startOf(
    repo: Repo,
    runId: string,
    iteration: number,
    given: BeforeState | null,
    beforeRev: string | undefined,
    state: { branch: string | null },
  ): Promise<{ sha: string; branch: string; usesBefore: boolean }> {
    const run = await this.store.loadRun(runId);
    assertRunWorkspace(run, runId, repo.topLevel);
    if (given) return { ...given, usesBefore: true };
    if (beforeRev !== undefined)
      return {
        sha: await resolveRevision(repo, beforeRev),
        branch: run?.before?.branch ?? state.branch ?? DEFAULT_BRANCH,
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
   * capture (same before, same message, HEAD still at its after commit, nothing new in the work
   * tree), as an orchestrator makes when the first call was killed before it could report: that
   * gets the stored snapshot back.
   */
  private async assertIterationFree(
    runId: string,
    iteration: number,
    /** What a retry of the same capture would find; null when no retry is possible (iterate, before its agent ran). */
    now: {
      beforeSha: string;
      headSha: string | null;
      message: string;
      isDirty: () => Promise<boolean>;
    } | null,
  ): Promise<Snapshot | null> {
    const run = await this.store.loadRun(runId);
    if (run === null) return null;
    // Usually the next iteration, which the last snapshot alone shows without reading a long run's
    // every file; a retry, a taken or an earlier iteration (or a damaged last link) looks at them all.
    const last = await this.store.loadLast(run).catch((error: unknown) => {
      if (error instanceof StoreCorruptError) return undefined;
      throw error;
    });
    if (last === null || (last !== undefined && iteration > last.iteration)) return null;
    const { snapshots } = await this.store.inspectRun(runId);
    const taken = snapshots.find((s) => s.iteration === iteration);
    const sameCapture =
      taken !== undefined &&
      now !== null &&
      taken.beforeSha === now.beforeSha &&
      taken.afterSha === now.headSha &&
      (taken.commitMessage === now.message ||
        (taken.commitMessage === '' && taken.afterSha === taken.beforeSha)) &&
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

  /** The iteration must build on its before SHA: a rewritten history cannot be snapshotted honestly. */
  private async assertDescends(repo: Repo, beforeSha: string, state: Pick<RepoState, 'sha'>): Promise<void> {
    const fail = (why: string): never => {
      throw new HistoryRewrittenError(
        `${why}; the iteration's history was rewritten. Start a new iteration with "before"`,
        {
          details: { beforeSha, head: state.sha },
        },
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
    if (!exists) fail(`before commit ${beforeSha} no longer exists`);
    if (!ancestor) fail(`before commit ${beforeSha} is not an ancestor of HEAD`);
  }
}

/** The snapshot's patch artifact when it is there with its recorded sha256, else null. */
async function intactArtifact(snapshot: Snapshot): Promise<string | null> {
  if (snapshot.patchPath === null) return null;
  const sha256 = await sha256File(snapshot.patchPath).catch(() => null);
  return sha256 === snapshot.patchSha256 ? snapshot.patchPath : null;
}

/**
 * Gives a detached HEAD the branch `agentgate/<runId>` (files and index untouched). If an earlier
 * detached start of the run already took that name, `agentgate/<runId>-2`, `-3`, ... instead.
 */
async function nameDetachedHead(repo: Repo, runId: string, sha: string): Promise<string> {
  for (let n = 1; n <= MAX_DETACHED_BRANCHES; n++) {
    const name = n === 1 ? `agentgate/${runId}` : `agentgate/${runId}-${n}`;
    if ((await readRef(repo, `refs/heads/${name}`)) !== null) continue;
    await switchToBranch(repo, name, sha);
    return name;
  }
  throw new InvalidArgumentError(
    `branches agentgate/${runId} to agentgate/${runId}-${MAX_DETACHED_BRANCHES} all exist; delete the old ones or check out a branch`,
    {
      details: { runId },
    },
  );
}

function assertNoOperation(state: Pick<RepoState, 'unmergedPaths' | 'operation'>): void {
  if (state.unmergedPaths.length > 0) {
    throw new UnmergedPathsError(
      `the workspace has unmerged paths (${state.unmergedPaths.slice(0, 5).join(', ')}); resolve the conflicts and commit, then retry`,
      {
        details: { paths: state.unmergedPaths },
      },
    );
  }
  if (state.operation) {
    throw new OperationInProgressError(
      `a ${state.operation} is in progress; finish it or abort it (git ${state.operation} --abort), then retry`,
      {
        details: { operation: state.operation },
      },
    );
  }
}

/** Checked before anything is committed: the iteration becomes a ref name and a stored field. */
function assertIteration(iteration: number): void {
  if (!Number.isSafeInteger(iteration) || iteration < 0) {
    throw new InvalidArgumentError(`iteration must be a whole number from 0 up, not ${String(iteration)}`, {
      details: { iteration },
    });
  }
}

function totals(stats: DiffStats): Pick<Snapshot, 'filesChanged' | 'insertions' | 'deletions'> {
  return { filesChanged: stats.filesChanged, insertions: stats.insertions, deletions: stats.deletions };
}

/** A store file that does not load, as a failed check of `verify`. */
function storeFileCheck(problem: StoreCorruptError, runId: string | null): VerifyCheck {
  return { snapshotId: null, runId, check: 'store-file', ok: false, detail: problem.message };
}
