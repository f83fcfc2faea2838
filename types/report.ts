import * as z from './zod.js';
import { RunRecord } from './run.js';
import { IsoDate, Sha, Snapshot } from './snapshot.js';
import { ReportGates } from './report-gates.js';
import { VerifyReport } from './verify.js';

export const ReportFormat = z.enum(['html', 'md', 'json', 'dotenv']);
export type ReportFormat = z.infer<typeof ReportFormat>;

/**
 * A snapshot as the report shows it: `task` and `gate` come from the snapshot when it records
 * them, else from the commit message's `Task:` and `Gate:` lines (null when neither has them).
 */
export const ReportSnapshot = z.extend(Snapshot, {
  task: z.nullable(z.string()),
  gate: z.nullable(z.string()),
});
export type ReportSnapshot = z.infer<typeof ReportSnapshot>;

/** `report --format json`: one run, its snapshots by iteration, and their verification. */
export const RunReport = z.object({
  kind: z.literal('agentgate-run-report'),
  version: z.literal(1),
  generatedAt: IsoDate,
  run: RunRecord,
  /** The run's first before SHA and its last after SHA (null before the first iteration). */
  beforeSha: z.nullable(Sha),
  afterSha: z.nullable(Sha),
  branch: z.nullable(z.string()),
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
});
export type RunReport = z.infer<typeof RunReport>;
