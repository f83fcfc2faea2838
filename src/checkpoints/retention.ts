import { InvalidArgumentError } from '../errors.js';

/** git's own default for `gc.pruneExpire`. */
export const DEFAULT_PRUNE_AGE = '2.weeks.ago';

/** A git approxidate such as `now`, `never`, `2.weeks.ago`, `2025-01-31`, `1.day.ago`. */
const PRUNE_AGE = /^[A-Za-z0-9][A-Za-z0-9.:_-]{0,63}$/;

export function assertRetention(keep: number, pruneAge: string): void {
  if (!Number.isInteger(keep) || keep < 0) {
    throw new InvalidArgumentError(
      `keep must be a whole number of checkpoints (0 or more), not ${String(keep)}`,
      { details: { keep } },
    );
  }
  if (!PRUNE_AGE.test(pruneAge)) throw badPruneAge(pruneAge);
}

/** The refusal of a prune age that is not a git date (by its shape here, or by git itself). */
export function badPruneAge(pruneAge: string): InvalidArgumentError {
  return new InvalidArgumentError(
    `prune age ${JSON.stringify(pruneAge)} is not a git date such as "now", "2.weeks.ago" or "2025-01-31"`,
    { details: { pruneAge } },
  );
}

/**
 * Retention (pure): of the checkpoint refs, newest first, keep the newest `keep`, and always those
 * whose commit a marker ref (baseline, latest, last safety) points at. Returns the ones to drop.
 */
export function selectRemovals<T extends { oid: string }>(
  newestFirst: readonly T[],
  keep: number,
  protectedOids: ReadonlySet<string>,
): T[] {
  return newestFirst.slice(keep).filter((r) => !protectedOids.has(r.oid));
}
