import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { GateResult } from '../../types/gate.js';
import { verdictContradiction } from '../../types/gate-rules.js';
import {
  GATE_LOG_FILE,
  GATE_RECORD_FILE,
  GATE_RECORD_FORMAT,
  GateRecordFile,
  type TravellingGate,
} from '../../types/gate-record.js';
import type { RefusedRecord } from '../../types/sharing.js';
import { SafeId } from '../../types/snapshot.js';
import { AgentgateError, ConcurrentUpdateError, StoreCorruptError } from '../errors.js';
import { replaceFileAtomic } from '../fs/atomic.js';
import { withLock } from '../fs/lock.js';
import {
  batchCheck,
  listRefsWithParents,
  objectFormat,
  objectId,
  readBlobs,
  treeContent,
  writeBlobFiles,
  writeBlobToFile,
  writeObjects,
  type CommitRef,
  type ObjectFormat,
} from '../git/record-objects.js';
import { deleteRefs, listRefs, updateRefs, type RefUpdate } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { withRepoLock } from '../git/repo-lock.js';
import { assertNoLinkInside } from '../fs/inside.js';
import { sha256File } from '../snapshotter/patch-artifact.js';
import { GateStore } from '../store/gate-store.js';
import { assertSafeId, layout } from '../store/paths.js';
import type { SnapshotStore } from '../store/snapshot-store.js';

/** One ref per verdict: verdicts of one iteration pushed at once from several machines never meet. */
export const GATES_PREFIX = 'refs/agentgate/gates/';
/** Fetched and imported verdicts land here first (under the sharing incoming namespace, swept alike). */
export const GATE_INCOMING_PREFIX = 'refs/agentgate/incoming/gates/';

/** The largest gate.json taken from elsewhere. */
const MAX_GATE_RECORD_BYTES = 16 * 1024 * 1024;
/** Above this many new verdicts, one wildcard refspec instead of one per ref (command-line length). */
const MAX_REFSPECS = 2000;

export function gateRef(runId: string, id: string, prefix = GATES_PREFIX): string {
  return `${prefix}${runId}/${id}`;
}

/** `<prefix><runId>/<gateId>` back to its parts; null for any other name (untrusted input). */
export function parseGateRef(ref: string, prefix: string): { runId: string; id: string } | null {
  if (!ref.startsWith(prefix)) return null;
  const m = /^([^/]+)\/([^/]+)$/.exec(ref.slice(prefix.length));
  if (!m || !SafeId.safeParse(m[1]).success || !SafeId.safeParse(m[2]).success) return null;
  return { runId: m[1] as string, id: m[2] as string };
}

/** The push refspecs of the verdicts of `runs` (or of every run). */
export function gateRefspecs(runs: readonly string[], all: boolean): string[] {
  return all
    ? [`${GATES_PREFIX}*:${GATES_PREFIX}*`]
    : runs.map((r) => `${GATES_PREFIX}${r}/*:${GATES_PREFIX}${r}/*`);
}

/** Where a received verdict's log text is written: its id in the name, as two machines may both record attempt 1. */
export function receivedLogPath(artifactsDir: string, g: TravellingGate): string {
  return join(
    artifactsDir,
    assertSafeId(g.runId, 'run id'),
    `iteration-${g.iteration}`,
    `gate-${assertSafeId(g.name, 'gate name')}-${g.attempt}-${assertSafeId(g.id, 'gate id')}.log`,
  );
}

/** The verdict as it travels: no path of this machine. */
export function travellingGate({ receivedAt: _, ...result }: GateResult): TravellingGate {
  return {
    ...result,
    log: result.log === null ? null : { sha256: result.log.sha256, bytes: result.log.bytes },
  };
}

interface GateObjects {
  json: { id: string; content: Buffer };
  tree: { id: string; content: Buffer };
  commit: { id: string; content: Buffer };
}

/**
 * The verdict's commit: its tree holds gate.json (and gate.log when `logBlob` is given), its only
 * parent is the after commit the verdict judged, and its dates are the verdict's start, so that the
 * same verdict gives the same commit wherever it is published.
 */
export function gateObjects(format: ObjectFormat, gate: TravellingGate, logBlob: string | null): GateObjects {
  const record: GateRecordFile = { format: GATE_RECORD_FORMAT, gate };
  const json = Buffer.from(`${JSON.stringify(GateRecordFile.parse(record), null, 2)}\n`);
  const jsonId = objectId(format, 'blob', json);
  const entries = [{ name: GATE_RECORD_FILE, blob: jsonId }];
  if (logBlob !== null) entries.push({ name: GATE_LOG_FILE, blob: logBlob });
  const treeBuf = treeContent(entries);
  const tree = objectId(format, 'tree', treeBuf);
  const who = `agentgate <agentgate@localhost> ${Math.floor(Date.parse(gate.startedAt) / 1000)} +0000`;
  const message = `[agentgate] Gate ${gate.name} of run ${gate.runId} iteration ${gate.iteration}: ${gate.verdict}\n\nAgentgate-Gate: ${gate.id}\n`;
  const commitBuf = Buffer.from(
    `tree ${tree}\nparent ${gate.afterSha}\nauthor ${who}\ncommitter ${who}\n\n${message}`,
  );
  return {
    json: { id: jsonId, content: json },
    tree: { id: tree, content: treeBuf },
    commit: { id: objectId(format, 'commit', commitBuf), content: commitBuf },
  };
}

export interface GateRecordsOptions {
  home: string;
  artifactsDir: string;
  lockTimeoutMs: number;
  /** Whether published verdicts carry their log text (config `sharing.includeGateLogs`). */
  includeGateLogs: boolean;
}

export interface GatesReceived {
  gates: number;
  runs: string[];
  refused: RefusedRecord[];
}

/** A verdict commit from elsewhere that passed every check, with what goes into the home. */
interface Checked {
  ref: CommitRef;
  gate: TravellingGate;
  logBlob: string | null;
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
   * Makes sure every verdict of `runIds` has its commit under refs/agentgate/gates/ (under the
   * repository's lock). A verdict whose tree is not its after commit's tree, or whose after commit
   * is not here, is never published (STORE_CORRUPT: `verify` names it).
   */
  async materialise(repo: Repo, runIds: readonly string[]): Promise<void> {
    await withRepoLock(repo, this.options.lockTimeoutMs, async () => {
      const existing = new Set((await listRefs(repo, GATES_PREFIX)).map((r) => r.ref));
      const pending: GateResult[] = [];
      for (const runId of runIds)
        for (const g of (await this.gates.list(runId)).results)
          if (!existing.has(gateRef(g.runId, g.id))) pending.push(g);
      if (pending.length === 0) return;
      const trees = await batchCheck(
        repo,
        pending.map((g) => `${g.afterSha}^{tree}`),
      );
      pending.forEach((g, i) => {
        const t = trees[i];
        if (!t?.found || t.id !== g.treeId)
          throw new StoreCorruptError(
            `gate verdict ${g.id} of run ${g.runId} names tree ${g.treeId}, which is not the tree of its after commit ${g.afterSha} here; nothing was published. "verify --run ${g.runId}" shows it`,
            { details: { runId: g.runId, id: g.id } },
          );
      });
      await this.writeCommits(repo, pending);
    });
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
    const dir = join(layout(this.options.home).home, 'tmp', `gates-${randomBytes(6).toString('hex')}`);
    await mkdir(dir, { recursive: true });
    try {
      const kinds = [
        ['blob', 'json'],
        ['tree', 'tree'],
        ['commit', 'commit'],
      ] as const;
      for (const [type, key] of kinds) {
        const files = new Map<string, string>();
        for (const o of objects) {
          const path = join(dir, `${type}-${o[key].id}`);
          if (!files.has(o[key].id)) await writeFile(path, o[key].content);
          files.set(o[key].id, path);
        }
        await writeObjects(
          repo,
          type,
          [...files].map(([id, path]) => ({ id, path })),
        );
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const updates: RefUpdate[] = pending.map((g, i) => ({
      ref: gateRef(g.runId, g.id),
      newSha: (objects[i] as GateObjects).commit.id,
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
        const local = new Map((await listRefsWithParents(repo, GATES_PREFIX)).map((r) => [r.ref, r]));
        const toFetch: Array<{ sha: string; ref: string }> = [];
        const held: CommitRef[] = [];
        for (const r of source) {
          const name = parseGateRef(r.ref, GATES_PREFIX);
          const mine = local.get(r.ref);
          if (name === null)
            refused.push({
              ref: r.ref,
              reason: 'not a gate ref name (refs/agentgate/gates/<runId>/<gateId>)',
            });
          else if (mine === undefined) toFetch.push(r);
          else if (mine.sha !== r.sha)
            refused.push({
              ref: r.ref,
              reason: `conflicts with this repository's verdict ${mine.sha}; kept the local one`,
            });
          else if ((await this.gates.load(name.runId, name.id).catch(() => null)) === null) held.push(mine);
        }
        if (toFetch.length > 0)
          await bring(
            toFetch.length > MAX_REFSPECS
              ? [`+${GATES_PREFIX}*:${GATE_INCOMING_PREFIX}*`]
              : toFetch.map((r) => `+${r.ref}:${GATE_INCOMING_PREFIX}${r.ref.slice(GATES_PREFIX.length)}`),
          );
        const wanted = new Set(toFetch.map((r) => r.ref));
        const incoming = (toFetch.length > 0 ? await listRefsWithParents(repo, GATE_INCOMING_PREFIX) : [])
          .map((r) => ({ ...r, ref: `${GATES_PREFIX}${r.ref.slice(GATE_INCOMING_PREFIX.length)}` }))
          .filter((r) => wanted.has(r.ref));
        try {
          const checked = await this.check(repo, [...incoming, ...held], refused);
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

  /** Every check that needs no write: ref name, commit shape, schema, ids, the after commit and its tree. */
  private async check(repo: Repo, refs: CommitRef[], refused: RefusedRecord[]): Promise<Checked[]> {
    const refuse = (ref: string, reason: string) => refused.push({ ref, reason });
    const shaped = refs.filter((r) => {
      if (r.type === 'commit' && r.parents.length === 1) return true;
      refuse(r.ref, 'not a gate verdict commit (one parent: the after commit)');
      return false;
    });
    const probes = await batchCheck(
      repo,
      shaped.flatMap((r) => [
        `${r.sha}:${GATE_RECORD_FILE}`,
        `${r.sha}:${GATE_LOG_FILE}`,
        `${r.parents[0]}^{tree}`,
      ]),
    );
    const sized = shaped.flatMap((r, i) => {
      const [json, log, tree] = [probes[3 * i], probes[3 * i + 1], probes[3 * i + 2]];
      if (!json?.found || json.type !== 'blob') refuse(r.ref, `has no ${GATE_RECORD_FILE}`);
      else if (json.size > MAX_GATE_RECORD_BYTES)
        refuse(r.ref, `${GATE_RECORD_FILE} is larger than ${MAX_GATE_RECORD_BYTES} bytes`);
      else if (log?.found && log.type !== 'blob') refuse(r.ref, `${GATE_LOG_FILE} is not a file`);
      else if (!tree?.found) refuse(r.ref, 'its after commit is not in the repository');
      else
        return [
          {
            ref: r,
            json: json.id,
            log: log?.found ? { id: log.id, size: log.size } : null,
            tree: tree.id,
          },
        ];
      return [];
    });
    const contents = await readBlobs(repo, [...new Set(sized.map((s) => s.json))]);
    const runSnapshots = new Map<string, Map<number, string>>();
    const checked: Checked[] = [];
    for (const s of sized) {
      const name = parseGateRef(s.ref.ref, GATES_PREFIX) as { runId: string; id: string };
      let json: unknown;
      try {
        json = JSON.parse((contents.get(s.json) as Buffer).toString('utf8'));
      } catch {
        refuse(s.ref.ref, `${GATE_RECORD_FILE} is not JSON`);
        continue;
      }
      const parsed = GateRecordFile.safeParse(json);
      if (!parsed.success) {
        refuse(
          s.ref.ref,
          `${GATE_RECORD_FILE} does not match the gate verdict schema: ${parsed.error.issues
            .slice(0, 3)
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .join('; ')}`,
        );
        continue;
      }
      const g = parsed.data.gate;
      const afterOf = await this.iterationAfter(runSnapshots, g.runId, g.iteration);
      const why =
        g.runId !== name.runId || g.id !== name.id
          ? `it describes verdict ${g.id} of run ${g.runId}`
          : s.ref.parents[0] !== g.afterSha
            ? 'its parent is not the after commit it names'
            : s.tree !== g.treeId
              ? `its treeId ${g.treeId} is not the tree of its after commit ${g.afterSha}`
              : afterOf === undefined
                ? `iteration ${g.iteration} of run ${g.runId} is not recorded here`
                : afterOf !== g.afterSha
                  ? `iteration ${g.iteration} of run ${g.runId} here has after commit ${afterOf}, not ${g.afterSha}`
                  : s.log !== null && (g.log === null || s.log.size !== g.log.bytes)
                    ? `its ${GATE_LOG_FILE} is not the log the verdict describes`
                    : verdictContradiction(g);
      if (why !== null) refuse(s.ref.ref, why);
      else checked.push({ ref: s.ref, gate: g, logBlob: s.log?.id ?? null });
    }
    return checked;
  }

  /** The after commit of a run's iteration in the local home (read once per run), or undefined. */
  private async iterationAfter(
    cache: Map<string, Map<number, string>>,
    runId: string,
    iteration: number,
  ): Promise<string | undefined> {
    if (!cache.has(runId)) {
      const snaps = await this.snapshots.inspectRun(runId).then(
        (c) => c.snapshots,
        () => [],
      );
      cache.set(runId, new Map(snaps.map((s) => [s.iteration, s.afterSha])));
    }
    return cache.get(runId)?.get(iteration);
  }

  /** Writes each verdict's log text (digest verified before it is placed) and stores the verdict. */
  private async store(
    repo: Repo,
    checked: Checked[],
    refused: RefusedRecord[],
  ): Promise<Array<Checked & { fresh: boolean }>> {
    const out: Array<Checked & { fresh: boolean }> = [];
    for (const c of checked) {
      const g = c.gate;
      try {
        let path: string | null = null;
        if (c.logBlob !== null && g.log !== null && (await this.gates.load(g.runId, g.id)) === null) {
          path = receivedLogPath(this.options.artifactsDir, g);
          await this.writeLog(repo, c.logBlob, g.log.sha256, path);
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
  private async writeLog(repo: Repo, blob: string, sha256: string, path: string): Promise<void> {
    await assertNoLinkInside(repo.topLevel, path);
    await replaceFileAtomic(path, async (temp) => {
      await writeBlobToFile(repo, blob, temp);
      if ((await sha256File(temp)) !== sha256)
        throw new StoreCorruptError(`its ${GATE_LOG_FILE} does not have the sha256 the verdict records`, {
          details: { path },
        });
    });
  }
}
