import { join } from 'node:path';
import {
  BRANCH_NAME,
  RebuiltIndex,
  RecordFile,
  RECORD_FILE,
  type ReceiveResult,
  type RefusedRecord,
  type TravellingSnapshot,
} from '../../types/sharing.js';
import type { BeforeState } from '../../types/snapshot.js';
import { batchCheck, listRefsWithParents, readBlobs, type CommitRef } from '../git/record-objects.js';
import { parseReceivedFile, soleFileTree } from './record-objects.js';
import type { Repo } from '../git/repo.js';
import { deleteRefs, listRefs, type RefEntry } from '../git/refs.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { readJsonFile } from '../store/json-file.js';
import { withLock } from '../fs/lock.js';
import { withRepoLock } from '../git/repo-lock.js';
import { layout } from '../store/paths.js';
import {
  couldBeBeforeOf,
  INCOMING_PREFIX,
  parseRecordRef,
  PATCH_RECIPE_ARGS,
  recordRef,
  RECORDS_PREFIX,
  relativePatchFile,
} from './records.js';
import { exists, rebuildAccepted, type Accepted } from './rebuild.js';
import { incomingRefspecs, refuseUndelivered, type SharingCore } from './core.js';

const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/**
 * Takes records in. `list` names the source's records (one ls-remote, or the bundle's heads); only
 * those this repository does not hold already are fetched (`bring`, into refs/agentgate/incoming/),
 * so a fetch with nothing new transfers nothing. Each record is then checked and rebuilt into the
 * home, and only then moved to refs/agentgate/records/. Serialised per home; what a killed call
 * left in incoming/ is swept first.
 */
export async function receive(
  core: SharingCore,
  repo: Repo,
  list: () => Promise<Array<{ sha: string; ref: string }>>,
  bring: (repo: Repo, refspecs: string[]) => Promise<void>,
): Promise<Omit<ReceiveResult, 'remote' | 'file' | 'gates' | 'anchors'>> {
  const lockPath = join(layout(core.options.home).locks, 'sharing.lock');
  // The repository's lock too: a fetch killed inside git leaves ref locks that its takeover clears.
  return withLock(lockPath, { timeoutMs: core.options.lockTimeoutMs, purpose: 'sharing' }, () =>
    withRepoLock(repo, core.options.lockTimeoutMs, async () => {
      // Without its slash, the pattern also names a ref called `refs/agentgate/incoming` itself, which
      // would keep git from making any incoming ref (a plain `git fetch` of refs/agentgate/* brings it).
      await deleteRefs(repo, (await listRefs(repo, INCOMING_PREFIX.slice(0, -1))).map(toDelete));
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
      if (toFetch.length > 0)
        await bring(repo, incomingRefspecs(RECORDS_PREFIX, INCOMING_PREFIX, toFetch, refused));
      const incoming = toFetch.length > 0 ? await listRefsWithParents(repo, INCOMING_PREFIX) : [];
      refuseUndelivered(RECORDS_PREFIX, INCOMING_PREFIX, toFetch, incoming, refused);
      const wantedRefs = new Set(wanted.map((r) => r.ref));
      const held = await heldRecords(core, local, wantedRefs, new Set(toFetch.map((r) => r.ref)));
      try {
        // The repository's own records first: the source's are then judged against them.
        const result = await rebuild(
          core,
          repo,
          [
            ...held,
            ...incoming.filter((r) =>
              wantedRefs.has(`${RECORDS_PREFIX}${r.ref.slice(INCOMING_PREFIX.length)}`),
            ),
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

/**
 * The records this repository holds that are rebuilt from its own refs (the home may be new): those
 * the source has too, and every record of a run the source names that this home lacks, so that the
 * source's records of that run (another run under the same id, say) are judged against them.
 */
async function heldRecords(
  core: SharingCore,
  local: CommitRef[],
  wanted: ReadonlySet<string>,
  fetched: ReadonlySet<string>,
): Promise<CommitRef[]> {
  const runOf = (ref: string) => parseRecordRef(ref, RECORDS_PREFIX)?.runId;
  const same = (r: CommitRef) => wanted.has(r.ref) && !fetched.has(r.ref);
  const named = new Set([...wanted].map(runOf));
  const lacking = new Set<string>();
  for (const runId of new Set(local.filter((r) => !same(r)).map((r) => runOf(r.ref))))
    if (runId !== undefined && named.has(runId) && (await core.store.loadRun(runId)) === null)
      lacking.add(runId);
  return local
    .filter((r) => same(r) || lacking.has(runOf(r.ref) ?? ''))
    .map((r) => ({ ...r, ref: `${INCOMING_PREFIX}${r.ref.slice(RECORDS_PREFIX.length)}` }));
}

function indexPath(core: SharingCore): string {
  return join(layout(core.options.home).home, 'sharing', 'rebuilt.json');
}

/** Checks each incoming record and rebuilds what is new: snapshot, patch artifact, run link, refs. */
async function rebuild(
  core: SharingCore,
  repo: Repo,
  incoming: CommitRef[],
  localRefs: CommitRef[],
): Promise<Omit<ReceiveResult, 'remote' | 'file' | 'gates' | 'anchors'>> {
  const refused: RefusedRecord[] = [];
  const refuse = (ref: string, reason: string) =>
    refused.push({ ref: ref.replace(INCOMING_PREFIX, RECORDS_PREFIX), reason });
  const local = new Map(localRefs.map((r) => [r.ref, r]));
  const index = (await readJsonFile(indexPath(core), RebuiltIndex, 'sharing index').catch(() => null)) ?? {
    records: {},
  };
  const runs = new Set<string>();
  let unchanged = 0;
  const candidates: Array<{ ref: CommitRef; runId: string; iteration: number; replaces?: string }> = [];
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
    // Another record than the repository's is taken only as this home's own (rebuild.ts judges it).
    const replaces = mine && mine.sha !== ref.sha ? mine.sha : undefined;
    const known = index.records[ref.sha];
    if (mine && !replaces && known !== undefined && (await exists(core.store.snapshotPath(known)))) {
      unchanged += 1;
      runs.add(name.runId);
      continue;
    }
    candidates.push({ ref, ...name, ...(replaces === undefined ? {} : { replaces }) });
  }
  const probes = await batchCheck(
    repo,
    candidates.flatMap((c) => [`${c.ref.sha}:${RECORD_FILE}`, `${c.ref.sha}^{tree}`]),
  );
  const blobs = probes.filter((_, i) => i % 2 === 0);
  const sizeOk = candidates.filter((c, i) => {
    const [b, tree] = [probes[2 * i], probes[2 * i + 1]];
    if (!b?.found || b.type !== 'blob') refuse(c.ref.ref, `has no ${RECORD_FILE}`);
    else if (b.size > MAX_RECORD_BYTES)
      refuse(c.ref.ref, `${RECORD_FILE} is larger than ${MAX_RECORD_BYTES} bytes`);
    else if (!tree?.found || tree.id !== soleFileTree(RECORD_FILE, b.id))
      refuse(
        c.ref.ref,
        `its tree is not ${RECORD_FILE} alone, a regular file (nothing may ride along with a record)`,
      );
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
    const rec = parseReceivedFile(raw, RecordFile, RECORD_FILE, 'record', (why) => refuse(c.ref.ref, why));
    if (rec === null) continue;
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
              : rec.run.before !== null && !beforeFits(rec.run.before, s)
                ? 'its run before state does not fit its commits (a before state travels with the iteration that starts from it)'
                : null;
    if (why !== null) refuse(c.ref.ref, why);
    else
      accepted.push({
        ref: c.ref,
        record: rec,
        ...(c.replaces === undefined ? {} : { replaces: c.replaces }),
      });
  }
  const { done, kept } = await rebuildAccepted(core, repo, accepted, refuse, index);
  for (const a of [...done, ...kept]) runs.add(a.record.snapshot.runId);
  await writeJsonAtomic(indexPath(core), index);
  return { runs: [...runs].sort(), snapshots: done.length, unchanged: unchanged + kept.length, refused };
}

/**
 * A before state as buildRecord sends it: the run's own, taken where this iteration starts (its WIP
 * commit, when there is one, is that start), on a branch git could name.
 */
function beforeFits(before: BeforeState, s: TravellingSnapshot): boolean {
  return couldBeBeforeOf(before, s) && BRANCH_NAME.test(before.branch);
}

/** A ref as deleteRefs takes it: only while it is still where it was listed. */
function toDelete(r: RefEntry): { ref: string; oldSha: string } {
  return { ref: r.ref, oldSha: r.sha };
}
