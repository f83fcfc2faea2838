import * as z from './zod.js';
import { deferred } from './zod.js';
import { BeforeState, IsoDate, SafeId, Sha } from './snapshot.js';

/**
 * A declared restart (`before --restart-from N`): the next iteration deliberately starts from
 * iteration `from`'s after commit (0: the run's first before SHA) instead of building on
 * `lastIteration`, the run's last iteration when it was declared.
 */
export const RunRestart = deferred(() =>
  z.strictObject({
    from: z.int().check(z.nonnegative()),
    sha: Sha,
    lastIteration: z.int().check(z.nonnegative()),
    at: IsoDate,
  }),
);
export type RunRestart = z.infer<typeof RunRestart>;

/**
 * The declared restart that set `iteration` aside (it lies after the restart point and at or
 * before the run's last iteration when the restart was declared), or undefined: the iteration is on
 * the run's accepted line.
 */
export function setAsideBy(restarts: readonly RunRestart[], iteration: number): RunRestart | undefined {
  return restarts.find((r) => r.from < iteration && iteration <= r.lastIteration);
}

export const RunRecord = deferred(() =>
  z.object({
    runId: SafeId,
    workspace: z.string().check(z.minLength(1)),
    createdAt: IsoDate,
    updatedAt: IsoDate,
    before: z.nullable(BeforeState),
    /** The snapshot whose `after` used `before` up: a second `after` needs a new `before` (or an explicit --before). */
    beforeUsedBy: z.optional(
      z.nullable(z.object({ snapshotId: SafeId, iteration: z.int().check(z.nonnegative()) })),
    ),
    snapshotIds: z.array(SafeId),
    /** Declared restarts, oldest first; absent when there were none. */
    restarts: z.optional(z.array(RunRestart)),
    /** For a run rebuilt from fetched or imported records: the workspace where it was recorded. */
    recordedWorkspace: z.optional(z.string().check(z.minLength(1))),
  }),
);
export type RunRecord = z.infer<typeof RunRecord>;
