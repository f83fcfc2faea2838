import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { ExportResult, PushResult, ReceiveResult } from '../../types/sharing.js';
import { BundleInvalidError, GitFailedError, PushRejectedError, RunNotFoundError } from '../errors.js';
import { openRepo, type Repo } from '../git/repo.js';
import { listRefs } from '../git/refs.js';
import {
  createBundle,
  fetchRefs,
  listRemoteRefs,
  pushRefs,
  resolveRemote,
  verifyBundle,
} from '../git/transport.js';
import { replaceFileAtomic } from '../fs/atomic.js';
import { bundlePackIntact } from '../git/bundle-pack.js';
import { assertSafeId } from '../store/paths.js';
import { SnapshotStore } from '../store/snapshot-store.js';
import { parseRecordRef, RECORDS_PREFIX } from './records.js';
import { GateRecords, gateRefspecs, GATES_PREFIX, type GatesReceived } from './gate-records.js';
import type { Selection, SharingCore, SharingOptions } from './core.js';
import { materialise } from './publish.js';
import { receive } from './receive.js';

export { MAX_PATCH_BYTES } from './core.js';
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
    const { runs, refs } = await materialise(this, repo, sel);
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
    const result = await receive(
      this,
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
    const { runs } = await materialise(this, repo, sel);
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
    const result = await receive(this, repo, async () => records, bring);
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

/** The run ids of record refs, sorted, each once. */
function runsOf(refs: readonly string[]): string[] {
  return [
    ...new Set(
      refs.map((r) => parseRecordRef(r, RECORDS_PREFIX)?.runId).filter((r): r is string => r !== undefined),
    ),
  ].sort();
}
