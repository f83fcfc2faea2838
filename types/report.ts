import * as z from './zod.js';
import { deferred } from './zod.js';
import { RunRecord } from './run.js';
import { IsoDate, SafeId, Sha, Snapshot } from './snapshot.js';
import { GateVerdict } from './gate.js';
import { ReportGates } from './report-gates.js';
import { VerifyReport } from './verify.js';

export { ReportFormat } from './report-format.js';

/**
 * A snapshot as the report shows it: `task` and `gate` come from the snapshot when it records
 * them, else from the commit message's `Task:` and `Gate:` lines (null when neither has them).
 */
export const ReportSnapshot = deferred(() =>
  z.extend(Snapshot, {
    task: z.nullable(z.string()),
    gate: z.nullable(z.string()),
    /** Set when a declared restart set this iteration aside: the restart point and when it was declared. */
    setAside: z.optional(
      z.nullable(z.object({ restartFrom: z.int().check(z.nonnegative()), declaredAt: IsoDate })),
    ),
    /** The newest verdict of each gate on this iteration (in the one order), by gate name. */
    verdicts: z.optional(
      z.array(z.object({ name: SafeId, verdict: GateVerdict, attempt: z.int().check(z.positive()) })),
    ),
  }),
);
export type ReportSnapshot = z.infer<typeof ReportSnapshot>;

/** `report --format json`: one run, its snapshots by iteration, and their verification. */
export const RunReport = deferred(() =>
  z.object({
    kind: z.literal('agentgate-run-report'),
    version: z.literal(1),
    generatedAt: IsoDate,
    run: RunRecord,
    /** The run's first before SHA and its last after SHA (null before the first iteration). */
    beforeSha: z.nullable(Sha),
    afterSha: z.nullable(Sha),
    branch: z.nullable(z.string()),
    /** The run's artifacts directory on this machine (its patches and gate logs), as the settings in use resolve it. */
    artifactsPath: z.string(),
    totals: z.object({
      iterations: z.int().check(z.nonnegative()),
      filesChanged: z.int().check(z.nonnegative()),
      insertions: z.int().check(z.nonnegative()),
      deletions: z.int().check(z.nonnegative()),
    }),
    snapshots: z.array(ReportSnapshot),
    verification: VerifyReport,
    /** The run's gate verdicts (absent only in reports made before gates existed). */
    gates: z.optional(ReportGates),
  }),
);
export type RunReport = z.infer<typeof RunReport>;
