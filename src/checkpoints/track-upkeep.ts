import { looseObjectBytes, type CheckpointRepo } from '../git/checkpoint-repo.js';
import type { ObjectCounts } from '../git/parsers/count-objects.js';
import { dropBudget, saveBudget } from './budget-count.js';
import type { StoreLocation } from './project-id.js';
import { damageBehind, setAside } from './recovery.js';
import { keepWithinBudget, thinCheckpoints } from './upkeep.js';

/**
 * After a track: thinning (once per prompt, `thin`, not after every tool: it bounds the count at no
 * cost to a tool's hook, and deletes refs only, so the count still holds), then the store's budget
 * from `counting` (null: the commit carries its bound). A broken checkpoint ref shows first here
 * when the track read only the markers: set aside, and upkeep runs again (recovery.ts). Returns the
 * error upkeep still met (the checkpoint stands; the next track counts afresh), else undefined.
 */
export async function upkeepAfterTrack(
  store: {
    repo: CheckpointRepo;
    location: StoreLocation;
    keep: number;
    maxStoreBytes: number;
    noteRecovered(done: string): void;
  },
  thin: boolean,
  counting: Promise<ObjectCounts> | null,
  commit: string,
): Promise<unknown> {
  const upkeep = async () => {
    if (thin) await thinCheckpoints(store.repo, store.keep);
    if (counting === null) return;
    const [counts, commitBytes] = await Promise.all([counting, looseObjectBytes(store.repo, commit)]);
    const withCommit = { ...counts, loose: counts.loose + 1, looseBytes: counts.looseBytes + commitBytes };
    // A count that upkeep made stale (it packed or pruned) is not kept: the next track counts.
    if (await keepWithinBudget(store.repo, store.location, store.maxStoreBytes, withCommit))
      await dropBudget(store.location);
    else await saveBudget(store.location, commit, withCommit);
  };
  return upkeep()
    .catch(async (error: unknown) => {
      const damage = await damageBehind(store.repo, store.location, error);
      if (damage === null) throw error;
      store.noteRecovered(await setAside(store.location, damage));
      return upkeep();
    })
    .then(
      () => undefined,
      async (error: unknown) => {
        await dropBudget(store.location).catch(() => undefined);
        return error;
      },
    );
}
