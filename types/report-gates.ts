import * as z from 'zod';
import { GateVerdict, TestFailure, TestTotals } from './gate.js';
import { SafeId } from './snapshot.js';

/** One verdict as the report shows it. */
export const ReportVerdict = z.object({
  id: SafeId,
  name: SafeId,
  attempt: z.number().int().positive(),
  verdict: GateVerdict,
  observed: z.boolean(),
  reason: z.string(),
  durationMs: z.number().int().nonnegative(),
  /** Null when the gate had no JUnit file. */
  tests: TestTotals.nullable(),
  /** The failed test cases the verdict kept (at most 50). */
  failures: z.array(TestFailure),
});
export type ReportVerdict = z.infer<typeof ReportVerdict>;

/** Per gate name: its newest verdict on the last iteration it ran, and where it went red and green again. */
export const ReportGateSummary = z.object({
  name: SafeId,
  /** The iteration of `latest`: the last one this gate ran on. */
  iteration: z.number().int().nonnegative(),
  latest: ReportVerdict,
  /** The first iteration whose newest verdict of this gate was not a pass (null: never red). */
  firstRed: z.number().int().nonnegative().nullable(),
  /** The first iteration after `firstRed` whose newest verdict was a pass again (null: not yet). */
  greenAgain: z.number().int().nonnegative().nullable(),
});
export type ReportGateSummary = z.infer<typeof ReportGateSummary>;

/** The `gates` part of the run report: every verdict by iteration (oldest first), and the summary per gate. */
export const ReportGates = z.object({
  iterations: z.array(
    z.object({ iteration: z.number().int().nonnegative(), verdicts: z.array(ReportVerdict) }),
  ),
  summary: z.array(ReportGateSummary),
});
export type ReportGates = z.infer<typeof ReportGates>;
