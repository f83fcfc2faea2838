import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { AnchorMode, AnchorsReceived } from '../../types/anchor-record.js';
import type { ExportResult, PushResult, ReceiveResult } from '../../types/sharing.js';
import {
  AnchorNotFoundError,
  BundleInvalidError,
  GitFailedError,
  PushRejectedError,
  RunNotFoundError,
} from '../errors.js';
import { openRepo, type Repo } from '../git/repo.js';
import { shallowCommits } from '../git/provenance.js';
import { listRefs } from '../git/refs.js';
import {
  createBundle,
  fetchFromBundle,
  fetchRefs,
  listRemoteRefs,
  pushRefs,
  verifyBundle,
  type PushedRef,
} from '../git/transport.js';
import { resolveRemote, type RemoteTarget } from '../git/remote.js';
import { clearStaleRemoteRefLocks } from '../git/remote-locks.js';
import { writeOutputFile } from '../fs/atomic.js';
import { bundleHeaderProblem, bundlePackIntact } from '../git/bundle-pack.js';
import { assertSafeId } from '../store/paths.js';
import { SnapshotStore } from '../store/snapshot-store.js';
import { parseRecordRef, RECORDS_PREFIX } from './records.js';
import { GateRecords, type GatesReceived } from './gate-records.js';
import { gateRefspecs, GATES_PREFIX } from './gate-objects.js';
import type { Selection, SharingCore, SharingOptions } from './core.js';
import { MAX_GATE_LOG_BYTES, repeatedRefs } from './core.js';
import { materialise, rejectionMessage } from './publish.js';
import { receive } from './receive.js';
import { settleRejected } from './own-records.js';
import {
  bundleOrMissing,
  dropBrokenRecords,
  fetchAroundMissing,
  objectMissing,
  pushAroundMissing,
} from './missing-objects.js';
import { AnchorRecords } from './anchor-records.js';
import { anchorRef, ANCHORS_PREFIX } from './anchor-objects.js';

export { MAX_GATE_LOG_BYTES, MAX_PATCH_BYTES } from './core.js';
export type { Selection, SharingOptions };

/**
 * Runs that travel: every iteration's record is a commit under refs/agentgate/records/ (see
 * records.ts), published with one `git push`, fetched with one `git fetch` or carried in one bundle,
 * and rebuilt into the local home after checks. Nothing received is trusted. Publishing lives in
 * publish.ts, taking records in in receive.ts (checks) and rebuild.ts (writing them into the home).
 */
export class Sharing implements SharingCore {
  readonly store: SnapshotStore;
  /** The runs' gate verdicts, which travel beside their records (gate-records.ts). */
  readonly gateRecords: GateRecords;
  /** The anchors, which travel beside the runs they name (anchor-records.ts); null without a keeper. */
  readonly anchorRecords: AnchorRecords | null;

  constructor(readonly options: SharingOptions) {
    this.store = new SnapshotStore(options.home, { lockTimeoutMs: options.lockTimeoutMs });
    this.gateRecords = new GateRecords(
      {
        ...options,
        includeGateLogs: options.includeGateLogs ?? false,
        maxGateLogBytes: options.maxGateLogBytes ?? MAX_GATE_LOG_BYTES,
      },
      this.store,
    );
    this.anchorRecords = options.anchors ? new AnchorRecords(options, options.anchors) : null;
  }

  /**
   * Publishes the selected runs' records and verdicts, and the anchors beside them, to a remote
   * (default `origin`) in one push; by default also this machine's own verdicts on runs of this
   * workspace fetched from elsewhere. PUSH_REJECTED when the remote holds another record for an
   * iteration, or another anchor of a commit: nothing is overwritten.
   */
  async push(sel: Selection, remoteName = 'origin', cwd = process.cwd()): Promise<PushResult> {
    const repo = await this.open(sel.workspace);
    const remote = await resolveRemote(repo, remoteName, cwd, 'push');
    const mode = this.anchorMode(sel);
    const { runs, refs, ownGates, replaced } = await this.materialiseRuns(repo, sel, mode);
    const anchors = await this.materialiseAnchors(repo, sel, mode);
    const count =
      (mode === 'only' ? 0 : sel.all ? (await listRefs(repo, RECORDS_PREFIX)).length : refs.length) +
      ownGates.length +
      (mode !== 'none' && sel.all ? (await listRefs(repo, ANCHORS_PREFIX)).length : anchors.length);
    if (count === 0)
      return { remote: remote.name, runs, refs: 0, updated: [], upToDate: [], gates: 0, anchors: [] };
    const specs = [
      ...(mode === 'only'
        ? []
        : sel.all
          ? [`${RECORDS_PREFIX}*:${RECORDS_PREFIX}*`]
          : runs.map((r) => `${RECORDS_PREFIX}${r}/*:${RECORDS_PREFIX}${r}/*`)),
      ...(mode === 'only' ? [] : gateRefspecs(runs, sel.all === true)),
      ...ownGates.map((r) => `${r}:${r}`),
      ...(mode === 'none'
        ? []
        : sel.all
          ? [`${ANCHORS_PREFIX}*:${ANCHORS_PREFIX}*`]
          : anchors.map((c) => `${anchorRef(c)}:${anchorRef(c)}`)),
    ];
    // git's pack fails for the whole push when a record reaches a commit this repository lost.
    const pushed = await pushAroundMissing(repo, remote, await pushWithLockRepair(repo, remote, specs));
    const results = pushed.results;
    const updated = results.filter((r) => r.flag === '*' || r.flag === ' ').map((r) => r.ref);
    const upToDate = results.filter((r) => r.flag === '=').map((r) => r.ref);
    let rejected = results.filter((r) => r.flag === '!');
    if (rejected.length > 0) {
      const settled = await settleRejected(this, repo, remote, rejected);
      upToDate.push(...settled);
      rejected = rejected.filter((r) => !settled.includes(r.ref));
    }
    if (pushed.broken.length > 0) {
      await dropBrokenRecords(repo, pushed.broken);
      throw objectMissing(pushed.broken, {
        remote: remote.name,
        updated,
        upToDate,
        rejected: rejected.map((r) => ({ ref: r.ref, summary: r.summary })),
      });
    }
    if (rejected.length > 0) {
      throw new PushRejectedError(rejectionMessage(rejected), {
        details: {
          remote: remote.name,
          rejected: rejected.map((r) => ({ ref: r.ref, summary: r.summary })),
          updated,
          upToDate,
        },
      });
    }
    // With --all, the runs are those of every record pushed, whichever home made them.
    return {
      remote: remote.name,
      runs: sel.all ? runsOf(results.map((r) => r.ref)) : runs,
      refs: results.length,
      updated,
      upToDate,
      gates: results.filter((r) => r.ref.startsWith(GATES_PREFIX)).length,
      anchors: anchorsOf(results.map((r) => r.ref)),
      ...replaced,
    };
  }

  /** Fetches records, and the anchors beside them, from a remote (only what is new) and rebuilds them in the local home. */
  async fetch(sel: Selection, remoteName = 'origin', cwd = process.cwd()): Promise<ReceiveResult> {
    if (sel.runId !== undefined) assertSafeId(sel.runId, 'run id');
    const repo = await this.open(sel.workspace);
    const remote = await resolveRemote(repo, remoteName, cwd, 'fetch');
    const mode = this.anchorMode(sel);
    // A remote that cannot send some records' objects costs those records alone (missing-objects.ts).
    const bring = (specs: string[]) => fetchAroundMissing((part) => fetchRefs(repo, remote, part), specs);
    const prefix = sel.runId === undefined ? RECORDS_PREFIX : `${RECORDS_PREFIX}${sel.runId}/`;
    const received = await this.receiveAll(
      repo,
      mode,
      {
        records: async () => {
          const refs = await listRemoteRefs(repo, remote, prefix);
          if (sel.runId !== undefined && refs.length === 0)
            throw new RunNotFoundError(
              `${remote.name} has no records of run ${sel.runId}; "fetch" without --run takes every run it has`,
              { details: { runId: sel.runId, remote: remote.name } },
            );
          return refs;
        },
        gates: () =>
          listRemoteRefs(
            repo,
            remote,
            sel.runId === undefined ? GATES_PREFIX : `${GATES_PREFIX}${sel.runId}/`,
          ),
        anchors: () => listRemoteRefs(repo, remote, ANCHORS_PREFIX),
      },
      bring,
      sel.runId,
    );
    return { remote: remote.name, ...received };
  }

  /** Writes the selected runs' records, and the anchors beside them, as one bundle file (atomically). */
  async export(sel: Selection, file: string, cwd = process.cwd()): Promise<ExportResult> {
    const repo = await this.open(sel.workspace);
    const mode = this.anchorMode(sel);
    const { runs, ownGates, replaced } = await this.materialiseRuns(repo, sel, mode);
    const anchors = await this.materialiseAnchors(repo, sel, mode);
    const all = mode === 'only' ? [] : await listRefs(repo, RECORDS_PREFIX);
    const chosen = sel.all
      ? all
      : all.filter((r) => runs.some((run) => r.ref.startsWith(`${RECORDS_PREFIX}${run}/`)));
    const gates = (mode === 'only' ? [] : await listRefs(repo, GATES_PREFIX)).filter(
      (r) =>
        sel.all || ownGates.includes(r.ref) || runs.some((run) => r.ref.startsWith(`${GATES_PREFIX}${run}/`)),
    );
    const anchorRefs =
      mode !== 'none' && sel.all
        ? (await listRefs(repo, ANCHORS_PREFIX)).map((r) => r.ref)
        : anchors.map((c) => anchorRef(c));
    if (mode === 'only' && anchorRefs.length === 0)
      throw new AnchorNotFoundError(
        `no anchor of ${repo.topLevel}'s commits is recorded in this home; "anchor REV" records one`,
        { details: { workspace: repo.topLevel } },
      );
    if (chosen.length === 0 && gates.length === 0 && anchorRefs.length === 0)
      throw new RunNotFoundError(
        `no run or gate verdict recorded here to export from ${repo.topLevel}; capture a run first, name one with --run, or take every record (fetched ones included) with --all`,
        { details: { workspace: repo.topLevel } },
      );
    const path = resolve(cwd, file);
    const refs = [...chosen, ...gates].map((r) => r.ref).concat(anchorRefs);
    const boundary = [...(await shallowCommits(repo))];
    await writeOutputFile(path, (temp) =>
      bundleOrMissing(repo, refs, () => createBundle(repo, temp, refs, boundary)),
    );
    return {
      file: path,
      runs: runsOf(chosen.map((r) => r.ref)),
      refs: refs.length,
      gates: gates.length,
      anchors: anchorsOf(anchorRefs),
      ...replaced,
    };
  }

  /**
   * Verifies a bundle with git, takes its records (and the anchors beside them) in and rebuilds
   * them. BUNDLE_INVALID (nothing changed) for a damaged or foreign file.
   */
  async import(
    workspace: string,
    file: string,
    cwd = process.cwd(),
    opts: { anchors?: AnchorMode } = {},
  ): Promise<ReceiveResult> {
    const repo = await this.open(workspace);
    const path = resolve(cwd, file);
    const isFile = await stat(path).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!isFile)
      throw new BundleInvalidError(`${path} is not a file; give the bundle written by "export"`, {
        details: { file: path },
      });
    const problem = await bundleHeaderProblem(path);
    if (problem !== null)
      throw new BundleInvalidError(
        `${path} is not a git bundle: ${problem}; use a file written by "export"`,
        {
          details: { file: path },
        },
      );
    const { unique: heads, refused: repeated } = repeatedRefs(await verifyBundle(repo, path));
    if (!(await bundlePackIntact(path)))
      throw new BundleInvalidError(
        `${path} is truncated or damaged (its pack does not match its checksum); use a whole file written by "export"`,
        { details: { file: path } },
      );
    const records = heads.filter((h) => h.ref.startsWith(RECORDS_PREFIX));
    const gateHeads = heads.filter((h) => h.ref.startsWith(GATES_PREFIX));
    const anchorHeads = heads.filter((h) => h.ref.startsWith(ANCHORS_PREFIX));
    // A bundle of verdicts alone is what "export" writes from a fetched run this machine gated.
    if (records.length + gateHeads.length + anchorHeads.length + repeated.length === 0) {
      throw new BundleInvalidError(
        `${path} holds no agentgate records (no ${RECORDS_PREFIX}, ${GATES_PREFIX} or ${ANCHORS_PREFIX} refs); use a file written by "export"`,
        { details: { file: path } },
      );
    }
    const bring = async (specs: string[]) => {
      try {
        await fetchFromBundle(repo, path, specs);
      } catch (cause) {
        if (cause instanceof GitFailedError)
          throw new BundleInvalidError(
            `git could not read ${path}: ${String(cause.details.stderr ?? cause.message).slice(0, 300)}`,
            { cause, details: { file: path } },
          );
        throw cause;
      }
    };
    const mode = this.anchorMode(opts);
    const received = await this.receiveAll(
      repo,
      mode,
      {
        records: async () => records,
        gates: async () => gateHeads,
        anchors: async () => anchorHeads,
      },
      bring,
    );
    return { file: path, ...received, refused: [...repeated, ...received.refused] };
  }

  /**
   * The selected runs' records and verdicts, made into refs; `ownGates`: the refs of this machine's
   * own verdicts on fetched runs of this workspace, which the default selection publishes without
   * those runs' records (a CI runner that fetches, gates and pushes loses no verdict; docs/travel.md).
   */
  private async materialiseRuns(
    repo: Repo,
    sel: Selection,
    mode: AnchorMode,
  ): Promise<{ runs: string[]; refs: string[]; ownGates: string[]; replaced: { replaced?: string[] } }> {
    if (mode === 'only') return { runs: [], refs: [], ownGates: [], replaced: {} };
    const { runs, refs, fetched, replaced } = await materialise(this, repo, sel);
    return {
      runs,
      refs,
      ownGates: await this.gateRecords.materialise(repo, runs, fetched),
      replaced: replaced.length > 0 ? { replaced } : {},
    };
  }

  /** Which anchors travel: none without a keeper; else as the selection says (default: beside the runs). */
  private anchorMode(sel: Pick<Selection, 'anchors'>): AnchorMode {
    return this.anchorRecords === null ? 'none' : (sel.anchors ?? 'with');
  }

  /** The anchors to publish: those naming `--run`'s run, else every recorded anchor of this repository. */
  private async materialiseAnchors(repo: Repo, sel: Selection, mode: AnchorMode): Promise<string[]> {
    if (mode === 'none' || this.anchorRecords === null) return [];
    return this.anchorRecords.materialise(repo, sel.runId === undefined ? null : [sel.runId]);
  }

  /** What fetch and import share: the records, then the verdicts, then the anchors (each listed only when it travels). */
  private async receiveAll(
    repo: Repo,
    mode: AnchorMode,
    sources: Record<'records' | 'gates' | 'anchors', () => Promise<Array<{ sha: string; ref: string }>>>,
    bring: (specs: string[]) => Promise<void>,
    runId?: string,
  ) {
    const result =
      mode === 'only'
        ? NOTHING_RECEIVED
        : await receive(this, repo, sources.records, (_r, specs) => bring(specs));
    const gates =
      mode === 'only' ? NO_GATES : await this.gateRecords.receive(repo, await sources.gates(), bring);
    const anchors = await this.receiveAnchors(repo, mode, sources.anchors, bring, runId);
    return withAnchors(withGates(result, gates), anchors);
  }

  /** Takes the source's anchors in, after the runs they name (anchor-records.ts). */
  private async receiveAnchors(
    repo: Repo,
    mode: AnchorMode,
    list: () => Promise<Array<{ sha: string; ref: string }>>,
    bring: (specs: string[]) => Promise<void>,
    runId?: string,
  ): Promise<AnchorsReceived | null> {
    if (mode === 'none' || this.anchorRecords === null) return null;
    return this.anchorRecords.receive(repo, await list(), bring, runId === undefined ? null : [runId]);
  }

  private async open(workspace: string): Promise<Repo> {
    return openRepo(workspace, { identity: this.options.identity, timeoutMs: this.options.gitTimeoutMs });
  }
}

/**
 * One push; refs the remote could not lock are pushed once more after the stale locks a killed push
 * left there are removed (a remote on this machine only: git/remote-locks.ts).
 */
async function pushWithLockRepair(
  repo: Repo,
  remote: RemoteTarget,
  specs: readonly string[],
): Promise<PushedRef[]> {
  const results = await pushRefs(repo, remote, specs);
  const locked = results.filter((r) => r.flag === '!' && /failed to (update|lock) ref/.test(r.summary));
  if (
    locked.length === 0 ||
    !(await clearStaleRemoteRefLocks(
      remote.url,
      locked.map((r) => r.ref),
    ))
  )
    return results;
  const again = await pushRefs(
    repo,
    remote,
    locked.map((r) => `${r.ref}:${r.ref}`),
  );
  return [...results.filter((r) => !locked.includes(r)), ...again];
}

/** The records received, plus the gate verdicts received after them. */
function withGates(
  records: Omit<ReceiveResult, 'remote' | 'file' | 'gates' | 'anchors'>,
  gates: GatesReceived,
): Omit<ReceiveResult, 'remote' | 'file' | 'anchors'> {
  return {
    ...records,
    runs: [...new Set([...records.runs, ...gates.runs])].sort(),
    refused: [...records.refused, ...gates.refused],
    gates: gates.gates,
  };
}

const NOTHING_RECEIVED: Omit<ReceiveResult, 'remote' | 'file' | 'gates' | 'anchors'> = {
  runs: [],
  snapshots: 0,
  unchanged: 0,
  refused: [],
};
const NO_GATES: GatesReceived = { gates: 0, runs: [], refused: [] };

/** The result with the anchors taken in (and those refused) added. */
function withAnchors(
  result: Omit<ReceiveResult, 'remote' | 'file' | 'anchors'>,
  anchors: AnchorsReceived | null,
): Omit<ReceiveResult, 'remote' | 'file'> {
  return {
    ...result,
    refused: [...result.refused, ...(anchors?.refused ?? [])],
    anchors: anchors?.anchors ?? [],
  };
}

/** The anchored commits of anchor refs, sorted. */
function anchorsOf(refs: readonly string[]): string[] {
  return refs
    .filter((r) => r.startsWith(ANCHORS_PREFIX))
    .map((r) => r.slice(ANCHORS_PREFIX.length))
    .sort();
}

/** The run ids of record refs, sorted, each once. */
function runsOf(refs: readonly string[]): string[] {
  return [
    ...new Set(
      refs.map((r) => parseRecordRef(r, RECORDS_PREFIX)?.runId).filter((r): r is string => r !== undefined),
    ),
  ].sort();
}
