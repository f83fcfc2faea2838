import { z } from 'zod';
import { BeforeState, IsoDate, SafeId } from './snapshot.js';

export const RunRecord = z.object({
  runId: SafeId,
  workspace: z.string().min(1),
  createdAt: IsoDate,
  updatedAt: IsoDate,
  before: BeforeState.nullable(),
  snapshotIds: z.array(SafeId),
});
export type RunRecord = z.infer<typeof RunRecord>;
