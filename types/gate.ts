import * as z from 'zod';
import { IsoDate, SafeId, Sha } from './snapshot.js';

/** At most this many failed test cases are kept in a verdict; the counts stay exact. */
export const MAX_RECORDED_FAILURES = 50;

/** A gate's name becomes part of a file name (`gate-<name>-<attempt>.log`): a safe id. */
export const GateName = SafeId;

export const GateVerdict = z.enum(['pass', 'fail', 'error']);
export type GateVerdict = z.infer<typeof GateVerdict>;

export const TestFailure = z.object({
  suite: z.string().max(4096),
  name: z.string().max(4096),
  message: z.string().max(65_536),
});
export type TestFailure = z.infer<typeof TestFailure>;

/** What the JUnit files of one gate run say, summed over the files. */
export const TestCounts = z.object({
  total: z.number().int().nonnegative(),
  passed: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  skipped: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  failures: z.array(TestFailure).max(MAX_RECORDED_FAILURES),
});
export type TestCounts = z.infer<typeof TestCounts>;

/** The counts alone, without the failed-test details (what reports and attestations summarise). */
export const TestTotals = TestCounts.omit({ failures: true });
export type TestTotals = z.infer<typeof TestTotals>;

export const GateLog = z.object({
  /** Absolute path on the machine that prints it; for a fetched verdict without its text, null. */
  path: z.string().min(1).nullable(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().nonnegative(),
});
export type GateLog = z.infer<typeof GateLog>;

/**
 * One attempt of one gate on one iteration (CONTRACT.md, "Gate verdicts"). Append-only: stored at
 * `<home>/gates/<runId>/<id>.json` and never rewritten.
 */
export const GateResult = z.object({
  /** Unique across machines (random, like snapshot ids). */
  id: SafeId,
  runId: SafeId,
  iteration: z.number().int().nonnegative(),
  name: GateName,
  /** 1, 2, ... per iteration and name, as numbered where it was recorded. */
  attempt: z.number().int().positive(),
  /** The tree of the after commit the gate judged. */
  treeId: Sha,
  afterSha: Sha,
  /** The argv that ran; null for `gate record`. */
  command: z.array(z.string().max(1_000_000)).max(10_000).nullable(),
  /** True when agentgate ran the command itself; false for a verdict the caller reported. */
  observed: z.boolean(),
  isolated: z.boolean(),
  startedAt: IsoDate,
  durationMs: z.number().int().nonnegative(),
  exitCode: z.number().int().nullable(),
  signal: z.string().max(32).nullable(),
  timedOut: z.boolean(),
  verdict: GateVerdict,
  /** One line saying why. */
  reason: z
    .string()
    .max(1000)
    .regex(/^[^\r\n]*$/),
  tests: TestCounts.nullable(),
  log: GateLog.nullable(),
  /** The attempt this one replayed (`gate replay`), or null. */
  replayOf: z.number().int().positive().nullable(),
  /** The JUnit files as given (relative to where the command ran), so that `gate replay` reads the same ones. */
  junit: z.array(z.string().min(1).max(4096)).max(100).optional(),
  /** `--min-tests` as given, or null. */
  minTests: z.number().int().nonnegative().nullable().optional(),
  /** `--timeout` in milliseconds, or null. */
  timeoutMs: z.number().int().positive().nullable().optional(),
});
export type GateResult = z.infer<typeof GateResult>;

/** A verdict's test counts without its failed-test details (what reports and attestations summarise). */
export function testTotals(tests: TestCounts | null): TestTotals | null {
  return (
    tests && {
      total: tests.total,
      passed: tests.passed,
      failed: tests.failed,
      skipped: tests.skipped,
      errors: tests.errors,
    }
  );
}

/** `gate list` order: by `startedAt`, then `id`, so every machine agrees on "the newest verdict". */
export function compareGateResults(a: GateResult, b: GateResult): number {
  const at = Date.parse(a.startedAt) - Date.parse(b.startedAt);
  if (at !== 0) return at;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
