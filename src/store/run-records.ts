import { join } from 'node:path';
import { BeforeState, type Snapshot } from '../../types/snapshot.js';
import { RunRecord, type IndexSeal, type RunRestart } from '../../types/run.js';
import {
  InvalidArgumentError,
  LockTimeoutError,
  type StoreCorruptError,
  RunWorkspaceMismatchError,
} from '../errors.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { byCodeUnit, byInstant, corruptFile, describeIssues, loadAll, readJsonFile } from './json-file.js';
import { isProvablyDead, readOwner, withLock, type LockOwner } from '../fs/lock.js';
import { assertSafeId, layout } from './paths.js';

/** The iteration of a stored snapshot, or null when its file is missing or unusable. */
export type IterationOf = (snapshotId: string) => Promise<number | null>;

/**
 * `<home>/runs/<runId>.json`: one record per run. Every change is a read-modify-write under the
 * run's lock (`<home>/locks/run-<runId>.lock`) with an atomic write, so concurrent processes
 * sharing a home never lose each other's links. A corrupt record is never overwritten.
 */
export class RunRecords {
  constructor(
    private readonly home: string,
    private readonly lockTimeoutMs: number,
  ) {}

  path(runId: string): string {
    return join(layout(this.home).runs, `${assertSafeId(runId, 'run id')}.json`);
  }

  /** The run's record, or null when it has none; STORE_CORRUPT when the file is unusable. */
  async load(runId: string): Promise<RunRecord | null> {
    const path = this.path(runId);
    const record = await readJsonFile(path, RunRecord, 'run record');
    if (record !== null && record.runId !== runId)
      throw corruptFile(path, 'run record', `it names run ${JSON.stringify(record.runId)}`);
    return record;
  }

  /** Every run record that loads, oldest first, and one STORE_CORRUPT per file that does not. */
  async list(): Promise<{ runs: RunRecord[]; problems: StoreCorruptError[] }> {
    const { items: runs, problems } = await loadAll(layout(this.home).runs, 'run record', (name) =>
      this.load(name),
    );
    runs.sort((a, b) => byInstant(a.createdAt, b.createdAt) || byCodeUnit(a.runId, b.runId));
    return { runs, problems };
  }

  /** Ids of the runs whose records link `snapshotId` (a scan: used only to repair dangling links). */
  async linking(snapshotId: string): Promise<string[]> {
    const { runs } = await this.list();
    return runs.filter((run) => run.snapshotIds.includes(snapshotId)).map((run) => run.runId);
  }

  /**
   * Runs `fn` (a whole `iterate`: before, the agent, after) while no other process iterates the
   * run. The repository lock is let go while the agent runs, so without this a second call for the
   * run would start a second agent on the same workspace and fail only at its end. Refused at once
   * (LOCK_TIMEOUT): an agent may run for hours. A holder that died is taken over, once
   * `onDeadHolder` (given it) has not refused: a refusal leaves its lock as it was found, so that the
   * next call sees it too.
   */
  async whileIterating<T>(
    runId: string,
    iteration: number,
    fn: () => Promise<T>,
    onDeadHolder?: (holder: LockOwner) => Promise<void>,
  ): Promise<T> {
    const lockPath = join(layout(this.home).locks, `iterate-${assertSafeId(runId, 'run id')}.lock`);
    const holder = onDeadHolder === undefined ? null : await readOwner(lockPath);
    if (holder !== null && isProvablyDead(holder)) await onDeadHolder?.(holder);
    let entered = false;
    try {
      return await withLock(lockPath, { timeoutMs: 0, purpose: `iterate ${runId} ${iteration}` }, () => {
        entered = true;
        return fn();
      });
    } catch (error) {
      if (entered || !(error instanceof LockTimeoutError)) throw error;
      const owner = await readOwner(lockPath);
      const who = owner === null ? 'another process' : `process ${owner.pid} on ${owner.hostname}`;
      throw new LockTimeoutError(
        `run ${runId} is being iterated by ${who} (${owner?.purpose ?? 'iterate'}, since ${owner?.createdAt ?? 'now'}); wait for that call to end, then run the next iteration`,
        { cause: error, details: { path: lockPath, owner, runId, iteration } },
      );
    }
  }

  /**
   * Read-modify-write of one record under the run's lock. `change` gets the current record (a
   * fresh one when `workspace` is given and none exists) and returns the next record, or null to
   * leave the file untouched. Returns the record as stored afterwards.
   */
  async update(
    runId: string,
    workspace: string | null,
    change: (current: RunRecord) => Promise<RunRecord | null> | RunRecord | null,
  ): Promise<RunRecord | null> {
    const path = this.path(runId);
    const lockPath = join(layout(this.home).locks, `run-${runId}.lock`);
    return withLock(lockPath, { timeoutMs: this.lockTimeoutMs, purpose: `run record ${runId}` }, async () => {
      const now = new Date().toISOString();
      const current =
        (await this.load(runId)) ??
        (workspace === null
          ? null
          : { runId, workspace, createdAt: now, updatedAt: now, before: null, snapshotIds: [] });
      if (current === null) return null;
      if (workspace !== null) assertRunWorkspace(current, runId, workspace);
      const next = await change(current);
      if (next === null) return current;
      const checked = RunRecord.safeParse({ ...next, updatedAt: now });
      if (!checked.success)
        throw new InvalidArgumentError(
          `run record ${runId} would be invalid: ${describeIssues(checked.error.issues)}`,
          { details: { runId, path } },
        );
      await writeJsonAtomic(path, checked.data);
      return checked.data;
    });
  }

  /**
   * Creates the run's record if needed and sets its latest before state (and appends the restart it
   * declares). The restarts declared after iteration `unusedAfter` (the run's last: no iteration was
   * built on them) are dropped first, void: a new restart replaces them, and so does a plain before
   * on the last iteration's work (else they would set aside iterations the line still holds).
   */
  async recordBefore(
    runId: string,
    workspace: string,
    before: BeforeState,
    restart: RunRestart | null = null,
    unusedAfter: number | null = restart?.lastIteration ?? null,
    indexSeal?: IndexSeal,
  ): Promise<RunRecord> {
    assertSafeId(runId, 'run id');
    const parsed = BeforeState.safeParse(before);
    if (!parsed.success)
      throw new InvalidArgumentError(
        `before state for run ${runId} is invalid: ${describeIssues(parsed.error.issues)}`,
        { details: { runId } },
      );
    if (parsed.data.runId !== runId)
      throw new InvalidArgumentError(`before state belongs to run ${parsed.data.runId}, not ${runId}`, {
        details: { runId },
      });
    return (await this.update(
      runId,
      requireWorkspace(workspace),
      ({ restarts: declared, agentRan: _, ...current }) => {
        const kept = (declared ?? []).filter((r) => r.lastIteration !== unusedAfter);
        const restarts = restart === null ? kept : [...kept, restart];
        return {
          ...current,
          before: parsed.data,
          beforeUsedBy: null,
          ...(restarts.length > 0 ? { restarts } : {}),
          ...(indexSeal === undefined ? {} : { indexSeal }),
        };
      },
    )) as RunRecord;
  }

  /**
   * Links a snapshot into its run, keeping `snapshotIds` ordered by iteration. Linking an id that
   * is already linked changes nothing. A second snapshot of an iteration that already has one is
   * kept after it (both stay linked: nothing the store recorded is dropped silently). Positions
   * are found from the end, so the usual append reads one snapshot file; ids whose files cannot be
   * read keep their place.
   */
  async link(
    runId: string,
    workspace: string,
    snapshotId: string,
    iteration: number,
    iterationOf: IterationOf,
    usesBefore = false,
    indexSeal?: IndexSeal,
  ): Promise<RunRecord> {
    assertSafeId(runId, 'run id');
    assertSafeId(snapshotId, 'snapshot id');
    if (!Number.isInteger(iteration) || iteration < 0)
      throw new InvalidArgumentError(`iteration must be a non-negative integer, got ${iteration}`, {
        details: { iteration },
      });
    return (await this.update(runId, requireWorkspace(workspace), async (current) => {
      const used = usesBefore ? { beforeUsedBy: { snapshotId, iteration } } : {};
      if (current.snapshotIds.includes(snapshotId))
        return usesBefore && current.beforeUsedBy?.snapshotId !== snapshotId ? { ...current, ...used } : null;
      const ids = [...current.snapshotIds];
      let at = ids.length;
      while (at > 0) {
        const previous = await iterationOf(ids[at - 1] as string);
        if (previous === null || previous <= iteration) break;
        at -= 1;
      }
      ids.splice(at, 0, snapshotId);
      return { ...current, snapshotIds: ids, ...used, ...(indexSeal === undefined ? {} : { indexSeal }) };
    })) as RunRecord;
  }

  /**
   * Removes a link; true when the run had it. A run without a record has nothing to unlink. With
   * `deleted` (the snapshot, when its file loaded), its capture is kept in `deletedSnapshots`.
   */
  async unlink(
    runId: string,
    snapshotId: string,
    deleted: Pick<Snapshot, 'iteration' | 'beforeSha' | 'afterSha'> | null = null,
  ): Promise<boolean> {
    let removed = false;
    await this.update(runId, null, (current) => {
      if (!current.snapshotIds.includes(snapshotId)) return null;
      removed = true;
      const { iteration, beforeSha, afterSha } = deleted ?? {};
      const at = new Date().toISOString();
      const capture =
        iteration === undefined || afterSha === undefined
          ? {}
          : {
              deletedSnapshots: [
                ...(current.deletedSnapshots ?? []),
                { snapshotId, iteration, ...(beforeSha === undefined ? {} : { beforeSha }), afterSha, at },
              ],
            };
      return { ...current, snapshotIds: current.snapshotIds.filter((id) => id !== snapshotId), ...capture };
    });
    return removed;
  }
}

function requireWorkspace(workspace: string): string {
  if (typeof workspace !== 'string' || workspace.length === 0)
    throw new InvalidArgumentError('a run record needs its workspace path', { details: { workspace } });
  return workspace;
}

/** A listing collects store problems; anything else (a bug, an I/O error on the directory) still throws. */

/** A run belongs to the workspace it started in: another workspace's iteration would be recorded as this run's. */
export function assertRunWorkspace(run: RunRecord | null, runId: string, workspace: string): void {
  if (run === null || run.workspace === workspace) return;
  throw new RunWorkspaceMismatchError(
    `run ${runId} belongs to the workspace ${run.workspace}, not ${workspace}; use another run id for this workspace`,
    {
      details: { runId, workspace: run.workspace, given: workspace },
    },
  );
}
