import * as z from 'zod';
import { BeforeState, IsoDate, SafeId } from './snapshot.js';

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
  /** For a run rebuilt from fetched or imported records: the workspace where it was recorded. */
  recordedWorkspace: z.string().min(1).optional(),
});
export type RunRecord = z.infer<typeof RunRecord>;
