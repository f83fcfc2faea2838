import { sweepTempFiles } from '../fs/sweep.js';
import { checkDirArgument, checkStoreOptions } from '../arguments.js';
import { rm, stat } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { Snapshot, SAFE_ID, type BeforeState } from '../../types/snapshot.js';
import type { IndexSeal, RunRecord, RunRestart } from '../../types/run.js';
import {
  ConcurrentUpdateError,
  InvalidArgumentError,
  InvalidIdError,
  RunNotFoundError,
  SnapshotNotFoundError,
  StoreCorruptError,
  WriteFailedError,
} from '../errors.js';
import { errnoOf, writeJsonAtomic } from '../fs/atomic.js';
import {
  asStoreProblem,
  byCodeUnit,
  byInstant,
  corruptFile,
  describeIssues,
  listJsonNames,
  loadAll,
  parseJsonText,
  readJsonText,
  readJsonTextSync,
  wholeOrThrow,
} from './json-file.js';
import { SnapshotScan, type SnapshotText } from './snapshot-scan.js';
import { DEFAULT_LOCK_TIMEOUT_MS, withLock, type LockOwner } from '../fs/lock.js';
import { assertSafeId, layout } from './paths.js';
import { RunRecords } from './run-records.js';

export interface SnapshotStoreOptions {
  /** Longest wait for a run's or a snapshot's lock before LOCK_TIMEOUT. */
  lockTimeoutMs?: number;
}

export interface SaveOptions {
  /** Replace a different (or corrupt) snapshot stored under the same id instead of refusing. */
  replace?: boolean;
}

/** What a run holds: its record, the snapshots that load (by iteration) and one problem per link that does not. */
export interface RunContents {
  run: RunRecord;
  snapshots: Snapshot[];
  problems: StoreCorruptError[];
}

export interface DeleteResult {
  id: string;
  /** Whether a metadata file was removed (false when only a dangling link was left). */
  removedFile: boolean;
  /** The runs whose records linked the id. */
  unlinkedFrom: string[];
}

/**
 * The JSON store under an agentgate home: `snapshots/<id>.json` and `runs/<runId>.json`. Every
 * write is atomic, every read is validated, and every id is checked before it becomes a path.
 */
/** Snapshot files `scan` reads between two turns of the event loop. */
const SCAN_SLICE = 128;

export class SnapshotStore {
  readonly home: string;
  private readonly lockTimeoutMs: number;
  private readonly runs: RunRecords;
  /** layout(home).snapshots, once: `scan` names hundreds of files. */
  private readonly snapshotsDir: string;

  constructor(home: string, options: SnapshotStoreOptions = {}) {
    this.home = resolve(checkDirArgument(home, 'home'));
    checkStoreOptions(options, 'options');
    this.lockTimeoutMs = options.lockTimeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
    this.runs = new RunRecords(this.home, this.lockTimeoutMs);
    this.snapshotsDir = layout(this.home).snapshots;
  }

  snapshotPath(id: string): string {
    return join(this.snapshotsDir, `${assertSafeId(id, 'snapshot id')}.json`);
  }

  runPath(runId: string): string {
    return this.runs.path(runId);
  }

  /**
   * Validates and stores a snapshot. Saving the same snapshot again is a no-op (safe to retry);
   * a different snapshot under an existing id is refused with CONCURRENT_UPDATE unless `replace`
   * is set, because ids are unique and a silent overwrite would lose a record. Returns what was stored.
   */
  async save(snapshot: Snapshot, options: SaveOptions = {}): Promise<Snapshot> {
    const id = (snapshot as { id?: unknown } | null)?.id;
    if (typeof id === 'string') assertSafeId(id, 'snapshot id');
    const runId = (snapshot as { runId?: unknown } | null)?.runId;
    if (typeof runId === 'string') assertSafeId(runId, 'run id');
    const parsed = Snapshot.safeParse(snapshot);
    if (!parsed.success) {
      throw new InvalidArgumentError(
        `snapshot ${typeof id === 'string' ? id : '(no id)'} is not valid: ${describeIssues(parsed.error.issues)}`,
        {
          details: { issues: parsed.error.issues },
        },
      );
    }
    const valid = parsed.data;
    const path = this.snapshotPath(valid.id);
    await this.withSnapshotLock(valid.id, async () => {
      if (!options.replace) {
        const existing = await this.load(valid.id);
        if (existing !== null && JSON.stringify(existing) === JSON.stringify(valid)) return;
        if (existing !== null) {
          throw new ConcurrentUpdateError(
            `${path} already holds a different snapshot ${valid.id}; snapshot ids are unique, so this is a second writer or a reused id`,
            {
              details: { path, id: valid.id },
            },
          );
        }
      }
      await writeJsonAtomic(path, valid);
    });
    return valid;
  }

  /** The snapshot, or null when there is none; STORE_CORRUPT when its file is unusable. */
  async load(id: string): Promise<Snapshot | null> {
    const text = await readJsonText(this.snapshotPath(id), 'snapshot');
    return text === null ? null : this.parseText({ id, text });
  }

  /** A snapshot file's text as the snapshot; STORE_CORRUPT when unusable or holding another id. */
  private parseText({ id, text }: SnapshotText): Snapshot {
    const path = this.snapshotPath(id);
    const snapshot = parseJsonText(path, text, Snapshot, 'snapshot');
    if (snapshot.id !== id)
      throw corruptFile(path, 'snapshot', `it holds snapshot ${JSON.stringify(snapshot.id)}`);
    return snapshot;
  }

  /**
   * Every snapshot file read, none parsed yet (`list` without the parsing): provenance picks the
   * few that name a path. A file that cannot be read or named is a problem of the scan, as `list`
   * reports it (one gone since the listing is left out).
   * The reads are synchronous, in slices with a turn of the event loop between them: a file read
   * through fs/promises costs four thread-pool round trips, and for hundreds of small files that
   * was eight times the CPU of reading them here.
   */
  async scan(): Promise<SnapshotScan> {
    const texts: SnapshotText[] = [];
    const problems: StoreCorruptError[] = [];
    const dir = layout(this.home).snapshots;
    const ids = await listJsonNames(dir);
    for (let i = 0; i < ids.length; i += SCAN_SLICE) {
      if (i > 0) await new Promise((resolve) => setImmediate(resolve));
      for (const id of ids.slice(i, i + SCAN_SLICE)) {
        try {
          const text = readJsonTextSync(this.snapshotPath(id), 'snapshot');
          if (text !== null) texts.push({ id, text });
        } catch (error) {
          problems.push(asStoreProblem(error, join(dir, `${id}.json`), 'snapshot'));
        }
      }
    }
    texts.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return new SnapshotScan(texts, (t) => this.parseText(t), problems);
  }

  /**
   * The run's snapshots ordered by iteration, read through its run record. RUN_NOT_FOUND without a
   * record; STORE_CORRUPT when a linked snapshot is missing, unusable or belongs to another run
   * (use `inspectRun` to get the rest anyway).
   */
  async loadByRun(runId: string): Promise<Snapshot[]> {
    const { snapshots, problems } = await this.inspectRun(runId);
    if (problems[0] !== undefined) throw problems[0];
    return snapshots;
  }

  /** Like `loadByRun`, but a bad link is reported in `problems` instead of stopping the rest. */
  async inspectRun(runId: string): Promise<RunContents> {
    const run = await this.loadRun(runId);
    if (run === null)
      throw new RunNotFoundError(
        `no run ${runId} in ${layout(this.home).runs}; "runs" lists the recorded ones`,
        { details: { runId } },
      );
    const snapshots: Snapshot[] = [];
    const problems: StoreCorruptError[] = [];
    for (const id of run.snapshotIds) {
      try {
        snapshots.push(await this.loadLinked(runId, id));
      } catch (error) {
        if (!(error instanceof StoreCorruptError)) throw error;
        problems.push(error);
      }
    }
    snapshots.sort((a, b) => a.iteration - b.iteration);
    return { run, snapshots, problems };
  }

  /**
   * The run's snapshot of the highest iteration, or null when it has none. Reads that one file
   * alone: `link` keeps `snapshotIds` ordered by iteration. STORE_CORRUPT as `loadByRun`.
   */
  async loadLast(run: RunRecord): Promise<Snapshot | null> {
    const id = run.snapshotIds.at(-1);
    return id === undefined ? null : this.loadLinked(run.runId, id);
  }

  /** Snapshot `id`, linked from run `runId`: STORE_CORRUPT when it is missing, unusable or another run's. */
  private async loadLinked(runId: string, id: string): Promise<Snapshot> {
    const runFile = this.runPath(runId);
    let snapshot: Snapshot | null;
    try {
      snapshot = await this.load(id);
    } catch (error) {
      throw asStoreProblem(error, this.snapshotPath(id), 'snapshot');
    }
    if (snapshot === null) throw danglingLink(runFile, id, this.snapshotPath(id));
    if (snapshot.runId !== runId)
      throw corruptFile(
        runFile,
        'run record',
        `it links snapshot ${id}, which belongs to run ${snapshot.runId}`,
      );
    return snapshot;
  }

  /**
   * Removes the snapshot's metadata and its link from its run (under the run's lock, link first, so
   * a crash in between leaves an unlinked file rather than a dangling link). A snapshot whose file
   * is corrupt or already gone is unlinked from every run that still links it. A loaded one's
   * capture is kept in the run's `deletedSnapshots`: its verdicts are superseded, not forged. SNAPSHOT_NOT_FOUND
   * when there is neither a file nor a link.
   */
  async delete(id: string): Promise<DeleteResult> {
    const path = this.snapshotPath(id);
    let owner: Snapshot | null = null;
    let hasFile = true;
    try {
      owner = await this.load(id);
      hasFile = owner !== null;
    } catch (error) {
      if (!(error instanceof StoreCorruptError)) throw error;
    }
    const runIds = owner !== null ? [owner.runId] : await this.runs.linking(id);
    if (!hasFile && runIds.length === 0) {
      throw new SnapshotNotFoundError(
        `no snapshot ${id} in ${layout(this.home).snapshots}; "list" shows the stored ones`,
        { details: { id } },
      );
    }
    const unlinkedFrom: string[] = [];
    for (const runId of runIds) if (await this.runs.unlink(runId, id, owner)) unlinkedFrom.push(runId);
    const removedFile = await this.withSnapshotLock(id, () => removeFile(path));
    return { id, removedFile, unlinkedFrom };
  }

  /** Every snapshot that loads, by run then iteration, and one STORE_CORRUPT per file that does not. */
  async list(): Promise<{ snapshots: Snapshot[]; problems: StoreCorruptError[] }> {
    const { items: snapshots, problems } = await loadAll(layout(this.home).snapshots, 'snapshot', (name) =>
      this.load(name),
    );
    snapshots.sort(byRunThenIteration);
    return { snapshots, problems };
  }

  /** `list` for what must see every snapshot: STORE_CORRUPT naming the first file that does not load. */
  async listStrict(): Promise<Snapshot[]> {
    const { snapshots, problems } = await this.list();
    return wholeOrThrow(snapshots, problems);
  }

  /** See RunRecords.whileIterating: one `iterate` of a run at a time. */
  whileIterating<T>(
    runId: string,
    iteration: number,
    fn: () => Promise<T>,
    onDeadHolder?: (holder: LockOwner) => Promise<void>,
  ): Promise<T> {
    return this.runs.whileIterating(runId, iteration, fn, onDeadHolder);
  }

  /** Every run record that loads, oldest first, and one STORE_CORRUPT per file that does not. */
  async listRuns(): Promise<{ runs: RunRecord[]; problems: StoreCorruptError[] }> {
    return this.runs.list();
  }

  /** `listRuns` for what must see every run ("the most recent", "all"): STORE_CORRUPT naming the first damaged record. */
  async listRunsStrict(): Promise<RunRecord[]> {
    const { runs, problems } = await this.runs.list();
    return wholeOrThrow(runs, problems);
  }

  /** The run's record, or null; STORE_CORRUPT when its file is unusable. */
  async loadRun(runId: string): Promise<RunRecord | null> {
    return this.runs.load(runId);
  }

  /**
   * Read-modify-write of a run record under its lock (created with `workspace` if missing); `change`
   * returns the next record or null to leave it; with no workspace, a missing record stays missing.
   * Used by src/sharing to note where a fetched run was recorded, by `iterate`, and to take a run
   * along to its moved workspace (with its snapshots, under the run's lock).
   */
  async updateRun(
    runId: string,
    workspace: string | null,
    change: (current: RunRecord) => Promise<RunRecord | null> | RunRecord | null,
  ): Promise<RunRecord | null> {
    return this.runs.update(assertSafeId(runId, 'run id'), workspace, change);
  }

  /**
   * Creates the run's record if needed (with `workspace`) and sets its latest before state (and a
   * declared restart). See RunRecords.recordBefore for `unusedAfter`; `indexSeal`: RunRecord's.
   */
  async recordBefore(
    runId: string,
    workspace: string,
    before: BeforeState,
    restart: RunRestart | null = null,
    unusedAfter: number | null = restart?.lastIteration ?? null,
    indexSeal?: IndexSeal,
  ): Promise<RunRecord> {
    return this.runs.recordBefore(runId, workspace, before, restart, unusedAfter, indexSeal);
  }

  /**
   * Links a stored snapshot into its run (creating the record with `workspace` if needed), ordered
   * by iteration. Idempotent; a re-captured iteration keeps both snapshots, the newer after the older.
   * The store never creates a dangling link: SNAPSHOT_NOT_FOUND unless the snapshot is saved first,
   * INVALID_ARGUMENT when it names another run or iteration. `indexSeal`: RunRecord's, kept with it.
   */
  async linkSnapshot(
    runId: string,
    workspace: string,
    snapshotId: string,
    iteration: number,
    usesBefore = false,
    indexSeal?: IndexSeal,
  ): Promise<RunRecord> {
    assertSafeId(runId, 'run id');
    const snapshot = await this.load(snapshotId);
    if (snapshot === null)
      throw new SnapshotNotFoundError(`cannot link snapshot ${snapshotId} to run ${runId}: save it first`, {
        details: { id: snapshotId, runId },
      });
    if (snapshot.runId !== runId || snapshot.iteration !== iteration) {
      throw new InvalidArgumentError(
        `snapshot ${snapshotId} is iteration ${snapshot.iteration} of run ${snapshot.runId}, not iteration ${iteration} of run ${runId}`,
        {
          details: { id: snapshotId, runId, iteration },
        },
      );
    }
    const iterationOf = async (id: string) => {
      try {
        return (await this.load(id))?.iteration ?? null;
      } catch {
        return null;
      }
    };
    return this.runs.link(runId, workspace, snapshotId, iteration, iterationOf, usesBefore, indexSeal);
  }

  /**
   * Removes the temp files a killed writer left in the store (its atomic writes' `.<name>.<pid>.<hex>.tmp`):
   * only ours, only once their writer is gone or an hour old. For recovery, after a lock takeover.
   */
  async sweepTempFiles(): Promise<string[]> {
    const dirs = layout(this.home);
    const swept = await Promise.all([dirs.snapshots, dirs.runs].map((dir) => sweepTempFiles(dir)));
    return swept.flat();
  }

  /**
   * Snapshots whose id starts with `prefix`, or whose after SHA does (hexadecimal, at least 4
   * characters, any case). An exact id wins alone. INVALID_ID for characters no id or SHA has;
   * STORE_CORRUPT naming a file that does not load and could be the answer (any file, for a SHA).
   */
  async findByPrefix(prefix: string): Promise<Snapshot[]> {
    if (typeof prefix !== 'string' || !SAFE_ID.test(prefix)) {
      throw new InvalidIdError(
        `${JSON.stringify(String(prefix).slice(0, 80))} is neither a snapshot id nor a SHA`,
        { details: { value: String(prefix).slice(0, 200) } },
      );
    }
    const { snapshots, problems } = await this.list();
    const exact = snapshots.filter((s) => s.id === prefix);
    if (exact.length > 0) return exact;
    const sha = /^[0-9a-f]{4,64}$/i.test(prefix) ? prefix.toLowerCase() : null;
    // An unreadable file's after SHA is unknown: answering from the rest could name another snapshot.
    const unknown = problems.find((p) => sha !== null || basename(String(p.details.path)).startsWith(prefix));
    if (unknown !== undefined) throw unknown;
    return snapshots.filter((s) => s.id.startsWith(prefix) || (sha !== null && s.afterSha.startsWith(sha)));
  }

  private withSnapshotLock<T>(id: string, fn: () => Promise<T>): Promise<T> {
    const lockPath = join(layout(this.home).locks, `snapshot-${assertSafeId(id, 'snapshot id')}.lock`);
    return withLock(lockPath, { timeoutMs: this.lockTimeoutMs, purpose: `snapshot ${id}` }, fn);
  }
}

/** `list`'s order of snapshots. */
export function byRunThenIteration(a: Snapshot, b: Snapshot): number {
  return (
    byCodeUnit(a.runId, b.runId) ||
    a.iteration - b.iteration ||
    byInstant(a.createdAt, b.createdAt) ||
    byCodeUnit(a.id, b.id)
  );
}

function danglingLink(runFile: string, id: string, snapshotFile: string): StoreCorruptError {
  return new StoreCorruptError(
    `${runFile} links snapshot ${id}, but ${snapshotFile} does not exist. Restore that file from a backup, or delete snapshot ${id} to drop the link`,
    { details: { path: runFile, snapshotId: id, missing: snapshotFile } },
  );
}

/** Removes a store file; false when it was already gone. */
async function removeFile(path: string): Promise<boolean> {
  if ((await stat(path).catch(() => null)) === null) return false;
  try {
    await rm(path, { force: true });
    return true;
  } catch (cause) {
    throw new WriteFailedError(`could not remove ${path} (${errnoOf(cause)}); check permissions`, {
      cause,
      details: { path },
    });
  }
}
