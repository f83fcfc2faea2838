import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { GateResult } from '../../types/gate.js';
import { GATE_LOG_FILE } from '../../types/gate-record.js';
import { supersededBy, verdictContradiction } from '../../types/gate-rules.js';
import type { RefusedRecord } from '../../types/sharing.js';
import { AgentgateError, ConcurrentUpdateError, StoreCorruptError } from '../errors.js';
import { replaceFileAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import {
  batchCheck,
  listRefsWithParents,
  objectFormat,
  writeBlobFiles,
  writeBlobToFile,
  type CommitRef,
} from '../git/record-objects.js';
import { deleteRefs, listRefs, updateRefs, type RefUpdate } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { writeRecordObjects, type RecordObjects } from './record-objects.js';
import { incomingRefspecs, refuseUndelivered } from './core.js';
import { heldUnder, refInTheWayReason } from './records.js';
import { withRepoLock } from '../git/repo-lock.js';
import { assertNoLinkInside } from '../fs/inside.js';
import { sha256File } from '../snapshotter/patch-artifact.js';
import { GateStore } from '../store/gate-store.js';
import { assertReceivableGateId, layout, makeRunArtifactsDir, receivedGateLogPath } from '../store/paths.js';
import type { SnapshotStore } from '../store/snapshot-store.js';
import {
  GATE_INCOMING_PREFIX,
  GATES_PREFIX,
  gateObjects,
  gateRef,
  parseGateRef,
  readGateCommits,
  travellingGate,
  type CheckedGate,
} from './gate-objects.js';

export interface GateRecordsOptions {
  home: string;
  artifactsDir: string;
  lockTimeoutMs: number;
  /** Whether published verdicts carry their log text (config `sharing.includeGateLogs`). */
  includeGateLogs: boolean;
  /** The most received log text one call writes (MAX_GATE_LOG_BYTES); past it a verdict is kept without. */
  maxGateLogBytes: number;
}

export interface GatesReceived {
  gates: number;
  runs: string[];
  refused: RefusedRecord[];
}

/**
 * Gate verdicts as part of a run's records (see sharing.ts): made into commits under
 * refs/agentgate/gates/ before a push or export, checked and stored into the home after a fetch or
 * import. A verdict commit, once made, is never rewritten; a received verdict never replaces one
 * stored here (GateStore.receive).
 */
export class GateRecords {
  readonly gates: GateStore;

  constructor(
    private readonly options: GateRecordsOptions,
    private readonly snapshots: SnapshotStore,
  ) {
    this.gates = new GateStore(options.home, { lockTimeoutMs: options.lockTimeoutMs });
  }

  /**
   * Makes sure every verdict of `runIds`, and every verdict recorded on this machine (not received)
   * of `ownOn` (runs fetched from elsewhere), has its commit under refs/agentgate/gates/ (under the
   * repository's lock). Returns the refs of those own verdicts on `ownOn`, which travel one by one: a
   * fetched run's other verdicts are not this machine's to publish. A verdict whose tree is not its
   * after commit's tree, whose after commit is not here, or whose own facts contradict it (a
   * `"verdict"` edited in the home), is never published (STORE_CORRUPT: `verify` names it); nor is
   * anything of a run with a verdict file that does not load (STORE_CORRUPT naming the file). A
   * verdict of a deleted snapshot's capture is left out (`publishable`).
   */
  async materialise(repo: Repo, runIds: readonly string[], ownOn: readonly string[] = []): Promise<string[]> {
    return withRepoLock(repo, this.options.lockTimeoutMs, async () => {
      const existing = new Set((await listRefs(repo, GATES_PREFIX)).map((r) => r.ref));
      const whole: GateResult[] = [];
      const own: GateResult[] = [];
      for (const runId of runIds) whole.push(...(await this.publishable(runId)));
      for (const runId of ownOn)
        own.push(...(await this.publishable(runId)).filter((g) => g.receivedAt === undefined));
      const pending = [...whole, ...own].filter((g) => !existing.has(gateRef(g.runId, g.id)));
      const ownRefs = own.map((g) => gateRef(g.runId, g.id));
      if (pending.length === 0) return ownRefs;
      const trees = await batchCheck(
        repo,
        pending.map((g) => `${g.afterSha}^{tree}`),
      );
      pending.forEach((g, i) => {
        const t = trees[i];
        // What every receiver would refuse, and `verify` fails here: an edit in the home.
        const why =
          !t?.found || t.id !== g.treeId
            ? `names tree ${g.treeId}, which is not the tree of its after commit ${g.afterSha} here`
            : verdictContradiction(g);
        if (why !== null)
          throw new StoreCorruptError(
            `gate verdict ${g.id} of run ${g.runId}: ${why}; nothing was published. "verify --run ${g.runId}" shows it`,
            { details: { runId: g.runId, id: g.id } },
          );
      });
      await this.writeCommits(repo, pending);
      return ownRefs;
    });
  }

  /**
   * The run's verdicts but those of a deleted snapshot's capture (`supersededBy`): they count no
   * more, every receiver would refuse them, and their after commit may be gone from here.
   */
  private async publishable(runId: string): Promise<GateResult[]> {
    const verdicts = await this.gates.listStrict(runId);
    const deleted = (await this.snapshots.loadRun(runId))?.deletedSnapshots ?? [];
    if (deleted.length === 0) return verdicts;
    const { snapshots } = await this.snapshots.inspectRun(runId);
    return verdicts.filter((g) => supersededBy(g, snapshots, deleted) === undefined);
  }

  private async writeCommits(repo: Repo, pending: GateResult[]): Promise<void> {
    const format = await objectFormat(repo);
    const logs = this.options.includeGateLogs
      ? await Promise.all(pending.map((g) => this.intactLog(g)))
      : pending.map(() => null);
    const logPaths = logs.filter((p): p is string => p !== null);
    const logIds = new Map((await writeBlobFiles(repo, logPaths)).map((id, i) => [logPaths[i], id]));
    const objects = pending.map((g, i) =>
      gateObjects(format, travellingGate(g), logIds.get(logs[i] ?? '') ?? null),
    );
    await writeRecordObjects(repo, this.options.home, 'gates', objects);
    const updates: RefUpdate[] = pending.map((g, i) => ({
      ref: gateRef(g.runId, g.id),
      newSha: (objects[i] as RecordObjects).commit.id,
      oldSha: null,
    }));
    await updateRefs(repo, updates, { message: 'agentgate: gate verdict' });
  }

  /** The verdict's log file when it is here and still has the recorded digest; else null (the text stays home). */
  private async intactLog(g: GateResult): Promise<string | null> {
    if (g.log === null || g.log.path === null) return null;
    const size = await stat(g.log.path).then(
      (s) => (s.isFile() ? s.size : -1),
      () => -1,
    );
    if (size !== g.log.bytes) return null;
    return (await sha256File(g.log.path)) === g.log.sha256 ? g.log.path : null;
  }

  /**
   * Takes verdicts in from `source` (the remote's or bundle's refs under GATES_PREFIX): fetches only
   * those this repository lacks (`bring`, into GATE_INCOMING_PREFIX), checks each one, writes its
   * log text (when it travelled and its digest matches) and stores it. Runs under the home's sharing
   * lock and the repository's lock, after the run records were received (whose receipt swept what a
   * killed call left under refs/agentgate/incoming/).
   */
  async receive(
    repo: Repo,
    source: ReadonlyArray<{ sha: string; ref: string }>,
    bring: (refspecs: string[]) => Promise<void>,
  ): Promise<GatesReceived> {
    if (source.length === 0) return { gates: 0, runs: [], refused: [] };
    const lockPath = join(layout(this.options.home).locks, 'sharing.lock');
    return withLock(lockPath, { timeoutMs: this.options.lockTimeoutMs, purpose: 'sharing' }, () =>
      withRepoLock(repo, this.options.lockTimeoutMs, async () => {
        const refused: RefusedRecord[] = [];
        const { local, inTheWay } = await heldUnder(repo, GATES_PREFIX);
        const toFetch: Array<{ sha: string; ref: string }> = [];
        const held: CommitRef[] = [];
        for (const r of source) {
          const name = parseGateRef(r.ref, GATES_PREFIX);
          const mine = local.get(r.ref);
          const blocker = name === null || mine !== undefined ? null : inTheWay(r.ref);
          if (name === null)
            refused.push({
              ref: r.ref,
              reason: 'not a gate ref name (refs/agentgate/gates/<runId>/<gateId>)',
            });
          else if (blocker !== null) refused.push({ ref: r.ref, reason: refInTheWayReason(r.ref, blocker) });
          else if (mine === undefined) toFetch.push(r);
          else if (mine.sha !== r.sha)
            refused.push({
              ref: r.ref,
              reason: `conflicts with this repository's verdict ${mine.sha}; kept the local one`,
            });
          else if ((await this.gates.load(name.runId, name.id).catch(() => null)) === null) held.push(mine);
        }
        if (toFetch.length > 0)
          await bring(incomingRefspecs(GATES_PREFIX, GATE_INCOMING_PREFIX, toFetch, refused));
        const wanted = new Set(toFetch.map((r) => r.ref));
        const landed = toFetch.length > 0 ? await listRefsWithParents(repo, GATE_INCOMING_PREFIX) : [];
        refuseUndelivered(GATES_PREFIX, GATE_INCOMING_PREFIX, toFetch, landed, refused);
        const incoming = landed
          .map((r) => ({ ...r, ref: `${GATES_PREFIX}${r.ref.slice(GATE_INCOMING_PREFIX.length)}` }))
          .filter((r) => wanted.has(r.ref));
        try {
          const checked = await readGateCommits(repo, [...incoming, ...held], refused, this.snapshots);
          const stored = await this.store(repo, checked, refused);
          await updateRefs(
            repo,
            stored
              .filter((c) => !local.has(c.ref.ref))
              .map((c) => ({ ref: c.ref.ref, newSha: c.ref.sha, oldSha: null })),
            { message: 'agentgate: fetched gate verdict' },
          );
          return {
            gates: stored.filter((c) => c.fresh).length,
            runs: [...new Set(stored.map((c) => c.gate.runId))].sort(),
            refused,
          };
        } finally {
          if (toFetch.length > 0)
            await deleteRefs(
              repo,
              (await listRefs(repo, GATE_INCOMING_PREFIX)).map((r) => ({ ref: r.ref, oldSha: r.sha })),
            );
        }
      }),
    );
  }

  /**
   * Writes each verdict's log text (digest verified before it is placed), within maxGateLogBytes for
   * the call (a verdict past it is stored without its text), and stores the verdict.
   */
  private async store(
    repo: Repo,
    checked: CheckedGate[],
    refused: RefusedRecord[],
  ): Promise<Array<CheckedGate & { fresh: boolean }>> {
    const out: Array<CheckedGate & { fresh: boolean }> = [];
    let room = this.options.maxGateLogBytes;
    for (const c of checked) {
      const g = c.gate;
      try {
        // Before anything is written under the name its id gives the log.
        assertReceivableGateId(g.id);
        let path: string | null = null;
        if (
          c.logBlob !== null &&
          g.log !== null &&
          g.log.bytes <= room &&
          (await this.gates.load(g.runId, g.id)) === null
        ) {
          room -= g.log.bytes;
          path = receivedGateLogPath(this.options.artifactsDir, g);
          await this.writeLog(repo, c.logBlob, g.log.sha256, path, g.runId);
        }
        const fresh = await this.gates.receive({ ...g, log: g.log === null ? null : { ...g.log, path } });
        out.push({ ...c, fresh });
      } catch (error) {
        if (!(error instanceof AgentgateError)) throw error;
        refused.push({
          ref: c.ref.ref,
          reason:
            error instanceof ConcurrentUpdateError
              ? `verdict ${g.id} is already stored here with other content; kept the local one`
              : error.message,
        });
      }
    }
    return out;
  }

  /**
   * Streams the log blob to `path` as `after` writes a patch: never through a link inside the
   * workspace (UNSAFE_WORKSPACE), a new temp file renamed into place, and only when its sha256 matches.
   */
  private async writeLog(
    repo: Repo,
    blob: string,
    sha256: string,
    path: string,
    runId: string,
  ): Promise<void> {
    await assertNoLinkInside(repo.topLevel, path);
    await makeRunArtifactsDir(this.options.artifactsDir, runId);
    await replaceFileAtomic(path, async (temp) => {
      await writeBlobToFile(repo, blob, temp);
      if ((await sha256File(temp)) !== sha256)
        throw new StoreCorruptError(`its ${GATE_LOG_FILE} does not have the sha256 the verdict records`, {
          details: { path },
        });
    });
  }
}
