import type { Identity } from '../../types/config.js';
import type { RunRecord } from '../../types/run.js';
import type { BeforeState, CommitInfo, DiffStats, Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import {
  AfterOptionsArg,
  BeforeOptionsArg,
  BeforeStateArg,
  CherryPickOptionsArg,
  FunctionArg,
  GetSnapshotOptionsArg,
  IterateOptionsArg,
  ListByRunOptionsArg,
  SnapshotArg,
  SnapshotterOptionsArg,
  TextArg,
  OptionalTextArg,
  VerifyTargetArg,
  WorkspaceArg,
} from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { isResolvedSettings } from '../store/config.js';
import { SnapshotStore } from '../store/snapshot-store.js';
import { LocalPaths } from '../store/local-paths.js';
import type { SnapshotterCore, SnapshotterOptions } from './core.js';
import { captureBeforeState, type BeforeOptions } from './before.js';
import { captureAfterState, type AfterOptions } from './after.js';
import { iterate, type IterateOptions, type IterationSnapshot } from './iterate.js';
import { generatePatch, getSnapshot, listByRun, stats, streamPatch } from './read.js';
import { verify } from './verify-store.js';
import { readSettled } from '../store/settled-read.js';
import { cherryPick, deleteSnapshot, type CherryPickOptions } from './maintenance.js';

export type {
  SnapshotterOptions,
  BeforeOptions,
  AfterOptions,
  IterateOptions,
  IterationSnapshot,
  CherryPickOptions,
};

/**
 * Run snapshots: the before state of an iteration, one structured commit after it, exact stats,
 * a patch artifact and the stored metadata. Every call on a repository holds its repository lock.
 * The work itself lives in one file per concept (before.ts, after.ts, iterate.ts, read.ts,
 * verify-store.ts, maintenance.ts); this class holds the store and this machine's paths.
 */
export class Snapshotter implements SnapshotterCore {
  readonly store: SnapshotStore;
  private readonly localPaths: LocalPaths;

  constructor(readonly options: SnapshotterOptions) {
    if (!isResolvedSettings(options)) checkArgument(SnapshotterOptionsArg, options, 'options');
    this.store = new SnapshotStore(options.home, { lockTimeoutMs: options.lockTimeoutMs });
    this.localPaths = new LocalPaths(
      options.artifactsDir,
      options.localWorkspace,
      options.localWorkspaceWins,
    );
  }

  /**
   * Records where the run's next iteration starts. A missing repository is initialised, an unborn
   * branch gets a root commit, HEAD is switched to `branch` when one is given (otherwise a detached
   * HEAD gets the branch `agentgate/<runId>`), and uncommitted work is saved as a WIP commit (or
   * refused with DIRTY_WORKSPACE when onDirty is "error").
   */
  async captureBeforeState(workspace: string, opts: BeforeOptions): Promise<BeforeState> {
    checkArgument(WorkspaceArg, workspace, 'workspace');
    checkArgument(BeforeOptionsArg, opts, 'opts');
    return captureBeforeState(this, workspace, opts);
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
    checkArgument(WorkspaceArg, workspace, 'workspace');
    checkArgument(BeforeStateArg, before, 'before');
    checkArgument(AfterOptionsArg, opts, 'opts');
    return captureAfterState(this, workspace, before, opts);
  }

  /**
   * One whole iteration in one call: `before`, then the agent command in the workspace, then
   * `after`, whatever the agent's exit status. The after step opens and checks the repository again,
   * as a separate `after` does (the agent may have armed it); the repository lock is held by the
   * before and the after steps,
   * not while the agent runs (it may run git itself, for hours). An iteration number already taken
   * is refused before anything is recorded. A killed call leaves the run where a killed `before`
   * (before state recorded, no snapshot) or a killed `after` would.
   */
  async iterate(workspace: string, opts: IterateOptions): Promise<IterationSnapshot> {
    checkArgument(WorkspaceArg, workspace, 'workspace');
    checkArgument(IterateOptionsArg, opts, 'opts');
    return iterate(this, workspace, opts);
  }

  /** One snapshot by id, or by a full or abbreviated after SHA when that is unambiguous. */
  async getSnapshot(idOrSha: string, opts: { exact?: boolean } = {}): Promise<Snapshot> {
    checkArgument(TextArg, idOrSha, 'idOrSha');
    checkArgument(GetSnapshotOptionsArg, opts, 'opts');
    return getSnapshot(this, idOrSha, opts);
  }

  /**
   * The run's snapshots, ordered by iteration, with this machine's paths. STORE_CORRUPT when a
   * linked file is missing or does not load; with `loadable`, such a snapshot is left out.
   */
  async listByRun(runId: string, opts: { loadable?: boolean } = {}): Promise<Snapshot[]> {
    checkArgument(TextArg, runId, 'runId');
    checkArgument(ListByRunOptionsArg, opts, 'opts');
    return listByRun(this, runId, opts);
  }

  /**
   * The snapshot's patch: the artifact when it is intact, else regenerated from git. Writes it to
   * `outputFile` when given (atomically), else returns the text.
   */
  async generatePatch(snapshot: Snapshot, outputFile?: string): Promise<string> {
    checkArgument(SnapshotArg, snapshot, 'snapshot');
    checkArgument(OptionalTextArg, outputFile, 'outputFile');
    return generatePatch(this, snapshot, outputFile);
  }

  /**
   * The snapshot's patch as generatePatch has it, handed to `consume` chunk by chunk (from the
   * artifact when it is intact, else from git), so that a patch of any size is never held whole.
   */
  async streamPatch(
    snapshot: Snapshot,
    consume: (patch: AsyncIterable<Buffer>) => Promise<void>,
  ): Promise<void> {
    checkArgument(SnapshotArg, snapshot, 'snapshot');
    checkArgument(FunctionArg, consume, 'consume');
    return streamPatch(this, snapshot, consume);
  }

  /** Diff statistics between any two revisions of a workspace. */
  async stats(workspace: string, from: string, to: string): Promise<DiffStats> {
    checkArgument(WorkspaceArg, workspace, 'workspace');
    for (const [name, value] of Object.entries({ from, to })) checkArgument(TextArg, value, name);
    return stats(this, workspace, from, to);
  }

  /** Verifies one snapshot, a run, or the whole store (including files that no longer load). */
  async verify(target: { id: string } | { runId: string } | { all: true }): Promise<VerifyReport> {
    checkArgument(VerifyTargetArg, target, 'target');
    return readSettled(
      this.store.home,
      () => verify(this, target),
      (report) => report.ok,
    );
  }

  /**
   * Removes the snapshot's metadata and its link from the run. The commit stays in git; its iteration
   * ref goes when it still points at the snapshot's after commit, so the iteration can be captured again.
   */
  async delete(idOrSha: string): Promise<string> {
    checkArgument(TextArg, idOrSha, 'idOrSha');
    return deleteSnapshot(this, idOrSha);
  }

  /**
   * Applies the snapshot's whole change (before..after, the agent's own commits included) as one
   * commit on `onto` (default: the current branch) of `workspace`, whose repository must hold the
   * snapshot's commits (REVISION_NOT_FOUND otherwise: fetch the run first). EMPTY_SNAPSHOT when the
   * snapshot's before and after trees are the same.
   */
  async cherryPick(workspace: string, idOrSha: string, opts: CherryPickOptions = {}): Promise<CommitInfo> {
    checkArgument(WorkspaceArg, workspace, 'workspace');
    checkArgument(TextArg, idOrSha, 'idOrSha');
    checkArgument(CherryPickOptionsArg, opts, 'opts');
    return cherryPick(this, workspace, idOrSha, opts);
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
}
