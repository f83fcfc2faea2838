import { rm } from 'node:fs/promises';
import { readRegularText } from '../fs/regular-file.js';
import { join } from 'node:path';
import { BudgetRecord } from '../../types/checkpoint.js';
import type { Identity } from '../../types/config.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { indexBytes, type CheckpointRepo } from '../git/checkpoint-repo.js';
import type { ObjectCounts } from '../git/parsers/count-objects.js';
import type { RefRecord } from '../git/parsers/for-each-ref.js';
import type { StagedChanges } from './capture.js';
import { decodeMessage, encodeMessage, type CheckpointMeta } from './message.js';
import type { StoreLocation } from './project-id.js';
import { LOOSE_OBJECTS_LIMIT, PACKS_LIMIT } from './upkeep.js';

/**
 * When a track may leave out the budget's count (`git count-objects`, a process on every agent
 * hook event). A track that counts keeps the count in `<store>/budget.json` with the commit it
 * made; each later track that does not count writes into its own commit message (CheckpointMeta
 * `uncounted`) what the tracks since that count may have added at most: every object its capture
 * and commit can have written (a blob per staged path, a tree per directory holding one, the
 * commit), each with the disk space it can take. A track counts again when that bound could reach
 * any limit the count is for (LOOSE_OBJECTS_LIMIT, PACKS_LIMIT, `checkpoints.maxStoreBytes`), when
 * its capture staged the whole tree (no bound), or after COUNT_EVERY tracks. Every other writer
 * of objects (a capture outside a track, gc), a track that fails, and a lock taken over from a dead
 * holder remove budget.json first, so the next track counts: between a count and its use, only
 * tracks wrote objects. (An operation that fails before writing anything leaves it, and the home, as
 * they were.)
 */

/** A track counts at least once in this many: a file that grows while it is being staged is larger than its listed size. */
export const COUNT_EVERY = 20;

const BLOCK = 4096;

/**
 * What one object of `size` bytes can take on disk, at most: zlib's worst case (well under 1%)
 * plus git's header, in whole blocks, and a block more for file systems that allocate coarser.
 */
function objectBytes(size: number): number {
  return (Math.ceil((size + Math.ceil(size / 100) + 256) / BLOCK) + 1) * BLOCK;
}

/** The same for objects of `size` bytes in all (no less than the sum of objectBytes of each). */
function objectsBytes(count: number, size: number): number {
  return Math.ceil(size + size / 100) + count * (256 + 2 * BLOCK);
}

/**
 * At least the size of the commit a track writes with `meta` (its message as encodeMessage makes
 * it, without `uncounted`) by `identity`: the message, the tree line, author and committer lines,
 * and room for the `uncounted` field.
 */
export function commitBytes(meta: CheckpointMeta, identity: Identity): number {
  const person = Buffer.byteLength(`${identity.name} <${identity.email}> 99999999999 +0000`);
  return Buffer.byteLength(encodeMessage(meta)) + 2 * person + 1024;
}

export function budgetFile(location: StoreLocation): string {
  return join(location.dir, 'budget.json');
}

/** The count budget.json holds, or null (absent, torn, or by another version). */
export async function readBudget(location: StoreLocation): Promise<BudgetRecord | null> {
  try {
    const parsed = BudgetRecord.safeParse(JSON.parse((await readRegularText(budgetFile(location))) ?? ''));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Keeps a count taken by the track that made `commit` (the counts cover that commit). */
export async function saveBudget(
  location: StoreLocation,
  commit: string,
  counts: ObjectCounts,
): Promise<void> {
  await writeJsonAtomic(budgetFile(location), { countedAt: commit, counts } satisfies BudgetRecord);
}

/** Forgets the count: the next track counts. */
export async function dropBudget(location: StoreLocation): Promise<void> {
  await rm(budgetFile(location), { force: true });
}

/**
 * The `uncounted` bound for the checkpoint about to be made, when the count may be left out; null
 * when the track must count. `latest` is the latest marker's record as the track read it.
 */
export async function uncountedBound(opts: {
  budget: BudgetRecord | null;
  latest: RefRecord | undefined;
  staged: StagedChanges | undefined;
  /** The store's repository: its index is measured as it is now (write-tree has written it). */
  repo: CheckpointRepo;
  maxStoreBytes: number;
  /** At least the size of the commit object the track writes (commitBytes). */
  commitBytes: number;
}): Promise<NonNullable<CheckpointMeta['uncounted']> | null> {
  const { budget, latest, staged } = opts;
  if (budget === null || latest === undefined || staged === undefined) return null;
  // The latest checkpoint is the counted one, or a later track's that carries the bound since it.
  const before =
    latest.oid === budget.countedAt
      ? { since: budget.countedAt, events: 0, loose: 0, bytes: 0 }
      : decodeMessage(latest.body, latest.date).uncounted;
  if (before === undefined || before.since !== budget.countedAt) return null;
  // Trees are no larger than the index.
  const index = await indexBytes(opts.repo);
  if (index === null) return null;
  const bound = {
    since: budget.countedAt,
    events: before.events + 1,
    loose: before.loose + staged.paths + staged.dirs + 1,
    bytes:
      before.bytes +
      objectsBytes(staged.paths, staged.bytes) +
      staged.dirs * objectBytes(index) +
      objectBytes(opts.commitBytes),
  };
  const c = budget.counts;
  const storeBytes = c.looseBytes + bound.bytes + c.packBytes + c.garbageBytes + index;
  const withinLimits =
    bound.events < COUNT_EVERY &&
    c.packs < PACKS_LIMIT &&
    c.loose + bound.loose < LOOSE_OBJECTS_LIMIT &&
    storeBytes <= opts.maxStoreBytes;
  return withinLimits ? bound : null;
}
