import type { RunRecord } from '../../types/run.js';
import { RECORD_FILE, RecordFile } from '../../types/sharing.js';
import type { Snapshot } from '../../types/snapshot.js';
import { batchCheck, listRefsWithParents, readBlobs, type CommitRef } from '../git/record-objects.js';
import type { Repo } from '../git/repo.js';
import { deleteRefs, listRefs, updateRefs } from '../git/refs.js';
import { withRepoLock } from '../git/repo-lock.js';
import { fetchRefs, listRemoteRefs, type PushedRef } from '../git/transport.js';
import type { RemoteTarget } from '../git/remote.js';
import type { SharingCore } from './core.js';
import { parseReceivedFile } from './record-objects.js';
import { INCOMING_PREFIX, isRecordOf, parseRecordRef, RECORDS_PREFIX } from './records.js';

/** A record.json larger than this is no record of ours (receive.ts refuses it too). */
const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/**
 * Which of `commits` hold the record this home makes of their snapshot (isRecordOf: the very record,
 * only the run's before state may differ once the run moved on): one batch-check and one batched read
 * of their record blobs for all of them.
 */
export async function ownRecords(
  repo: Repo,
  commits: ReadonlyArray<{ ref: CommitRef; snapshot: Snapshot; run: RunRecord }>,
): Promise<Set<string>> {
  const ours = new Set<string>();
  const parented = commits.filter(
    (c) => c.ref.type === 'commit' && c.ref.parents.length === 1 && c.ref.parents[0] === c.snapshot.afterSha,
  );
  const blobs = await batchCheck(
    repo,
    parented.map((c) => `${c.ref.sha}:${RECORD_FILE}`),
  );
  const ids = blobs.map((b) => (b.found && b.type === 'blob' && b.size <= MAX_RECORD_BYTES ? b.id : null));
  const contents = await readBlobs(repo, [...new Set(ids.filter((id): id is string => id !== null))]);
  for (const [i, c] of parented.entries()) {
    const raw = ids[i] === null ? undefined : contents.get(ids[i] as string);
    const rec =
      raw === undefined ? null : parseReceivedFile(raw, RecordFile, RECORD_FILE, 'record', () => {});
    if (rec !== null && isRecordOf(c.ref.sha, rec, c.snapshot, c.run)) ours.add(c.ref.ref);
  }
  return ours;
}

/** Everything published lives under here: records, gate verdicts and anchors. */
const SHARED_PREFIX = 'refs/agentgate/';

/**
 * The refs a push had refused that are up to date after all: the remote holds what this repository
 * does (another push of the very same records won the race), or the remote's record is this home's
 * own (adoptRemoteRecords). One ls-remote; a fetch only for records held by both sides differently.
 */
export async function settleRejected(
  core: SharingCore,
  repo: Repo,
  remote: RemoteTarget,
  rejected: readonly PushedRef[],
): Promise<string[]> {
  const [theirs, ours] = await Promise.all([
    listRemoteRefs(repo, remote, SHARED_PREFIX),
    listRefs(repo, SHARED_PREFIX),
  ]);
  const remoteSha = new Map(theirs.map((r) => [r.ref, r.sha]));
  const localSha = new Map(ours.map((r) => [r.ref, r.sha]));
  const same = rejected.filter(
    (r) => remoteSha.get(r.ref) !== undefined && remoteSha.get(r.ref) === localSha.get(r.ref),
  );
  const held = rejected.flatMap((r) => {
    const sha = remoteSha.get(r.ref);
    return same.includes(r) || sha === undefined || !r.summary.startsWith('[rejected]')
      ? []
      : [{ ref: r.ref, remoteSha: sha, localSha: localSha.get(r.ref) }];
  });
  return [...same.map((r) => r.ref), ...(await adoptRemoteRecords(core, repo, remote, held))];
}

/**
 * The record refs a push had refused whose remote record is this home's own (made while the run's
 * before state was the iteration's, say, before this repository lost the ref): each is fetched into
 * refs/agentgate/incoming/ (one fetch), checked, and adopted as the local record (compare-and-swap),
 * so that the push is up to date rather than PUSH_REJECTED for ever. Returns the refs adopted.
 */
async function adoptRemoteRecords(
  core: SharingCore,
  repo: Repo,
  remote: RemoteTarget,
  rejected: ReadonlyArray<{ ref: string; remoteSha: string; localSha: string | undefined }>,
): Promise<string[]> {
  const named = rejected.filter((r) => parseRecordRef(r.ref, RECORDS_PREFIX) !== null);
  if (named.length === 0) return [];
  const incoming = (ref: string) => `${INCOMING_PREFIX}${ref.slice(RECORDS_PREFIX.length)}`;
  return withRepoLock(repo, core.options.lockTimeoutMs, async () => {
    await fetchRefs(
      repo,
      remote,
      named.map((r) => `+${r.ref}:${incoming(r.ref)}`),
    );
    const landed = new Map((await listRefsWithParents(repo, INCOMING_PREFIX)).map((r) => [r.ref, r]));
    try {
      const candidates = [];
      const runs = new Map<string, Promise<HeldRun | null>>();
      for (const r of named) {
        const got = landed.get(incoming(r.ref));
        const held = await heldSnapshot(core, r.ref, runs);
        if (got !== undefined && got.sha === r.remoteSha && held !== null)
          candidates.push({ ref: { ...got, ref: r.ref }, ...held, localSha: r.localSha });
      }
      const ours = await ownRecords(repo, candidates);
      const adopt = candidates.filter((c) => ours.has(c.ref.ref));
      await updateRefs(
        repo,
        adopt.map((c) => ({ ref: c.ref.ref, newSha: c.ref.sha, oldSha: c.localSha ?? null })),
        { message: "agentgate: the remote's record is this home's own" },
      );
      return adopt.map((c) => c.ref.ref);
    } finally {
      await deleteRefs(
        repo,
        named.flatMap((r) => {
          const got = landed.get(incoming(r.ref));
          return got === undefined ? [] : [{ ref: got.ref, oldSha: got.sha }];
        }),
      );
    }
  });
}

type HeldRun = { run: RunRecord; snapshots: Snapshot[] };

/**
 * The snapshot of a record ref's iteration this home holds (its latest), with its run; null if none.
 * Each run is read once per call (`runs`), however many of its records were refused.
 */
async function heldSnapshot(
  core: SharingCore,
  ref: string,
  runs: Map<string, Promise<HeldRun | null>>,
): Promise<{ snapshot: Snapshot; run: RunRecord } | null> {
  const name = parseRecordRef(ref, RECORDS_PREFIX);
  if (name === null) return null;
  let held = runs.get(name.runId);
  if (held === undefined) {
    held = core.store
      .loadRun(name.runId)
      .catch(() => null)
      .then(async (run) =>
        run === null ? null : { run, snapshots: await core.store.loadByRun(name.runId) },
      );
    runs.set(name.runId, held);
  }
  const got = await held;
  const snapshot = got?.snapshots.filter((s) => s.iteration === name.iteration).at(-1);
  return got === null || snapshot === undefined ? null : { snapshot, run: got.run };
}
