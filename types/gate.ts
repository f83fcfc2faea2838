import * as z from './zod.js';
import { deferred } from './zod.js';
import { DurationMs, TimeoutMs } from './duration.js';
import { IsoDate, SafeId, Sha } from './snapshot.js';

/** At most this many failed test cases are kept in a verdict; the counts stay exact. */
export const MAX_RECORDED_FAILURES = 50;

/**
 * The highest attempt number a verdict may have: far beyond any real use, yet a short number in a
 * log's name, and one that local numbering (the highest known plus one) can never push past a safe
 * integer.
 */
export const MAX_GATE_ATTEMPT = 2 ** 31 - 1;

/**
 * How much of a command and of its JUnit file names a verdict keeps. `gate` and `gate record` refuse
 * more before anything runs: a check that ran could otherwise not be recorded. No NUL byte: no
 * process takes one in an argument or a path.
 */
export const MAX_COMMAND_ARGS = 10_000;
export const MAX_COMMAND_ARG_CHARS = 1_000_000;
export const MAX_JUNIT_FILES = 100;
export const MAX_JUNIT_PATH_CHARS = 4096;
const NO_NUL = /^[^\0]*$/;

/** A gate's name becomes part of a file name (`gate-<name>-<attempt>.log`): a safe id. */
export const GateName = SafeId;

export const GateVerdict = deferred(() => z.enum(['pass', 'fail', 'error']));
export type GateVerdict = z.infer<typeof GateVerdict>;

export const TestFailure = deferred(() =>
  z.object({
    suite: z.string().check(z.maxLength(4096)),
    name: z.string().check(z.maxLength(4096)),
    message: z.string().check(z.maxLength(65_536)),
  }),
);
export type TestFailure = z.infer<typeof TestFailure>;

/** What the JUnit files of one gate run say, summed over the files. */
export const TestCounts = deferred(() =>
  z.object({
    total: z.int().check(z.nonnegative()),
    passed: z.int().check(z.nonnegative()),
    failed: z.int().check(z.nonnegative()),
    skipped: z.int().check(z.nonnegative()),
    errors: z.int().check(z.nonnegative()),
    failures: z.array(TestFailure).check(z.maxLength(MAX_RECORDED_FAILURES)),
  }),
);
export type TestCounts = z.infer<typeof TestCounts>;

/** The counts alone, without the failed-test details (what reports and attestations summarise). */
export const TestTotals = deferred(() => z.omit(TestCounts, { failures: true }));
export type TestTotals = z.infer<typeof TestTotals>;

export const GateLog = deferred(() =>
  z.object({
    /** Absolute path on the machine that prints it; for a fetched verdict without its text, null. */
    path: z.nullable(z.string().check(z.minLength(1))),
    sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
    bytes: z.int().check(z.nonnegative()),
  }),
);
export type GateLog = z.infer<typeof GateLog>;

/**
 * One attempt of one gate on one iteration (CONTRACT.md, "Gate verdicts"). Append-only: stored at
 * `<home>/gates/<runId>/<id>.json` and never rewritten.
 */
export const GateResult = deferred(() =>
  z.object({
    /** Unique across machines (random, like snapshot ids). */
    id: SafeId,
    runId: SafeId,
    iteration: z.int().check(z.nonnegative()),
    name: GateName,
    /** 1, 2, ... per iteration and name, as numbered where it was recorded. */
    attempt: z.int().check(z.positive(), z.lte(MAX_GATE_ATTEMPT)),
    /** The tree of the after commit the gate judged. */
    treeId: Sha,
    afterSha: Sha,
    /** The argv that ran; null for `gate record`. */
    command: z.nullable(
      z
        .array(z.string().check(z.maxLength(MAX_COMMAND_ARG_CHARS), z.regex(NO_NUL)))
        .check(z.maxLength(MAX_COMMAND_ARGS)),
    ),
    /** True when agentgate ran the command itself; false for a verdict the caller reported. */
    observed: z.boolean(),
    isolated: z.boolean(),
    startedAt: IsoDate,
    durationMs: DurationMs,
    exitCode: z.nullable(z.int()),
    signal: z.nullable(z.string().check(z.maxLength(32))),
    timedOut: z.boolean(),
    verdict: GateVerdict,
    /** One line saying why. */
    reason: z.string().check(z.maxLength(1000), z.regex(/^[^\r\n]*$/)),
    tests: z.nullable(TestCounts),
    log: z.nullable(GateLog),
    /** The attempt this one replayed (`gate replay`), or null. */
    replayOf: z.nullable(z.int().check(z.positive(), z.lte(MAX_GATE_ATTEMPT))),
    /** The JUnit files as given (relative to where the command ran), so that `gate replay` reads the same ones. */
    junit: z.optional(
      z
        .array(z.string().check(z.minLength(1), z.maxLength(MAX_JUNIT_PATH_CHARS), z.regex(NO_NUL)))
        .check(z.maxLength(MAX_JUNIT_FILES)),
    ),
    /** `--min-tests` as given, or null. */
    minTests: z.optional(z.nullable(z.int().check(z.nonnegative()))),
    /** `--timeout` in milliseconds, or null. */
    timeoutMs: z.optional(z.nullable(TimeoutMs)),
    /**
     * Only when true: the check, run in the workspace, left it other than the tree it judged (a
     * file written, HEAD moved), so the verdict is an `error` whatever the command said.
     */
    workspaceChanged: z.optional(z.literal(true)),
    /**
     * Only on a verdict recorded elsewhere: when this home received it (`fetch`, `import`). Never
     * travels; it bounds the verdict's place in the order (types/gate-rules.ts, `gateOrder`).
     */
    receivedAt: z.optional(IsoDate),
  }),
);
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
