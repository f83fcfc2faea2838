import { rm } from 'node:fs/promises';
import { readRegularText } from '../fs/regular-file.js';
import { dirname } from 'node:path';
import {
  UpkeepRecord,
  type CheckpointEntry,
  type GcResult,
  type PruneEvent,
} from '../../types/checkpoint.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { gitsEnded, removeLockOlderThan, removeOrphanedGitLocks } from '../fs/git-locks.js';
import { IndexLockedError } from '../errors.js';
import { PLACE_TEMP_NAME } from '../fs/place.js';
import { sweepGitTemporaries, sweepTempFiles } from '../fs/sweep.js';
import {
  countObjects,
  gcCheckpointRepo,
  indexBytes,
  packLooseObjects,
  type CheckpointRepo,
} from '../git/checkpoint-repo.js';
import type { ObjectCounts } from '../git/parsers/count-objects.js';
import { deleteRefs, listRefRecords } from '../git/refs.js';
import { CHECKPOINT_REF_PREFIX, lineEntryOf, META_REF_PREFIX, plainEntry } from './message.js';
import { thinnable } from './sessions.js';
import type { StoreLocation } from './project-id.js';
import { DEFAULT_PRUNE_AGE, selectRemovals } from './retention.js';

/** Upkeep of a checkpoint store: gc with retention, and repair of what a killed process left. */

/**
 * Retention, then gc: keeps the newest `keep` checkpoint refs plus those baseline, latest and the
 * last safety checkpoint point at, deletes the other refs, runs `git gc --prune=<pruneAge>` and
 * removes any temporary pack git left behind. Reports the store's size before and after as
 * `checkpoint status` counts it (storeBytes), and records the packing in upkeep.json.
 * The caller holds the checkpoint lock and has checked keep and pruneAge (assertRetention).
 */
export async function gcStore(
  repo: CheckpointRepo,
  location: StoreLocation,
  keep: number,
  pruneAge: string,
): Promise<GcResult> {
  // One measure everywhere: the store's objects and index, as `checkpoint status` and the budget count.
  const storeBytesBefore = await storeBytes(repo, await countObjects(repo));
  const records = await listRefRecords(repo, [CHECKPOINT_REF_PREFIX, META_REF_PREFIX]);
  const checkpoints = records.filter((r) => r.ref.startsWith(CHECKPOINT_REF_PREFIX));
  const protectedOids = new Set(records.filter((r) => r.ref.startsWith(META_REF_PREFIX)).map((r) => r.oid));
  const removals = selectRemovals(checkpoints, keep, protectedOids);
  await deleteRefs(
    repo,
    removals.map((r) => ({ ref: r.ref, oldSha: r.oid })),
  );
  try {
    await gcCheckpointRepo(repo, pruneAge);
  } finally {
    await sweepGitTemporaries(location.gitDir);
  }
  await updateUpkeep(location, (u) => ({ ...u, lastPackedAt: new Date().toISOString() }));
  const storeBytesAfter = await storeBytes(repo, await countObjects(repo));
  return {
    kept: checkpoints.length - removals.length,
    removed: removals.length,
    pruneAge,
    storeBytesBefore,
    storeBytesAfter,
  };
}

/**
 * `checkpoints.keep` as checkpoints are made: drops the checkpoints `thinnable` (sessions.ts)
 * picks. Their objects go with the next gc. Returns what it dropped. The caller holds the lock.
 */
export async function thinCheckpoints(repo: CheckpointRepo, keep: number): Promise<CheckpointEntry[]> {
  const records = await listRefRecords(repo, [CHECKPOINT_REF_PREFIX, META_REF_PREFIX]);
  const protectedOids = new Set(records.filter((r) => r.ref.startsWith(META_REF_PREFIX)).map((r) => r.oid));
  const entries = records.filter((r) => r.ref.startsWith(CHECKPOINT_REF_PREFIX)).map(lineEntryOf);
  const drop = thinnable(entries, keep, protectedOids);
  if (drop.length > 0)
    await deleteRefs(
      repo,
      drop.map((r) => ({ ref: r.ref, oldSha: r.oid })),
    );
  return drop.map(plainEntry);
}

/**
 * Run on every lock acquisition. A previous holder that died (`recovered`) left provably stale
 * files, once the git processes it left running have ended (waited for up to the lock timeout,
 * then INDEX_LOCKED): every git lock in our private repository (only we write it), the staging
 * directory and git's temporary packs. Otherwise an index.lock older than any git call of ours is removed. In
 * both cases our own temp files whose owner is dead or that are older than TEMP_SWEEP_AGE_MS are
 * swept: atomic-write temps beside store.json, and file-placement temps in the staging directory
 * and the workspace root (see fs/place.ts).
 */
export async function repairOnAcquire(
  repo: CheckpointRepo,
  location: StoreLocation,
  recovered: boolean,
  staleIndexLockMs: number,
  lockTimeoutMs: number,
): Promise<void> {
  const sweeps = () => [
    sweepTempFiles(dirname(location.metaFile)),
    sweepTempFiles(location.tempDir, { pattern: PLACE_TEMP_NAME }),
    sweepTempFiles(repo.workTree, { pattern: PLACE_TEMP_NAME }),
  ];
  if (recovered) {
    // Its git children may outlive it, still writing: their locks and temporary packs go once they end.
    if (!(await gitsEnded(location.gitDir, lockTimeoutMs))) throw orphanedGitRunning(repo, lockTimeoutMs);
    await removeOrphanedGitLocks({ gitDir: location.gitDir, indexFile: repo.indexFile, ownerSince: 0 });
    await rm(location.tempDir, { recursive: true, force: true });
    await sweepGitTemporaries(location.gitDir);
    await Promise.all(sweeps());
  } else {
    // Different files and directories each: run together, as every agent hook pays for them.
    await Promise.all([removeLockOlderThan(`${repo.indexFile}.lock`, staleIndexLockMs), ...sweeps()]);
  }
}

/** A git left running by a killed call still works in the store after the wait: nothing of it is touched. */
function orphanedGitRunning(repo: CheckpointRepo, waitedMs: number): IndexLockedError {
  return new IndexLockedError(
    `a git process that a killed checkpoint call left running still works in the checkpoint store ${repo.gitDir} after ${waitedMs / 1000} s; let it finish, then retry`,
    { details: { lock: `${repo.indexFile}.lock` } },
  );
}

/**
 * Past this many loose objects, they are packed. Lower than git's `gc.auto` (6700): a loose
 * object takes a whole file-system block (4 KiB) on disk however small it is, and a checkpoint of
 * an agent's turn writes a few dozen; packing a thousand takes a fraction of a second.
 */
export const LOOSE_OBJECTS_LIMIT = 1000;
/** git's `gc.autoPackLimit`: past this many packs, they are repacked into one (with deltas across them). */
export const PACKS_LIMIT = 50;
/** Pruning goes down to this share of the budget, so that a store at its budget is not pruned (and gc'd) at every checkpoint. */
const PRUNE_TARGET = 0.8;
/** Prune events kept in upkeep.json, newest first. */
const PRUNE_HISTORY = 20;

/** The store's size as `checkpoint status` and the budget count it: objects (loose, packed, leftovers) plus the index. */
export async function storeBytes(repo: CheckpointRepo, counts: ObjectCounts): Promise<number> {
  const index = (await indexBytes(repo)) ?? 0;
  return counts.looseBytes + counts.packBytes + counts.garbageBytes + index;
}

/**
 * Automatic upkeep after a checkpoint, so that a store never needs a manual gc: loose objects
 * past LOOSE_OBJECTS_LIMIT are packed, and packs past PACKS_LIMIT repacked into one. A store above
 * `maxStoreBytes` first has its loose objects packed (each takes a whole disk block, and a pack
 * stores a file's next version as a delta): often that is enough. If not, it loses its
 * unprotected checkpoints (baseline, latest and the last safety checkpoint are kept) in
 * `pruningOrder`, a quarter of them per round, each round followed by a gc that drops their
 * objects, until it is down to PRUNE_TARGET of the budget or only protected checkpoints are left.
 * What it did goes to upkeep.json: a packing, and a prune event only when checkpoints went. The
 * caller holds the lock. `counted`: a count taken since the last object was written, or one that
 * covers those written after it (an upper bound is enough: see track); default: one taken now.
 * Returns whether it packed or pruned anything (then `counted` no longer holds).
 */
export async function keepWithinBudget(
  repo: CheckpointRepo,
  location: StoreLocation,
  maxStoreBytes: number,
  counted?: ObjectCounts,
): Promise<boolean> {
  let counts = counted ?? (await countObjects(repo));
  let packed = false;
  const pack = async (how: () => Promise<void>) => {
    await withSweep(location, how);
    packed = true;
    counts = await countObjects(repo);
  };
  if (counts.packs >= PACKS_LIMIT) await pack(() => gcCheckpointRepo(repo, DEFAULT_PRUNE_AGE));
  else if (counts.loose >= LOOSE_OBJECTS_LIMIT) await pack(() => packLooseObjects(repo));
  const before = await storeBytes(repo, counts);
  let after = before;
  let removed: PruneEvent['removed'] = [];
  if (after > maxStoreBytes) {
    const prunable = (await pruningTiersOf(repo)).some((tier) => tier.length > 0);
    // Packing first may be enough. A full gc also deltas across packs and drops unreachable
    // objects: worth its cost only when checkpoints would go otherwise.
    if (counts.loose > 0 || (prunable && counts.packs > 1)) {
      await pack(() => (prunable ? gcCheckpointRepo(repo, 'now') : packLooseObjects(repo)));
      after = await storeBytes(repo, counts);
    }
    if (after > maxStoreBytes && prunable)
      ({ removed, after } = await pruneToBudget(repo, location, maxStoreBytes, after));
  }
  const pruned = removed.length > 0;
  if (!packed && !pruned) return false;
  const at = new Date().toISOString();
  const event: PruneEvent = { at, removed, storeBytesBefore: before, storeBytesAfter: after };
  await updateUpkeep(location, (u) => ({
    lastPackedAt: at,
    pruned: pruned ? [event, ...u.pruned].slice(0, PRUNE_HISTORY) : u.pruned,
  }));
  return true;
}

/**
 * Drops unprotected checkpoints, a quarter of them per round (from the first tier of
 * pruningTiers that has any), each round followed by `gc --prune=now`, until the store (`size`
 * now) is down to PRUNE_TARGET of the budget or none is left to drop. Returns what went and the
 * size after.
 */
async function pruneToBudget(
  repo: CheckpointRepo,
  location: StoreLocation,
  maxStoreBytes: number,
  size: number,
): Promise<{ removed: PruneEvent['removed']; after: number }> {
  const removed: PruneEvent['removed'] = [];
  let after = size;
  while (after > maxStoreBytes * PRUNE_TARGET) {
    const tiers = await pruningTiersOf(repo);
    const candidates = tiers.flat();
    if (candidates.length === 0) break;
    // A quarter of them, all from the first tier that has any: a prompt goes only when no tool checkpoint is left.
    const drop = (tiers.find((t) => t.length > 0) ?? []).slice(0, Math.ceil(candidates.length / 4));
    await deleteRefs(
      repo,
      drop.map((r) => ({ ref: r.ref, oldSha: r.oid })),
    );
    removed.push(...drop.map(plainEntry));
    await withSweep(location, () => gcCheckpointRepo(repo, 'now'));
    after = await storeBytes(repo, await countObjects(repo));
  }
  return { removed, after };
}

/** The store's checkpoints in the tiers the budget drops them by (pruningTiers). */
async function pruningTiersOf(repo: CheckpointRepo) {
  const records = await listRefRecords(repo, [CHECKPOINT_REF_PREFIX, META_REF_PREFIX]);
  const protectedOids = new Set(records.filter((r) => r.ref.startsWith(META_REF_PREFIX)).map((r) => r.oid));
  const line = records.filter((r) => r.ref.startsWith(CHECKPOINT_REF_PREFIX)).map(lineEntryOf);
  return pruningTiers(line, protectedOids);
}

/** What automatic upkeep recorded; an absent or unreadable file is an empty record. */
export async function readUpkeep(location: StoreLocation): Promise<UpkeepRecord> {
  try {
    const parsed = UpkeepRecord.safeParse(JSON.parse((await readRegularText(location.upkeepFile)) ?? ''));
    if (parsed.success) return parsed.data;
  } catch {
    // Absent or torn by hand: upkeep starts a new record.
  }
  return { lastPackedAt: null, pruned: [] };
}

async function updateUpkeep(
  location: StoreLocation,
  change: (u: UpkeepRecord) => UpkeepRecord,
): Promise<void> {
  await writeJsonAtomic(location.upkeepFile, change(await readUpkeep(location)));
}

async function withSweep(location: StoreLocation, fn: () => Promise<void>): Promise<void> {
  try {
    await fn();
  } finally {
    await sweepGitTemporaries(location.gitDir);
  }
}

/**
 * The unprotected checkpoints in the tiers the budget drops them by, oldest first in each: those
 * `thinnable` drops anyway (the next one covers their change), then the others, then sessions'
 * baselines and prompt checkpoints.
 */
function pruningTiers<T extends CheckpointEntry & { oid: string }>(
  newestFirst: readonly T[],
  protectedOids: ReadonlySet<string>,
): [T[], T[], T[]] {
  const covered = new Set(thinnable(newestFirst, 0, protectedOids));
  const tiers: [T[], T[], T[]] = [[], [], []];
  for (const e of [...newestFirst].reverse()) {
    if (protectedOids.has(e.oid)) continue;
    tiers[covered.has(e) ? 0 : e.role === 'baseline' || e.role === 'prompt' ? 2 : 1].push(e);
  }
  return tiers;
}
