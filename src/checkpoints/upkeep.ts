import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { GcResult } from '../../types/checkpoint.js';
import { removeLockOlderThan, removeOrphanedGitLocks } from '../fs/git-locks.js';
import { PLACE_TEMP_NAME } from '../fs/place.js';
import { sweepGitTemporaries, sweepTempFiles } from '../fs/sweep.js';
import { gcCheckpointRepo, type CheckpointRepo } from '../git/checkpoint-repo.js';
import { deleteRefs, listRefRecords } from '../git/refs.js';
import { CHECKPOINT_REF_PREFIX, META_REF_PREFIX } from './message.js';
import type { StoreLocation } from './project-id.js';
import { directorySize, selectRemovals } from './retention.js';

/** Upkeep of a checkpoint store: gc with retention, and repair of what a killed process left. */

/**
 * Retention, then gc: keeps the newest `keep` checkpoint refs plus those baseline, latest and the
 * last safety checkpoint point at, deletes the other refs, runs `git gc --prune=<pruneAge>` and
 * removes any temporary pack git left behind. Reports sizes of the whole store directory.
 * The caller holds the checkpoint lock and has checked keep and pruneAge (assertRetention).
 */
export async function gcStore(
  repo: CheckpointRepo,
  location: StoreLocation,
  keep: number,
  pruneAge: string,
): Promise<GcResult> {
  const storeBytesBefore = await directorySize(location.dir);
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
  const storeBytesAfter = await directorySize(location.dir);
  return {
    kept: checkpoints.length - removals.length,
    removed: removals.length,
    pruneAge,
    storeBytesBefore,
    storeBytesAfter,
  };
}

/**
 * Run on every lock acquisition. A previous holder that died (`recovered`) left provably stale
 * files: every git lock in our private repository (only we write it), the staging directory and
 * git's temporary packs. Otherwise an index.lock older than any git call of ours is removed. In
 * both cases our own temp files whose owner is dead or that are older than TEMP_SWEEP_AGE_MS are
 * swept: atomic-write temps beside store.json, and file-placement temps in the staging directory
 * and the workspace root (see fs/place.ts).
 */
export async function repairOnAcquire(
  repo: CheckpointRepo,
  location: StoreLocation,
  recovered: boolean,
  staleIndexLockMs: number,
): Promise<void> {
  if (recovered) {
    await removeOrphanedGitLocks({ gitDir: location.gitDir, indexFile: repo.indexFile, ownerSince: 0 });
    await rm(location.tempDir, { recursive: true, force: true });
    await sweepGitTemporaries(location.gitDir);
  } else {
    await removeLockOlderThan(`${repo.indexFile}.lock`, staleIndexLockMs);
  }
  await sweepTempFiles(dirname(location.metaFile));
  await sweepTempFiles(location.tempDir, { pattern: PLACE_TEMP_NAME });
  await sweepTempFiles(repo.workTree, { pattern: PLACE_TEMP_NAME });
}
