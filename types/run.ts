import { z } from 'zod';
import { BeforeState, IsoDate, SafeId } from './snapshot.js';

export const RunRecord = z.object({
  runId: SafeId,
  workspace: z.string().min(1),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  before: BeforeState.nullable(),
  snapshotIds: z.array(SafeId),
  /** For a run rebuilt from fetched or imported records: the workspace where it was recorded. */
  recordedWorkspace: z.string().min(1).optional(),
});
export type RunRecord = z.infer<typeof RunRecord>;
