/**
 * Gate verdicts (CONTRACT.md, "Gate verdicts"): run a check on an iteration's after tree and record
 * what it observed (run.ts), record a verdict observed elsewhere (record.ts), replay one
 * (replay.ts), list and verify them. The verdicts live in the GateStore; the iterations they judge
 * come from the Snapshotter's records.
 */
import type { GateResult } from '../../types/gate.js';
import { sortGateResults, supersededBy } from '../../types/gate-rules.js';
import type { DeletedSnapshot, RunRestart } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import {
  GateListFilterArg,
  GateRecordOptionsArg,
  GateReplayOptionsArg,
  GateRunOptionsArg,
  GateVerifyOptionsArg,
  SnapshotterArg,
  VerifyTargetArg,
  WorkspaceArg,
} from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { InvalidArgumentError, RunNotFoundError, StoreCorruptError } from '../errors.js';
import { GateStore } from '../store/gate-store.js';
import { readSettled } from '../store/settled-read.js';
import { assertSafeId } from '../store/paths.js';
import type { Snapshotter } from '../snapshotter/snapshotter.js';
import { verify } from '../snapshotter/verify-store.js';
import { pickIteration, type GateContext } from './attempt.js';
import { recordGate, type GateRecordOptions } from './record.js';
import { replayGate, type GateReplay, type GateReplayOptions } from './replay.js';
import { runGate, type GateRunOptions } from './run.js';
import { withLocalLog } from './log.js';
import { verifyGates, type GateVerifyOptions } from './verify.js';

export type { GateRecordOptions, GateReplay, GateReplayOptions, GateRunOptions };

/** A verdict as `gate list` gives it: `superseded` names the deleted capture it judged, else null. */
export type ListedVerdict = GateResult & { superseded: { snapshotId: string; deletedAt: string } | null };

export class Gates implements GateContext {
  readonly store: GateStore;

  constructor(readonly snapshotter: Snapshotter) {
    checkArgument(SnapshotterArg, snapshotter, 'snapshotter');
    this.store = new GateStore(snapshotter.options.home, {
      lockTimeoutMs: snapshotter.options.lockTimeoutMs,
    });
  }

  /**
   * Runs the check on the iteration's after tree and records what it observed. Refused before
   * anything runs: an unknown run or iteration, an unsafe name, and without `isolated` a workspace
   * that is dirty or not at the after commit (GATE_TREE_MISMATCH).
   */
  async run(workspace: string, opts: GateRunOptions): Promise<GateResult> {
    checkArgument(WorkspaceArg, workspace, 'workspace');
    checkArgument(GateRunOptionsArg, opts, 'opts');
    return runGate(this, workspace, opts);
  }

  /** Records a verdict the caller observed itself (`observed: false`). */
  async record(workspace: string, opts: GateRecordOptions): Promise<GateResult> {
    checkArgument(WorkspaceArg, workspace, 'workspace');
    checkArgument(GateRecordOptionsArg, opts, 'opts');
    return recordGate(this, workspace, opts);
  }

  /**
   * Verdicts in the one order (types/gate-rules.ts, `gateOrder`), and the files that do not load.
   * A verdict of a deleted snapshot's capture names it in `superseded` (it counts no more), others say null.
   */
  async list(
    filter: { runId?: string; iteration?: number } = {},
  ): Promise<{ results: ListedVerdict[]; problems: StoreCorruptError[] }> {
    checkArgument(GateListFilterArg, filter, 'filter');
    const runIds =
      filter.runId === undefined ? await this.store.runIds() : [assertSafeId(filter.runId, 'run id')];
    const results: ListedVerdict[] = [];
    const problems: StoreCorruptError[] = [];
    const snapshots: Snapshot[] = [];
    for (const runId of runIds) {
      // A listing warns of a damaged run record or snapshot and lists the verdicts all the same.
      let own: Snapshot[] = [];
      try {
        own = await this.snapshotter.listByRun(runId);
      } catch (error) {
        if (!(error instanceof StoreCorruptError)) throw error;
        problems.push(error);
      }
      const { deleted } = await this.runLine(runId);
      snapshots.push(...own);
      const listed = await this.store.list(runId);
      for (const r of listed.results) {
        if (filter.iteration !== undefined && r.iteration !== filter.iteration) continue;
        const gone = supersededBy(r, own, deleted);
        // Always present, so that the listing has one shape whether or not the run had a deletion.
        const superseded = gone === undefined ? null : { snapshotId: gone.snapshotId, deletedAt: gone.at };
        results.push({ ...r, superseded });
      }
      problems.push(...listed.problems);
    }
    if (filter.runId !== undefined && filter.iteration !== undefined && results.length === 0)
      // As `gate` and `attest` say for it: an iteration the run never had is no empty list.
      pickIteration(filter.runId, filter.iteration, snapshots);
    const artifactsDir = this.snapshotter.options.artifactsDir;
    const local = await Promise.all(results.map((r) => withLocalLog(r, artifactsDir)));
    return { results: sortGateResults(local, snapshots), problems };
  }

  /**
   * Runs a recorded command again on the tree it judged in a temporary checkout, records it as a
   * new attempt (`replayOf`) about that capture (a superseded verdict's replay is superseded too), and says whether verdict and test counts reproduce. Refused without
   * `confirmed` (REPLAY_NOT_CONFIRMED): a fetched command is someone else's code.
   */
  async replay(workspace: string, opts: GateReplayOptions): Promise<GateReplay> {
    checkArgument(WorkspaceArg, workspace, 'workspace');
    checkArgument(GateReplayOptionsArg, opts, 'opts');
    return replayGate(this, workspace, opts);
  }

  /**
   * The snapshot checks of `target` (Snapshotter.verify) plus every gate verdict of the runs it
   * covers: tree, after commit, log digest, attempts in order; and `requireGates` on the run's
   * last iteration (every iteration with `eachIteration`).
   */
  async verify(
    target: { id: string } | { runId: string } | { all: true },
    opts: GateVerifyOptions = {},
  ): Promise<VerifyReport> {
    checkArgument(VerifyTargetArg, target, 'target');
    checkArgument(GateVerifyOptionsArg, opts, 'opts');
    // As `verify --require-gate` and `--each-iteration` need `--run`: they judge one run's iterations.
    if (((opts.requireGates ?? []).length > 0 || opts.eachIteration === true) && !('runId' in target))
      throw new InvalidArgumentError(
        'requireGates and eachIteration judge one run: give the target { runId }',
        {
          details: { target: Object.keys(target) },
        },
      );
    // A required gate's name is checked as `gate --name` checks it: a typo is INVALID_ID, not a failed check.
    for (const name of opts.requireGates ?? []) assertSafeId(name, 'gate name');
    // A `delete`, `after` or `gate` in another process meanwhile must not fail the run (readSettled).
    return readSettled(
      this.store.home,
      () => this.verifyOnce(target, opts),
      (report) => report.ok,
    );
  }

  private async verifyOnce(
    target: { id: string } | { runId: string } | { all: true },
    opts: GateVerifyOptions,
  ): Promise<VerifyReport> {
    // The snapshots' checks alone: this read is already settled as a whole (readSettled above).
    const report = await verify(this.snapshotter, target);
    const checks = [...report.checks];
    let runIds: string[];
    let only: Snapshot | null = null;
    if ('id' in target) {
      only = await this.snapshotter.getSnapshot(target.id);
      runIds = [only.runId];
    } else if ('runId' in target) runIds = [target.runId];
    else runIds = await this.store.runIds();
    for (const runId of runIds) {
      const { results, problems } = await this.store.list(runId);
      // A linked snapshot that does not load is already a failed check of the snapshots' part.
      const snapshots = await this.snapshotter
        .listByRun(runId, { loadable: true })
        .catch((error: unknown) => {
          if (error instanceof RunNotFoundError) return [];
          throw error;
        });
      checks.push(
        ...(await verifyGates({
          runId,
          results: only === null ? results : results.filter((r) => r.iteration === only.iteration),
          problems,
          snapshots,
          ...(await this.runLine(runId)),
          artifactsDir: this.snapshotter.options.artifactsDir,
          git: this.snapshotter.gitOptions(),
          ...(only === null ? {} : { iteration: only.iteration }),
          ...opts,
        })),
      );
    }
    return { ok: checks.every((c) => c.ok), checks };
  }

  /** The run's declared restarts and deleted snapshots (none when its record does not load). */
  private async runLine(runId: string): Promise<{ restarts: RunRestart[]; deleted: DeletedSnapshot[] }> {
    const run = await this.snapshotter.store.loadRun(runId).catch(() => null);
    return { restarts: run?.restarts ?? [], deleted: run?.deletedSnapshots ?? [] };
  }
}
