import * as z from './zod.js';
import { deferred } from './zod.js';
import { AnchorCoverage, AnchorMethod, AnchorRun, TraceGate, TreeMatch } from './anchor.js';
import { FileStatus, IsoDate, SafeId, Sha } from './snapshot.js';

const Count = deferred(() => z.int().check(z.nonnegative()));

/** `report --anchor REV`: an anchor for people (html, md) and machines (json). */
export const AnchorReportOrigin = deferred(() =>
  z.object({
    runId: SafeId,
    iteration: Count,
    lines: Count,
    /** The newest verdict of each gate on that iteration (none for iteration 0, the WIP before commit). */
    gates: z.array(TraceGate),
  }),
);
export type AnchorReportOrigin = z.infer<typeof AnchorReportOrigin>;

export const LineSpan = deferred(() =>
  z.object({ start: z.int().check(z.positive()), end: z.int().check(z.positive()) }),
);
export type LineSpan = z.infer<typeof LineSpan>;

export const AnchorReportFile = deferred(() =>
  z.object({
    path: z.string(),
    oldPath: z.nullable(z.string()),
    status: FileStatus,
    method: AnchorMethod,
    linesAdded: Count,
    linesFromRuns: Count,
    origins: z.array(AnchorReportOrigin),
    /** The lines (at the commit) that the commit's change brought and no recorded iteration wrote; null when not listed (past the report's limit). */
    notFromRuns: z.nullable(z.array(LineSpan)),
  }),
);
export type AnchorReportFile = z.infer<typeof AnchorReportFile>;

export const AnchorReport = deferred(() =>
  z.object({
    kind: z.literal('anchor'),
    generatedAt: IsoDate,
    commit: Sha,
    tree: Sha,
    parents: z.array(Sha),
    treeMatch: z.nullable(TreeMatch),
    runs: z.array(AnchorRun),
    coverage: AnchorCoverage,
    /** How the recorded anchor compares with the one computed now: same, differs, or none recorded. */
    recorded: z.enum(['same', 'differs', 'none']),
    files: z.array(AnchorReportFile),
    /** Files whose lines not from runs were not listed (the report lists them for at most MAX_LISTED files). */
    unlisted: Count,
  }),
);
export type AnchorReport = z.infer<typeof AnchorReport>;
