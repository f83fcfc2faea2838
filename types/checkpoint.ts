import * as z from './zod.js';
import { deferred } from './zod.js';
import { IsoDate, Sha as ObjectId } from './snapshot.js';

export const SkippedFile = deferred(() =>
  z.object({
    path: z.string(),
    /** `unreadable`: a FIFO, socket, device or a file that cannot be read; git cannot stage it. */
    reason: z.enum(['too-large', 'nested-repository', 'unreadable']),
    size: z.nullable(z.int().check(z.nonnegative())),
  }),
);
export type SkippedFile = z.infer<typeof SkippedFile>;

export const TrackResult = deferred(() =>
  z.object({ hash: ObjectId, ref: z.string(), skipped: z.array(SkippedFile) }),
);
export type TrackResult = z.infer<typeof TrackResult>;

/** Files changed since `hash`, as absolute paths. */
export const Patch = deferred(() => z.object({ hash: ObjectId, files: z.array(z.string()) }));
export type Patch = z.infer<typeof Patch>;

export const FileDiff = deferred(() =>
  z.object({
    file: z.string(),
    before: z.string(),
    after: z.string(),
    additions: z.int().check(z.nonnegative()),
    deletions: z.int().check(z.nonnegative()),
    status: z.enum(['added', 'modified', 'deleted']),
    binary: z.boolean(),
  }),
);
export type FileDiff = z.infer<typeof FileDiff>;

/**
 * What a session's checkpoint is: `baseline` (the session started or resumed), `prompt` (just
 * before a prompt), `change` (after a tool or a turn: what changed since the checkpoint before it
 * is the session's), `restore` (after `restore --prompt N` of the session: what it wrote is the session's).
 */
export const CheckpointRole = deferred(() => z.enum(['baseline', 'prompt', 'change', 'restore']));
export type CheckpointRole = z.infer<typeof CheckpointRole>;

export const CheckpointEntry = deferred(() =>
  z.object({
    ref: z.string(),
    hash: ObjectId,
    label: z.nullable(z.string()),
    createdAt: IsoDate,
    /** `safety`: taken automatically just before a restore or revert, so that it can be undone. */
    kind: z.optional(z.enum(['track', 'safety'])),
    /** Checkpoints taken by agent hooks: the agent's session id and the hook event (`UserPromptSubmit`, `turn.start`, ...). */
    session: z.optional(z.string()),
    event: z.optional(z.string()),
    /** Only on the checkpoint taken just before the N-th prompt of its session: N. */
    prompt: z.optional(z.int().check(z.positive())),
    /** A session's checkpoints (absent on those made before roles were recorded): see CheckpointRole. */
    role: z.optional(CheckpointRole),
  }),
);
export type CheckpointEntry = z.infer<typeof CheckpointEntry>;

/**
 * `checkpoint restore --prompt N --session ID`: the session's files as they were before its prompt
 * N. Paths are absolute; `conflicts` are files another session or a person changed after the
 * session last did (left alone unless `forced`). A dry run changes nothing and has no safety checkpoint.
 */
export const SessionRestoreResult = deferred(() =>
  z.object({
    hash: ObjectId,
    session: z.string(),
    prompt: z.int().check(z.positive()),
    dryRun: z.boolean(),
    forced: z.boolean(),
    restored: z.array(z.string()),
    deleted: z.array(z.string()),
    conflicts: z.array(z.string()),
    safety: z.nullable(ObjectId),
    safetyRef: z.nullable(z.string()),
    leftAlone: z.array(z.string()),
  }),
);
export type SessionRestoreResult = z.infer<typeof SessionRestoreResult>;

/** `restore`: the tree restored, the safety checkpoint taken first, and paths deliberately left alone. */
export const RestoreResult = deferred(() =>
  z.object({
    hash: ObjectId,
    safety: ObjectId,
    safetyRef: z.string(),
    /** Absolute paths the checkpoint knows but that were not touched (ignored, skipped, or in the way). */
    leftAlone: z.array(z.string()),
  }),
);
export type RestoreResult = z.infer<typeof RestoreResult>;

/** `revert`: absolute paths put back and deleted, and the safety checkpoint that undoes it. */
export const RevertResult = deferred(() =>
  z.object({
    reverted: z.array(z.string()),
    deleted: z.array(z.string()),
    safety: ObjectId,
    safetyRef: z.string(),
    leftAlone: z.array(z.string()),
  }),
);
export type RevertResult = z.infer<typeof RevertResult>;

/** `checkpoint gc`: retention of checkpoint refs, then git gc. */
export const GcResult = deferred(() =>
  z.object({
    kept: z.int().check(z.nonnegative()),
    removed: z.int().check(z.nonnegative()),
    pruneAge: z.string(),
    storeBytesBefore: z.int().check(z.nonnegative()),
    storeBytesAfter: z.int().check(z.nonnegative()),
  }),
);
export type GcResult = z.infer<typeof GcResult>;
/** The earlier name of GcResult. */
export const CleanupResult = GcResult;
export type CleanupResult = GcResult;

/** One round of keeping a store under its budget: the checkpoints it removed, and the store's size around it. */
export const PruneEvent = deferred(() =>
  z.object({
    at: IsoDate,
    removed: z.array(CheckpointEntry),
    storeBytesBefore: z.int().check(z.nonnegative()),
    storeBytesAfter: z.int().check(z.nonnegative()),
  }),
);
export type PruneEvent = z.infer<typeof PruneEvent>;

/** `<store>/upkeep.json`: what automatic upkeep did last (newest prune first, a bounded list). */
export const UpkeepRecord = deferred(() =>
  z.object({
    lastPackedAt: z.nullable(IsoDate),
    pruned: z.array(PruneEvent),
  }),
);
export type UpkeepRecord = z.infer<typeof UpkeepRecord>;

/**
 * A checkpoint store's `store.json`: the work tree it belongs to, and that directory's identity
 * (`<device>:<inode>:<birth time in ns>`, null where it could not be read; absent in stores made
 * before it was recorded), by which a moved workspace finds its store (src/checkpoints/moved-store.ts).
 * Other keys are kept as they are.
 */
export const StoreMeta = deferred(() =>
  z.looseObject({
    workspace: z.string(),
    projectId: z.optional(z.string()),
    createdAt: z.optional(z.string()),
    workspaceId: z.optional(z.nullable(z.string())),
  }),
);
export type StoreMeta = z.infer<typeof StoreMeta>;

/** `git count-objects -v` as src/git/parsers/count-objects.ts reads it; sizes in bytes. */
const ObjectCountsRecord = deferred(() =>
  z.object({
    loose: z.int().check(z.nonnegative()),
    looseBytes: z.int().check(z.nonnegative()),
    packs: z.int().check(z.nonnegative()),
    packBytes: z.int().check(z.nonnegative()),
    garbageBytes: z.int().check(z.nonnegative()),
  }),
);

/**
 * `<store>/budget.json`: the objects the store held (an upper bound) once the checkpoint `countedAt`
 * (a commit id) was made, counted by its track; valid only until an operation other than a track
 * takes the store lock (src/checkpoints/budget-count.ts).
 */
export const BudgetRecord = deferred(() =>
  z.object({
    countedAt: z.string().check(z.regex(/^[0-9a-f]{40,64}$/)),
    counts: ObjectCountsRecord,
  }),
);
export type BudgetRecord = z.infer<typeof BudgetRecord>;

/** One entry's identity (src/fs/stamps.ts) when a cached answer was derived from it. */
const StampRecord = deferred(() => z.object({ path: z.string(), sig: z.string() }));

/**
 * `<store>/probe.json`: what git said about the workspace (the probe) and the user's
 * `core.excludesFile` setting, each with the stamps of the entries that decide it (probe-cache.ts).
 */
export const ProbeCacheRecord = deferred(() =>
  z.object({
    workspace: z.string(),
    probe: z.optional(
      z.object({
        root: z.string(),
        isRepository: z.boolean(),
        excludesFile: z.nullable(z.string()),
        stamps: z.array(StampRecord),
      }),
    ),
    userExcludes: z.optional(z.object({ configured: z.nullable(z.string()), stamps: z.array(StampRecord) })),
  }),
);
export type ProbeCacheRecord = z.infer<typeof ProbeCacheRecord>;

/**
 * `<store>/tracked-ignored.json`: the files the workspace's repository tracks although its ignore
 * rules match them, with the checksum that ends its index (hex), which changes with what it tracks
 * (tracked-ignored.ts).
 */
export const TrackedIgnoredRecord = deferred(() =>
  z.object({ workspace: z.string(), index: z.string(), paths: z.array(z.string()) }),
);
export type TrackedIgnoredRecord = z.infer<typeof TrackedIgnoredRecord>;

/** `checkpoint status`: the store's size against its budget, and what automatic upkeep did. */
export const StoreStatus = deferred(() =>
  z.object({
    workspace: z.string(),
    /** Object store (loose, packed, leftovers) plus the index; `checkpoints.maxStoreBytes` bounds it. */
    storeBytes: z.int().check(z.nonnegative()),
    budgetBytes: z.int().check(z.positive()),
    checkpoints: z.int().check(z.nonnegative()),
    looseObjects: z.int().check(z.nonnegative()),
    packs: z.int().check(z.nonnegative()),
    lastPackedAt: z.nullable(IsoDate),
    pruned: z.array(PruneEvent),
  }),
);
export type StoreStatus = z.infer<typeof StoreStatus>;
