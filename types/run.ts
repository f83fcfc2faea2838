import * as z from 'zod';
import { BeforeState, IsoDate, SafeId, Sha } from './snapshot.js';

/**
 * A declared restart (`before --restart-from N`): the next iteration deliberately starts from
 * iteration `from`'s after commit (0: the run's first before SHA) instead of building on
 * `lastIteration`, the run's last iteration when it was declared.
 */
export const RunRestart = z
  .object({
    from: z.number().int().nonnegative(),
    sha: Sha,
    lastIteration: z.number().int().nonnegative(),
    at: IsoDate,
  })
  .strict();
export type RunRestart = z.infer<typeof RunRestart>;

export const RunRecord = z.object({
  runId: SafeId,
  workspace: z.string().min(1),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  before: BeforeState.nullable(),
  /** The snapshot whose `after` used `before` up: a second `after` needs a new `before` (or an explicit --before). */
  beforeUsedBy: z
    .object({ snapshotId: SafeId, iteration: z.number().int().nonnegative() })
    .nullable()
    .optional(),
  snapshotIds: z.array(SafeId),
  /** Declared restarts, oldest first; absent when there were none. */
  restarts: z.array(RunRestart).optional(),
  /** For a run rebuilt from fetched or imported records: the workspace where it was recorded. */
  recordedWorkspace: z.string().min(1).optional(),
});
export type RunRecord = z.infer<typeof RunRecord>;
