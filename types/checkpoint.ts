import * as z from 'zod';
import { IsoDate, Sha as ObjectId } from './snapshot.js';

export const SkippedFile = z.object({
  path: z.string(),
  /** `unreadable`: a FIFO, socket, device or a file that cannot be read; git cannot stage it. */
  reason: z.enum(['too-large', 'nested-repository', 'unreadable']),
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
  /** `safety`: taken automatically just before a restore or revert, so that it can be undone. */
  kind: z.enum(['track', 'safety']).optional(),
});
export type CheckpointEntry = z.infer<typeof CheckpointEntry>;

/** `restore`: the tree restored, the safety checkpoint taken first, and paths deliberately left alone. */
export const RestoreResult = z.object({
  hash: ObjectId,
  safety: ObjectId,
  safetyRef: z.string(),
  /** Absolute paths the checkpoint knows but that were not touched (ignored, skipped, or in the way). */
  leftAlone: z.array(z.string()),
});
export type RestoreResult = z.infer<typeof RestoreResult>;

/** `revert`: absolute paths put back and deleted, and the safety checkpoint that undoes it. */
export const RevertResult = z.object({
  reverted: z.array(z.string()),
  deleted: z.array(z.string()),
  safety: ObjectId,
  safetyRef: z.string(),
  leftAlone: z.array(z.string()),
});
export type RevertResult = z.infer<typeof RevertResult>;

/** `checkpoint gc`: retention of checkpoint refs, then git gc. */
export const GcResult = z.object({
  kept: z.number().int().nonnegative(),
  removed: z.number().int().nonnegative(),
  pruneAge: z.string(),
  storeBytesBefore: z.number().int().nonnegative(),
  storeBytesAfter: z.number().int().nonnegative(),
});
export type GcResult = z.infer<typeof GcResult>;
/** The earlier name of GcResult. */
export const CleanupResult = GcResult;
export type CleanupResult = GcResult;
