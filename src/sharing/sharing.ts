import { randomBytes } from 'node:crypto';
import { mkdir, rm, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { Identity } from '../../types/config.js';
import type { RunRecord, RunRestart } from '../../types/run.js';
import {
  RebuiltIndex,
  RecordFile,
  RECORD_FILE,
  type ExportResult,
  type PushResult,
  type ReceiveResult,
  type RefusedRecord,
} from '../../types/sharing.js';
import type { Snapshot } from '../../types/snapshot.js';
import {
  BundleInvalidError,
  ConcurrentUpdateError,
  GitFailedError,
  GitTimeoutError,
  OutputTooLargeError,
  PushRejectedError,
  RunNotFoundError,
  RunWorkspaceMismatchError,
  UnsafeWorkspaceError,
} from '../errors.js';
import {
  batchCheck,
  listRefsWithParents,
  objectFormat,
  readBlobs,
  writeObjects,
  type CommitRef,
} from '../git/record-objects.js';
import { openRepo, type Repo } from '../git/repo.js';
import { deleteRefs, listRefs, updateRefs, type RefEntry, type RefUpdate } from '../git/refs.js';
import {
  createBundle,
  fetchRefs,
  listRemoteRefs,
  pushRefs,
  resolveRemote,
  verifyBundle,
} from '../git/transport.js';
import { writeTreeDiffToFile } from '../git/unified-diff.js';
import { replaceFileAtomic, writeJsonAtomic } from '../fs/atomic.js';
import { readJsonFile } from '../store/json-file.js';
import { withLock } from '../fs/lock.js';
import { withRepoLock } from '../git/repo-lock.js';
import { assertNoLinkInside } from '../fs/inside.js';
import { bundlePackIntact } from '../git/bundle-pack.js';
import { assertSafeId, layout, patchPath } from '../store/paths.js';
import { SnapshotStore } from '../store/snapshot-store.js';
import {
  buildRecord,
  INCOMING_PREFIX,
  iterationRef,
  parseRecordRef,
  PATCH_RECIPE_ARGS,
  recordObjects,
  recordRef,
  RECORDS_PREFIX,
  relativePatchFile,
} from './records.js';
import { GateRecords, gateRefspecs, GATES_PREFIX, type GatesReceived } from './gate-records.js';

export interface SharingOptions {
  home: string;
  artifactsDir: string;
  identity: Identity;
  gitTimeoutMs: number;
  lockTimeoutMs: number;
  /**
   * A workspace on this machine (the CLI's `-C`) that stands in for a recorded workspace that is not
   * here, as for the snapshotter: a copied home publishes its runs from the copied workspace.
   */
  localWorkspace?: string;
  /** The largest patch artifact one received record may make us write (default MAX_PATCH_BYTES). */
  maxPatchBytes?: number;
  /** Whether push and export carry each gate verdict's log text (config `sharing.includeGateLogs`); the digest always travels. */
  includeGateLogs?: boolean;
}

/**
 * Which runs: one, every run of this workspace recorded on this machine (the default: runs fetched
 * or imported from elsewhere are not published again), or every record in the repository.
 */
export interface Selection {
  workspace: string;
  runId?: string;
  all?: boolean;
}

/** The largest record.json taken from elsewhere (a hostile one cannot fill memory). */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;
/**
 * The largest patch one received record may make us write. A record names two trees, and a tiny
 * pack (one compressible blob at many paths) can make their patch hundreds of MB: past this size
 * git is stopped and the record refused; the others still land.
 */
export const MAX_PATCH_BYTES = 512 * 1024 * 1024;
/** Above this many new records, one wildcard refspec instead of one per ref (command-line length). */
const MAX_REFSPECS = 2000;

/**
 * Runs that travel: every iteration's record is a commit under refs/agentgate/records/ (see
 * records.ts), published with one `git push`, fetched with one `git fetch` or carried in one bundle,
 * and rebuilt into the local home after checks. Nothing received is trusted.
 */
export class Sharing {
  readonly store: SnapshotStore;
  /** The runs' gate verdicts, which travel beside their records (gate-records.ts). */
  readonly gateRecords: GateRecords;

  constructor(readonly options: SharingOptions) {
    this.store = new SnapshotStore(options.home, { lockTimeoutMs: options.lockTimeoutMs });
    this.gateRecords = new GateRecords(
      { ...options, includeGateLogs: options.includeGateLogs ?? false },
      this.store,
    );
  }

  /** Publishes the selected runs' records to a remote (default `origin`). PUSH_REJECTED when the remote holds another record for an iteration. */
  async push(sel: Selection, remoteName = 'origin', cwd = process.cwd()): Promise<PushResult> {
    const repo = await this.open(sel.workspace);
    const remote = await resolveRemote(repo, remoteName, cwd);
    const { runs, refs } = await this.materialise(repo, sel);
    await this.gateRecords.materialise(repo, runs);
    const count = sel.all ? (await listRefs(repo, RECORDS_PREFIX)).length : refs.length;
    if (count === 0) return { remote: remote.name, runs, refs: 0, updated: [], upToDate: [] };
    const specs = [
      ...(sel.all
        ? [`${RECORDS_PREFIX}*:${RECORDS_PREFIX}*`]
        : runs.map((r) => `${RECORDS_PREFIX}${r}/*:${RECORDS_PREFIX}${r}/*`)),
      ...gateRefspecs(runs, sel.all === true),
    ];
    const results = await pushRefs(repo, remote.url, specs);
    const updated = results.filter((r) => r.flag === '*' || r.flag === ' ').map((r) => r.ref);
    const upToDate = results.filter((r) => r.flag === '=').map((r) => r.ref);
    let rejected = results.filter((r) => r.flag === '!');
    if (rejected.length > 0) {
      // Another push of the very same records may have won the race: that is "up to date", not a conflict.
      const [theirs, ours] = await Promise.all([
        listRemoteRefs(repo, remote.url, SHARED_PREFIX),
        listRefs(repo, SHARED_PREFIX),
      ]);
      const remoteSha = new Map(theirs.map((r) => [r.ref, r.sha]));
      const localSha = new Map(ours.map((r) => [r.ref, r.sha]));
      const same = rejected.filter(
        (r) => remoteSha.get(r.ref) !== undefined && remoteSha.get(r.ref) === localSha.get(r.ref),
      );
      upToDate.push(...same.map((r) => r.ref));
      rejected = rejected.filter((r) => !same.includes(r));
    }
    if (rejected.length > 0) {
      throw new PushRejectedError(
        `the remote already holds other records for ${rejected.length} iteration(s) (${rejected
          .slice(0, 3)
          .map((r) => r.ref)
          .join(', ')}); nothing was overwritten. Fetch them to compare, or publish under another run id`,
        {
          details: {
            remote: remote.name,
            rejected: rejected.map((r) => ({ ref: r.ref, summary: r.summary })),
            updated,
            upToDate,
          },
        },
      );
    }
    // With --all, the runs are those of every record pushed, whichever home made them.
    return {
      remote: remote.name,
      runs: sel.all ? runsOf(results.map((r) => r.ref)) : runs,
      refs: results.length,
      updated,
      upToDate,
    };
  }

  /** Fetches records from a remote (only what is new) and rebuilds them in the local home. */
  async fetch(sel: Selection, remoteName = 'origin', cwd = process.cwd()): Promise<ReceiveResult> {
    if (sel.runId !== undefined) assertSafeId(sel.runId, 'run id');
    const repo = await this.open(sel.workspace);
    const remote = await resolveRemote(repo, remoteName, cwd);
    const prefix = sel.runId === undefined ? RECORDS_PREFIX : `${RECORDS_PREFIX}${sel.runId}/`;
    const result = await this.receive(
      repo,
      async () => {
        const refs = await listRemoteRefs(repo, remote.url, prefix);
        if (sel.runId !== undefined && refs.length === 0)
          throw new RunNotFoundError(
            `${remote.name} has no records of run ${sel.runId}; "fetch" without --run takes every run it has`,
            { details: { runId: sel.runId, remote: remote.name } },
          );
        return refs;
      },
      (r, specs) => fetchRefs(r, remote.url, specs),
    );
    const gates = await this.gateRecords.receive(
      repo,
      await listRemoteRefs(
        repo,
        remote.url,
        sel.runId === undefined ? GATES_PREFIX : `${GATES_PREFIX}${sel.runId}/`,
      ),
      (specs) => fetchRefs(repo, remote.url, specs),
    );
    return { remote: remote.name, ...withGates(result, gates) };
  }

  /** Writes the selected runs' records as one bundle file (atomically). */
  async export(sel: Selection, file: string, cwd = process.cwd()): Promise<ExportResult> {
    const repo = await this.open(sel.workspace);
    const { runs } = await this.materialise(repo, sel);
    await this.gateRecords.materialise(repo, runs);
    const all = await listRefs(repo, RECORDS_PREFIX);
    const chosen = sel.all
      ? all
      : all.filter((r) => runs.some((run) => r.ref.startsWith(`${RECORDS_PREFIX}${run}/`)));
    const gates = (await listRefs(repo, GATES_PREFIX)).filter(
      (r) => sel.all || runs.some((run) => r.ref.startsWith(`${GATES_PREFIX}${run}/`)),
    );
    if (chosen.length === 0)
      throw new RunNotFoundError(
        `no run recorded here to export from ${repo.topLevel}; capture a run first, name one with --run, or take every record (fetched ones included) with --all`,
        { details: { workspace: repo.topLevel } },
      );
    const path = resolve(cwd, file);
    await replaceFileAtomic(path, (temp) =>
      createBundle(
        repo,
        temp,
        [...chosen, ...gates].map((r) => r.ref),
      ),
    );
    return { file: path, runs: runsOf(chosen.map((r) => r.ref)), refs: chosen.length + gates.length };
  }

  /** Verifies a bundle with git, takes its records in and rebuilds them. BUNDLE_INVALID (nothing changed) for a damaged or foreign file. */
  async import(workspace: string, file: string, cwd = process.cwd()): Promise<ReceiveResult> {
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
    const heads = await verifyBundle(repo, path);
    if (!(await bundlePackIntact(path)))
      throw new BundleInvalidError(
        `${path} is truncated or damaged (its pack does not match its checksum); use a whole file written by "export"`,
        { details: { file: path } },
      );
    if (!heads.some((h) => h.ref.startsWith(RECORDS_PREFIX))) {
      throw new BundleInvalidError(
        `${path} holds no agentgate records (no ${RECORDS_PREFIX} refs); use a file written by "export"`,
        { details: { file: path } },
      );
    }
    const records = heads.filter((h) => h.ref.startsWith(RECORDS_PREFIX));
    const bring = async (r: Repo, specs: string[]) => {
      try {
        await fetchRefs(r, path, specs);
      } catch (cause) {
        if (cause instanceof GitFailedError)
          throw new BundleInvalidError(
            `git could not read ${path}: ${String(cause.details.stderr ?? cause.message).slice(0, 300)}`,
            { cause, details: { file: path } },
          );
        throw cause;
      }
    };
    const result = await this.receive(repo, async () => records, bring);
    const gates = await this.gateRecords.receive(
      repo,
      heads.filter((h) => h.ref.startsWith(GATES_PREFIX)),
      (specs) => bring(repo, specs),
    );
    return { file: path, ...withGates(result, gates) };
  }

  private async open(workspace: string): Promise<Repo> {
    return openRepo(workspace, { identity: this.options.identity, timeoutMs: this.options.gitTimeoutMs });
  }

  /** The runs a selection names (records of other workspaces cannot be built here). */
  private async selectRuns(repo: Repo, sel: Selection): Promise<RunRecord[]> {
    if (sel.runId !== undefined) {
      const run = await this.store.loadRun(assertSafeId(sel.runId, 'run id'));
      if (run === null)
        throw new RunNotFoundError(
          `no run ${sel.runId} in ${this.store.home}; "runs" lists the recorded ones`,
          { details: { runId: sel.runId } },
        );
      if ((await this.runsHere(repo, [run])).length === 0) {
        throw new RunWorkspaceMismatchError(
          `run ${sel.runId} belongs to ${run.workspace}, not ${repo.topLevel}; give that workspace with -C`,
          {
            details: { runId: sel.runId, workspace: run.workspace, given: repo.topLevel },
          },
        );
      }
      return [run];
    }
    const runs = await this.runsHere(repo, (await this.store.listRuns()).runs);
    if (sel.all) return runs;
    const made = await Promise.all(runs.map((r) => this.recordedHere(r.runId)));
    return runs.filter((_, i) => made[i]);
  }

  /** Whether this machine recorded any iteration of the run (a fetched snapshot names where it was recorded). */
  private async recordedHere(runId: string): Promise<boolean> {
    const { snapshots } = await this.store.inspectRun(runId);
    return snapshots.length === 0 || snapshots.some((s) => s.recordedWorkspace === undefined);
  }

  /**
   * The runs that belong to this repository: recorded here, or (when `-C` named it) recorded in a
   * workspace that is not on this machine, a copied home, whose commits this repository holds. One
   * object check for all of them.
   */
  private async runsHere(repo: Repo, runs: readonly RunRecord[]): Promise<RunRecord[]> {
    const here = runs.filter((r) => r.workspace === repo.topLevel);
    if (this.options.localWorkspace === undefined) return here;
    const gone = await Promise.all(
      runs.map(
        async (r) =>
          r.workspace !== repo.topLevel &&
          !(await stat(r.workspace).then(
            (st) => st.isDirectory(),
            () => false,
          )),
      ),
    );
    const orphans = await Promise.all(
      runs
        .filter((_, i) => gone[i])
        .map(async (run) => ({
          run,
          shas: (await this.store.inspectRun(run.runId)).snapshots.map((sn) => sn.afterSha),
        })),
    );
    const found = new Map(
      (
        await batchCheck(
          repo,
          orphans.flatMap((o) => o.shas.map((sha) => `${sha}^{commit}`)),
        )
      ).map((f) => [f.name, f.found]),
    );
    const adopted = orphans
      .filter((o) => o.shas.length > 0 && o.shas.every((sha) => found.get(`${sha}^{commit}`) === true))
      .map((o) => o.run);
    return runs.filter((r) => here.includes(r) || adopted.includes(r));
  }

  /**
   * Makes sure every selected run's iteration has its record commit under refs/agentgate/records/:
   * an existing record whose parent is the snapshot's after commit is kept as it is (records are
   * immutable once made); a missing one is written (three hash-object processes and one ref
   * transaction for all of them).
   */
  private async materialise(repo: Repo, sel: Selection): Promise<{ runs: string[]; refs: string[] }> {
    return withRepoLock(repo, this.options.lockTimeoutMs, () => this.materialiseLocked(repo, sel));
  }

  private async materialiseLocked(repo: Repo, sel: Selection): Promise<{ runs: string[]; refs: string[] }> {
    const runs = await this.selectRuns(repo, sel);
    const existing = new Map((await listRefsWithParents(repo, RECORDS_PREFIX)).map((r) => [r.ref, r]));
    const format = await objectFormat(repo);
    const pending: Array<{ ref: string; objects: ReturnType<typeof recordObjects>; old: string | null }> = [];
    const refs: string[] = [];
    for (const run of runs) {
      const { snapshots } = await this.store.inspectRun(run.runId);
      const latest = new Map<number, Snapshot>();
      for (const s of snapshots) latest.set(s.iteration, s);
      for (const snapshot of latest.values()) {
        const ref = recordRef(run.runId, snapshot.iteration);
        refs.push(ref);
        const have = existing.get(ref);
        if (
          have &&
          have.type === 'commit' &&
          have.parents.length === 1 &&
          have.parents[0] === snapshot.afterSha
        )
          continue;
        pending.push({
          ref,
          objects: recordObjects(format, buildRecord(snapshot, run)),
          old: have?.sha ?? null,
        });
      }
    }
    if (pending.length > 0) await this.writeRecordObjects(repo, pending);
    return { runs: runs.map((r) => r.runId), refs };
  }

  private async writeRecordObjects(
    repo: Repo,
    pending: Array<{ ref: string; objects: ReturnType<typeof recordObjects>; old: string | null }>,
  ): Promise<void> {
    const dir = join(layout(this.options.home).home, 'tmp', `sharing-${randomBytes(6).toString('hex')}`);
    await mkdir(dir, { recursive: true });
    try {
      for (const type of ['blob', 'tree', 'commit'] as const) {
        const files = [];
        for (const p of pending) {
          const obj = p.objects[type];
          const path = join(dir, `${type}-${obj.id}`);
          await writeFile(path, obj.content);
          files.push({ path, id: obj.id });
        }
        await writeObjects(repo, type, dedupe(files));
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    const updates: RefUpdate[] = pending.map((p) => ({
      ref: p.ref,
      newSha: p.objects.commit.id,
      oldSha: p.old,
    }));
    try {
      await updateRefs(repo, updates, { message: 'agentgate: record' });
    } catch (error) {
      // A concurrent push in this repository wrote the same records (they are deterministic): fine.
      const now = new Map((await listRefs(repo, RECORDS_PREFIX)).map((r) => [r.ref, r.sha]));
      if (!(error instanceof ConcurrentUpdateError) || !updates.every((u) => now.get(u.ref) === u.newSha))
        throw error;
    }
  }

  /**
   * Takes records in. `list` names the source's records (one ls-remote, or the bundle's heads); only
   * those this repository does not hold already are fetched (`bring`, into refs/agentgate/incoming/),
   * so a fetch with nothing new transfers nothing. Each record is then checked and rebuilt into the
   * home, and only then moved to refs/agentgate/records/. Serialised per home; what a killed call
   * left in incoming/ is swept first.
   */
  private async receive(
    repo: Repo,
    list: () => Promise<Array<{ sha: string; ref: string }>>,
    bring: (repo: Repo, refspecs: string[]) => Promise<void>,
  ): Promise<Omit<ReceiveResult, 'remote' | 'file' | 'gates'>> {
    const lockPath = join(layout(this.options.home).locks, 'sharing.lock');
    // The repository's lock too: a fetch killed inside git leaves ref locks that its takeover clears.
    return withLock(lockPath, { timeoutMs: this.options.lockTimeoutMs, purpose: 'sharing' }, () =>
      withRepoLock(repo, this.options.lockTimeoutMs, async () => {
        await deleteRefs(repo, (await listRefs(repo, INCOMING_PREFIX)).map(toDelete));
        const source = await list();
        const local = await listRefsWithParents(repo, RECORDS_PREFIX);
        const localSha = new Map(local.map((r) => [r.ref, r.sha]));
        const refused: RefusedRecord[] = [];
        const wanted = source.filter((r) => {
          if (parseRecordRef(r.ref, RECORDS_PREFIX) !== null) return true;
          refused.push({
            ref: r.ref,
            reason: 'not a record ref name (refs/agentgate/records/<runId>/iteration-<n>)',
          });
          return false;
        });
        const toFetch = wanted.filter((r) => localSha.get(r.ref) !== r.sha);
        if (toFetch.length > 0) {
          const specs =
            toFetch.length > MAX_REFSPECS
              ? [`+${RECORDS_PREFIX}*:${INCOMING_PREFIX}*`]
              : toFetch.map((r) => `+${r.ref}:${INCOMING_PREFIX}${r.ref.slice(RECORDS_PREFIX.length)}`);
          await bring(repo, specs);
        }
        const incoming = toFetch.length > 0 ? await listRefsWithParents(repo, INCOMING_PREFIX) : [];
        const wantedRefs = new Set(wanted.map((r) => r.ref));
        // Records this repository already holds are rebuilt from its own refs (the home may be new).
        const held = local
          .filter((r) => wantedRefs.has(r.ref) && !toFetch.some((t) => t.ref === r.ref))
          .map((r) => ({ ...r, ref: `${INCOMING_PREFIX}${r.ref.slice(RECORDS_PREFIX.length)}` }));
        try {
          const result = await this.rebuild(
            repo,
            [
              ...incoming.filter((r) =>
                wantedRefs.has(`${RECORDS_PREFIX}${r.ref.slice(INCOMING_PREFIX.length)}`),
              ),
              ...held,
            ],
            local,
          );
          return { ...result, refused: [...refused, ...result.refused] };
        } finally {
          await deleteRefs(repo, incoming.map(toDelete));
        }
      }),
    );
  }

  private indexPath(): string {
    return join(layout(this.options.home).home, 'sharing', 'rebuilt.json');
  }

  /** Checks each incoming record and rebuilds what is new: snapshot, patch artifact, run link, refs. */
  private async rebuild(
    repo: Repo,
    incoming: CommitRef[],
    localRefs: CommitRef[],
  ): Promise<Omit<ReceiveResult, 'remote' | 'file' | 'gates'>> {
    const refused: RefusedRecord[] = [];
    const refuse = (ref: string, reason: string) =>
      refused.push({ ref: ref.replace(INCOMING_PREFIX, RECORDS_PREFIX), reason });
    const local = new Map(localRefs.map((r) => [r.ref, r]));
    const index = (await readJsonFile(this.indexPath(), RebuiltIndex, 'sharing index').catch(() => null)) ?? {
      records: {},
    };
    const runs = new Set<string>();
    let unchanged = 0;
    const candidates: Array<{ ref: CommitRef; runId: string; iteration: number }> = [];
    for (const ref of incoming) {
      const name = parseRecordRef(ref.ref, INCOMING_PREFIX);
      if (!name) {
        refuse(ref.ref, 'not a record ref name (refs/agentgate/records/<runId>/iteration-<n>)');
        continue;
      }
      if (ref.type !== 'commit' || ref.parents.length !== 1) {
        refuse(ref.ref, 'not a record commit (one parent: the after commit)');
        continue;
      }
      const mine = local.get(recordRef(name.runId, name.iteration));
      if (mine && mine.sha !== ref.sha) {
        refuse(ref.ref, `conflicts with this repository's record ${mine.sha}; kept the local one`);
        continue;
      }
      const known = index.records[ref.sha];
      if (mine && known !== undefined && (await exists(this.store.snapshotPath(known)))) {
        unchanged += 1;
        runs.add(name.runId);
        continue;
      }
      candidates.push({ ref, ...name });
    }
    const blobs = await batchCheck(
      repo,
      candidates.map((c) => `${c.ref.sha}:${RECORD_FILE}`),
    );
    const sizeOk = candidates.filter((c, i) => {
      const b = blobs[i];
      if (!b?.found || b.type !== 'blob') refuse(c.ref.ref, `has no ${RECORD_FILE}`);
      else if (b.size > MAX_RECORD_BYTES)
        refuse(c.ref.ref, `${RECORD_FILE} is larger than ${MAX_RECORD_BYTES} bytes`);
      else return true;
      return false;
    });
    const idOf = new Map(blobs.filter((b) => b.found).map((b) => [b.name, b.found ? b.id : '']));
    const contents = await readBlobs(repo, [
      ...new Set(sizeOk.map((c) => idOf.get(`${c.ref.sha}:${RECORD_FILE}`) as string)),
    ]);
    const accepted: Accepted[] = [];
    for (const c of sizeOk) {
      const raw = contents.get(idOf.get(`${c.ref.sha}:${RECORD_FILE}`) as string) as Buffer;
      let json: unknown;
      try {
        json = JSON.parse(raw.toString('utf8'));
      } catch {
        refuse(c.ref.ref, `${RECORD_FILE} is not JSON`);
        continue;
      }
      const parsed = RecordFile.safeParse(json);
      if (!parsed.success) {
        refuse(
          c.ref.ref,
          `${RECORD_FILE} does not match the record schema: ${parsed.error.issues
            .slice(0, 3)
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .join('; ')}`,
        );
        continue;
      }
      const rec = parsed.data;
      const s = rec.snapshot;
      const why =
        s.runId !== c.runId || s.iteration !== c.iteration
          ? `it describes run ${s.runId} iteration ${s.iteration}`
          : c.ref.parents[0] !== s.afterSha
            ? 'its parent is not the after commit it names'
            : (rec.patch === null) !== (s.beforeSha === s.afterSha)
              ? 'its patch recipe does not fit its commits'
              : rec.patch !== null &&
                  (rec.patch.file !== relativePatchFile(c.runId, c.iteration) ||
                    rec.patch.args.join(' ') !== PATCH_RECIPE_ARGS.join(' '))
                ? 'its patch recipe is not the one this version writes'
                : null;
      if (why !== null) refuse(c.ref.ref, why);
      else accepted.push({ ref: c.ref, record: rec });
    }
    const { done, kept } = await this.rebuildAccepted(repo, accepted, refuse, index);
    for (const a of [...done, ...kept]) runs.add(a.record.snapshot.runId);
    await writeJsonAtomic(this.indexPath(), index);
    return { runs: [...runs].sort(), snapshots: done.length, unchanged: unchanged + kept.length, refused };
  }

  private async rebuildAccepted(
    repo: Repo,
    accepted: Accepted[],
    refuse: (ref: string, reason: string) => void,
    index: RebuiltIndex,
  ): Promise<{ done: Accepted[]; kept: Accepted[] }> {
    if (accepted.length === 0) return { done: [], kept: [] };
    const iterationRefs = new Map((await listRefs(repo, 'refs/agentgate/runs/')).map((r) => [r.ref, r.sha]));
    const trees = await batchCheck(
      repo,
      accepted.flatMap((a) => [
        `${a.record.snapshot.beforeSha}^{tree}`,
        `${a.record.snapshot.afterSha}^{tree}`,
      ]),
    );
    const done: Accepted[] = [];
    const kept: Accepted[] = [];
    const refUpdates: RefUpdate[] = [];
    /** Per run: iteration -> snapshot id already stored here (read once per run, kept up to date). */
    const iterations = new Map<string, Map<number, string>>();
    /** The runs this call created (the first record of a run that was not here). */
    const created = new Set<string>();
    for (const [i, a] of accepted.entries()) {
      const s = a.record.snapshot;
      const [from, to] = [trees[2 * i], trees[2 * i + 1]];
      if (!from?.found || !to?.found) {
        refuse(a.ref.ref, 'its before or after commit is not in the repository');
        continue;
      }
      const stored = await this.store.load(s.id).catch(() => null);
      if (
        stored !== null &&
        (stored.runId !== s.runId || stored.iteration !== s.iteration || stored.afterSha !== s.afterSha)
      ) {
        refuse(a.ref.ref, `snapshot id ${s.id} is already used by another snapshot here`);
        continue;
      }
      const run = await this.store.loadRun(s.runId).catch(() => null);
      if (run !== null && run.workspace !== repo.topLevel) {
        refuse(a.ref.ref, `run ${s.runId} already exists here for another workspace (${run.workspace})`);
        continue;
      }
      // A run is known by when it started: the same id started elsewhere is another run, and its
      // records must not be mixed into this one.
      if (run !== null && run.createdAt !== a.record.run.createdAt) {
        refuse(
          a.ref.ref,
          `run ${s.runId} here is another run (started ${run.createdAt}, the record's run ${a.record.run.createdAt}); fetch into another home, or publish under another run id`,
        );
        continue;
      }
      if (run !== null && stored === null) {
        if (!iterations.has(s.runId))
          iterations.set(
            s.runId,
            new Map((await this.store.inspectRun(s.runId)).snapshots.map((o) => [o.iteration, o.id])),
          );
        const other = iterations.get(s.runId)?.get(s.iteration);
        if (other !== undefined && other !== s.id) {
          refuse(
            a.ref.ref,
            `iteration ${s.iteration} of run ${s.runId} is already recorded here as ${other}`,
          );
          continue;
        }
      }
      const itRef = iterationRef(s.runId, s.iteration);
      const itSha = iterationRefs.get(itRef);
      if (itSha !== undefined && itSha !== s.afterSha) {
        refuse(a.ref.ref, `${itRef} points at ${itSha}, not at the record's after commit`);
        continue;
      }
      const patch =
        a.record.patch === null ? null : patchPath(this.options.artifactsDir, s.runId, s.iteration);
      const patchThere = patch === null || (await exists(patch));
      // A record this home made itself (pushed, then fetched back) only needs its refs.
      const here = stored !== null && run !== null && run.snapshotIds.includes(s.id) && patchThere;
      if (patch !== null && (stored === null || !patchThere)) {
        const why = await this.writePatch(repo, { from: from.id, to: to.id }, patch);
        if (why !== null) {
          refuse(a.ref.ref, why);
          continue;
        }
      }
      if (run === null) created.add(s.runId);
      // A new run takes the record's start first, so that a call killed after this point leaves a
      // run that the check above still recognises as this one.
      if (run === null)
        await this.store.updateRun(s.runId, repo.topLevel, (cur) => ({
          ...cur,
          createdAt: a.record.run.createdAt,
        }));
      if (stored === null) {
        // What travelled, plus where it lives on this machine.
        const snapshot: Snapshot = {
          ...s,
          patchPath: patch,
          workspace: repo.topLevel,
          ref: itRef,
          recordedWorkspace: a.record.workspace,
        };
        await this.store.save(snapshot);
      }
      await this.store.linkSnapshot(s.runId, repo.topLevel, s.id, s.iteration);
      await this.store.updateRun(s.runId, repo.topLevel, (cur) => {
        // Only a run this call created takes a before state from a record: a run that exists here
        // may be in the middle of an iteration, whose before state is this machine's own.
        const before = created.has(s.runId) ? a.record.run.before : null;
        const later = cur.before === null || (before !== null && before.capturedAt > cur.before.capturedAt);
        const next = {
          ...cur,
          before: before !== null && later ? before : cur.before,
          ...withRestart(cur, a.record.run.restart),
          ...(a.record.workspace !== cur.workspace ? { recordedWorkspace: a.record.workspace } : {}),
        };
        return JSON.stringify(next) === JSON.stringify(cur) ? null : next;
      });
      iterations.get(s.runId)?.set(s.iteration, s.id);
      if (itSha === undefined) refUpdates.push({ ref: itRef, newSha: s.afterSha, oldSha: null });
      const rec = recordRef(s.runId, s.iteration);
      refUpdates.push({ ref: rec, newSha: a.ref.sha, oldSha: null });
      (here ? kept : done).push(a);
    }
    // Records already promoted by an earlier, interrupted call are skipped by the compare-and-swap list.
    const present = new Map((await listRefs(repo, RECORDS_PREFIX)).map((r) => [r.ref, r.sha]));
    await updateRefs(
      repo,
      refUpdates.filter((u) => present.get(u.ref) !== u.newSha),
      { message: 'agentgate: fetched record' },
    );
    for (const a of [...done, ...kept]) index.records[a.ref.sha] = a.record.snapshot.id;
    return { done, kept };
  }

  /**
   * Writes a received record's patch artifact; the reason to refuse the record instead, when its
   * path leads through a link in the workspace or the patch would pass maxPatchBytes (git is
   * stopped there, or at its timeout: one such record must not fail the whole call).
   */
  private async writePatch(
    repo: Repo,
    trees: { from: string; to: string },
    patch: string,
  ): Promise<string | null> {
    const maxBytes = this.options.maxPatchBytes ?? MAX_PATCH_BYTES;
    try {
      await assertNoLinkInside(repo.topLevel, patch);
      await writeTreeDiffToFile(repo, trees, patch, { maxBytes });
      return null;
    } catch (error) {
      if (error instanceof UnsafeWorkspaceError)
        return `its patch artifact would be written through a link: ${error.message}`;
      if (error instanceof OutputTooLargeError)
        return `its patch would be larger than ${maxBytes} bytes, the most a received record may make us write`;
      if (error instanceof GitTimeoutError)
        return `its patch could not be made within the git timeout (${error.message})`;
      throw error;
    }
  }
}

/** Everything published lives under here: records and gate verdicts. */
const SHARED_PREFIX = 'refs/agentgate/';

/** The records received, plus the gate verdicts received after them. */
function withGates(
  records: Omit<ReceiveResult, 'remote' | 'file' | 'gates'>,
  gates: GatesReceived,
): Omit<ReceiveResult, 'remote' | 'file'> {
  return {
    ...records,
    runs: [...new Set([...records.runs, ...gates.runs])].sort(),
    refused: [...records.refused, ...gates.refused],
    gates: gates.gates,
  };
}

/** A record that passed the checks, with the commit that carries it. */
type Accepted = { ref: CommitRef; record: RecordFile };

/** A ref as deleteRefs takes it: only while it is still where it was listed. */
function toDelete(r: RefEntry): { ref: string; oldSha: string } {
  return { ref: r.ref, oldSha: r.sha };
}

/** The run ids of record refs, sorted, each once. */
function runsOf(refs: readonly string[]): string[] {
  return [
    ...new Set(
      refs.map((r) => parseRecordRef(r, RECORDS_PREFIX)?.runId).filter((r): r is string => r !== undefined),
    ),
  ].sort();
}

function dedupe<T extends { id: string }>(items: T[]): T[] {
  const seen = new Set<string>();
  return items.filter((i) => (seen.has(i.id) ? false : (seen.add(i.id), true)));
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

/** The run's restarts with a travelled one added (once, in order of declaration); `{}` when nothing changes. */
function withRestart(run: RunRecord, restart: RunRestart | undefined): Pick<RunRecord, 'restarts'> {
  const known = run.restarts ?? [];
  const same = (r: RunRestart) =>
    restart !== undefined && r.at === restart.at && r.sha === restart.sha && r.from === restart.from;
  if (restart === undefined || known.some(same)) return {};
  return { restarts: [...known, restart].sort((x, y) => x.at.localeCompare(y.at)) };
}
