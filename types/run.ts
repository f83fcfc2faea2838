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
 * A snapshot `delete` removed from its run: the capture it recorded. Its iteration may be captured
 * again; verdicts that judged this capture stay on disk (append-only) but are superseded, not forged.
 */
export const DeletedSnapshot = deferred(() =>
  z.strictObject({
    snapshotId: SafeId,
    iteration: z.int().check(z.nonnegative()),
    /** Where the capture started: the run's start when it was the run's first iteration (absent in records written before it was kept). */
    beforeSha: z.optional(Sha),
    afterSha: Sha,
    at: IsoDate,
  }),
);
export type DeletedSnapshot = z.infer<typeof DeletedSnapshot>;

/**
 * Whether `iteration` is on the line the first `count` restarts draw: each iteration builds on
 * the one before it, except the first after a restart (the latest declared after that iteration's
 * predecessor), which builds on the restart point. The line is the chain back from its end.
 */
function onLine(restarts: readonly RunRestart[], count: number, iteration: number): boolean {
  let end = Infinity;
  for (;;) {
    if (iteration > end) return false;
    const r = restarts.slice(0, count).findLast((r) => r.lastIteration < end);
    if (r === undefined || iteration > r.lastIteration) return true;
    // From 0 is the run's start, before any iteration: iteration 0 is set aside too.
    end = r.from === 0 ? -1 : r.from;
  }
}

/**
 * The declared restart that set `iteration` aside, or undefined: the iteration is on the run's
 * accepted line, the chain the last restart continues (a later restart from N brings N and the
 * iterations it builds on back). Of the restarts since which it has stayed off the line, the first.
 */
export function setAsideBy(restarts: readonly RunRestart[], iteration: number): RunRestart | undefined {
  let by: RunRestart | undefined;
  for (let count = restarts.length; count > 0 && !onLine(restarts, count, iteration); count--)
    by = restarts[count - 1];
  return by;
}

/**
 * The git index as we last wrote it: an index that no longer has this digest was written by someone
 * else since, and the cached stat data of its entries changed since `writtenAt` or not as `commit`
 * has them is not trusted (docs/security.md).
 */
export const IndexSeal = deferred(() =>
  z.strictObject({
    /** sha256 of the index's bytes (with a split index's shared files), or `absent`, or the special file's kind. */
    digest: z.string().check(z.minLength(1), z.maxLength(64)),
    /** The index file's mtime, in whole seconds since the epoch. */
    writtenAt: z.int().check(z.nonnegative()),
    /** The commit whose tree the index then held. */
    commit: Sha,
  }),
);
export type IndexSeal = z.infer<typeof IndexSeal>;

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
    /** Snapshots deleted from the run, oldest first; absent when there were none. */
    deletedSnapshots: z.optional(z.array(DeletedSnapshot)),
    /** For a run rebuilt from fetched or imported records: the workspace where it was recorded. */
    recordedWorkspace: z.optional(z.string().check(z.minLength(1))),
    /** The git index as this run's last `before` or `after` left it (src/git/index-seal.ts). */
    indexSeal: z.optional(IndexSeal),
    /**
     * An `iterate` whose after step failed once its agent had run, on the before state captured at
     * `beforeCapturedAt`: the agent's work is in the workspace, in no snapshot, and only `after` of
     * `iteration` may take it (a new before would take it in as the user's).
     */
    agentRan: z.optional(z.object({ iteration: z.int().check(z.nonnegative()), beforeCapturedAt: IsoDate })),
  }),
);
export type RunRecord = z.infer<typeof RunRecord>;
