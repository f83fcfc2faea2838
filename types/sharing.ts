import * as z from './zod.js';
import { deferred } from './zod.js';
import { RunRestart } from './run.js';
import { BeforeState, IsoDate, SafeId, Sha, Snapshot } from './snapshot.js';

/**
 * What travels: one record commit per iteration, under `refs/agentgate/records/<runId>/iteration-<n>`,
 * whose only parent is the iteration's after commit and whose tree holds `record.json` (this schema).
 * Everything in it is untrusted when it arrives from a remote or a bundle: it is parsed with these
 * schemas (strict: unknown keys are refused) before anything is written.
 */
export const RECORD_FORMAT = 'agentgate-record/1' as const;
export const RECORD_FILE = 'record.json';

/** The patch recipe: the exact diff-tree arguments (before tree, after tree appended) whose output has `sha256`. */
export const PatchRecipe = deferred(() =>
  z.strictObject({
    /** Relative to the artifacts directory: `<runId>/iteration-<n>/patch.diff`. */
    file: z.string().check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\/iteration-\d{1,16}\/patch\.diff$/)),
    args: z.array(z.string().check(z.regex(/^-/), z.maxLength(200))).check(z.maxLength(64)),
  }),
);
export type PatchRecipe = z.infer<typeof PatchRecipe>;

/** A git branch name never holds a control character (git check-ref-format): what a received one must be. */
// eslint-disable-next-line no-control-regex -- control characters are what we refuse
export const BRANCH_NAME = /^[^\u0000-\u001f\u007f]+$/;

/**
 * A snapshot as it travels: the stored fields that describe the iteration itself (not this
 * machine's paths or ref), every string bounded, `task` and `gate` always present.
 */
export const TravellingSnapshot = deferred(() =>
  z.strictObject({
    ...z.pick(Snapshot, {
      id: true,
      runId: true,
      beforeSha: true,
      afterSha: true,
      patchSha256: true,
      filesChanged: true,
      insertions: true,
      deletions: true,
      createdAt: true,
      files: true,
      skipped: true,
    }).shape,
    iteration: z.int().check(z.nonnegative(), z.lte(Number.MAX_SAFE_INTEGER)),
    branch: z.string().check(z.minLength(1), z.maxLength(4096), z.regex(BRANCH_NAME)),
    commitMessage: z.string().check(z.maxLength(1_000_000)),
    task: z.nullable(z.string().check(z.maxLength(10_000_000))),
    gate: z.nullable(z.string().check(z.maxLength(1_000_000))),
  }),
);
export type TravellingSnapshot = z.infer<typeof TravellingSnapshot>;

export const RecordFile = deferred(() =>
  z.strictObject({
    format: z.literal(RECORD_FORMAT),
    snapshot: TravellingSnapshot,
    /** The workspace where the run was recorded (informational: never used as a path here). */
    workspace: z.string().check(z.minLength(1), z.maxLength(4096)),
    /** Null when the iteration changed nothing (no patch). */
    patch: z.nullable(PatchRecipe),
    run: z.strictObject({
      createdAt: IsoDate,
      before: z.nullable(BeforeState),
      /** The restart this iteration started from (`before --restart-from`), so that verify accepts it elsewhere. */
      restart: z.optional(RunRestart),
    }),
  }),
);
export type RecordFile = z.infer<typeof RecordFile>;

/** `push` result. */
export const PushResult = deferred(() =>
  z.object({
    remote: z.string(),
    runs: z.array(SafeId),
    refs: z.int().check(z.nonnegative()),
    /** Refs the remote took now (created or moved forward). */
    updated: z.array(z.string()),
    /** Refs the remote already had with the same content. */
    upToDate: z.array(z.string()),
    /** Gate verdict refs pushed (refs/agentgate/gates/<runId>/<gateId>), new or already there. */
    gates: z.int().check(z.nonnegative()),
    /** The commits whose anchors were published (refs/agentgate/anchors/<commit>). */
    anchors: z.array(Sha),
    /**
     * Record refs of this home's snapshots that held another record (an edited one another home or a
     * plain git fetch took in), replaced by the home's own before publishing; only when there are some.
     */
    replaced: z.optional(z.array(z.string())),
  }),
);
export type PushResult = z.infer<typeof PushResult>;

/** A fetched or imported ref that was not taken in, and why. */
export const RefusedRecord = deferred(() => z.object({ ref: z.string(), reason: z.string() }));
export type RefusedRecord = z.infer<typeof RefusedRecord>;

/** `fetch` and `import` result (`remote` or `file` names the source). */
export const ReceiveResult = deferred(() =>
  z.object({
    remote: z.optional(z.string()),
    file: z.optional(z.string()),
    runs: z.array(SafeId),
    /** Snapshots rebuilt in the local home by this call (0 when nothing was new). */
    snapshots: z.int().check(z.nonnegative()),
    /** Records already present and unchanged. */
    unchanged: z.int().check(z.nonnegative()),
    refused: z.array(RefusedRecord),
    /** Gate verdicts stored in the local home by this call (0 when nothing was new). */
    gates: z.int().check(z.nonnegative()),
    /** The commits whose anchors were kept by this call: each recomputed the same here. */
    anchors: z.array(Sha),
  }),
);
export type ReceiveResult = z.infer<typeof ReceiveResult>;

/** `export` result. */
export const ExportResult = deferred(() =>
  z.object({
    file: z.string(),
    runs: z.array(SafeId),
    refs: z.int().check(z.nonnegative()),
    /** Gate verdict refs the bundle carries. */
    gates: z.int().check(z.nonnegative()),
    /** The commits whose anchors the bundle carries. */
    anchors: z.array(Sha),
    /**
     * Record refs of this home's snapshots that held another record (an edited one another home or a
     * plain git fetch took in), replaced by the home's own before publishing; only when there are some.
     */
    replaced: z.optional(z.array(z.string())),
  }),
);
export type ExportResult = z.infer<typeof ExportResult>;

/** `<home>/sharing/rebuilt.json`: the record commits already rebuilt into this home, and the snapshot each gave. */
export const RebuiltIndex = deferred(() => z.object({ records: z.record(Sha, SafeId) }));
export type RebuiltIndex = z.infer<typeof RebuiltIndex>;
