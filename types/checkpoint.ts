import { z } from 'zod';
import { IsoDate } from './snapshot.js';

const ObjectId = z.string().regex(/^[0-9a-f]{40}([0-9a-f]{24})?$/);

export const SkippedFile = z.object({
  path: z.string(),
  reason: z.enum(['too-large', 'nested-repository']),
  size: z.number().int().nonnegative().nullable(),
});
export type SkippedFile = z.infer<typeof SkippedFile>;

export const TrackResult = z.object({ hash: ObjectId, ref: z.string(), skipped: z.array(SkippedFile) });
export type TrackResult = z.infer<typeof TrackResult>;

/** Files changed since `hash`, as absolute paths. */
export const Patch = z.object({ hash: ObjectId, files: z.array(z.string()) });
export type Patch = z.infer<typeof Patch>;

export const FileDiff = z.object({
  file: z.string(),
  before: z.string(),
  after: z.string(),
  additions: z.number().int().nonnegative(),
  deletions: z.number().int().nonnegative(),
  status: z.enum(['added', 'modified', 'deleted']),
  binary: z.boolean(),
});
export type FileDiff = z.infer<typeof FileDiff>;

export const CheckpointEntry = z.object({
  ref: z.string(),
  hash: ObjectId,
  label: z.string().nullable(),
  createdAt: IsoDate,
});
export type CheckpointEntry = z.infer<typeof CheckpointEntry>;
