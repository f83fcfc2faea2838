import * as z from './zod.js';
import { deferred } from './zod.js';
import { DurationMs } from './duration.js';
import { GateVerdict, TestFailure, TestTotals } from './gate.js';
import { SafeId } from './snapshot.js';

/** One verdict as the report shows it. */
export const ReportVerdict = deferred(() =>
  z.object({
    id: SafeId,
    name: SafeId,
    attempt: z.int().check(z.positive()),
    verdict: GateVerdict,
    observed: z.boolean(),
    reason: z.string(),
    durationMs: DurationMs,
    /** Null when the gate had no JUnit file. */
    tests: z.nullable(TestTotals),
    /** The failed test cases the verdict kept (at most 50). */
    failures: z.array(TestFailure),
  }),
);
export type ReportVerdict = z.infer<typeof ReportVerdict>;

/** Per gate name: its newest verdict on the last iteration it ran, and where it went red and green again. */
export const ReportGateSummary = deferred(() =>
  z.object({
    name: SafeId,
    /** The iteration of `latest`: the last one this gate ran on. */
    iteration: z.int().check(z.nonnegative()),
    latest: ReportVerdict,
    /** The first iteration whose newest verdict of this gate was not a pass (null: never red). */
    firstRed: z.nullable(z.int().check(z.nonnegative())),
    /** The first iteration after `firstRed` whose newest verdict was a pass again (null: not yet). */
    greenAgain: z.nullable(z.int().check(z.nonnegative())),
  }),
);
export type ReportGateSummary = z.infer<typeof ReportGateSummary>;

/** The `gates` part of the run report: every verdict by iteration (oldest first), and the summary per gate. */
export const ReportGates = deferred(() =>
  z.object({
    iterations: z.array(
      z.object({ iteration: z.int().check(z.nonnegative()), verdicts: z.array(ReportVerdict) }),
    ),
    summary: z.array(ReportGateSummary),
  }),
);
export type ReportGates = z.infer<typeof ReportGates>;
