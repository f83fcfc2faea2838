import * as z from './zod.js';
import { deferred } from './zod.js';
import { DurationMs } from './duration.js';
import { GateVerdict, TestTotals } from './gate.js';
import { SafeId, Sha } from './snapshot.js';

/**
 * `attest`: an in-toto Statement v1 whose predicate is the in-toto Test Result predicate v0.1
 * (https://github.com/in-toto/attestation/blob/main/spec/predicates/test-result.md), built from a
 * run's gate verdicts. Read back by `verify --attestation`, where the file is untrusted: every
 * string is bounded, and every object is strict (an unknown field fails the statement check), since
 * verify vouches for exactly what `attest` writes and a field it dropped unseen would be vouched
 * for too. Only a subject's digest set is read whole, for verify to name what it cannot confirm.
 */
export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1' as const;
export const TEST_RESULT_PREDICATE_TYPE = 'https://in-toto.io/attestation/test-result/v0.1' as const;

const Name = deferred(() => z.string().check(z.minLength(1), z.maxLength(4096)));

/**
 * A subject: a patch artifact (`sha256`), an after commit or the commit of `attest --commit`
 * (`gitCommit`). Its digest set is read whole (other algorithms are kept, not stripped): a consumer
 * matches an artifact by any digest in it, so `verify --attestation` fails one it cannot confirm.
 */
export const Subject = deferred(() =>
  z.strictObject({
    name: Name,
    digest: z.union([
      z.looseObject({ sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)) }),
      z.looseObject({ gitCommit: Sha }),
    ]),
  }),
);
export type Subject = z.infer<typeof Subject>;

/** What one configuration entry says about the verdict it stands for. */
export const GateAnnotations = deferred(() =>
  z.strictObject({
    runId: SafeId,
    iteration: z.int().check(z.nonnegative()),
    gate: SafeId,
    gateId: SafeId,
    attempt: z.int().check(z.positive()),
    verdict: GateVerdict,
    observed: z.boolean(),
    afterSha: Sha,
    command: z.nullable(z.array(z.string().check(z.maxLength(1_000_000))).check(z.maxLength(10_000))),
    exitCode: z.nullable(z.int()),
    durationMs: DurationMs,
    tests: z.nullable(z.strictObject(TestTotals.shape)),
    logSha256: z.nullable(z.string().check(z.regex(/^[0-9a-f]{64}$/))),
  }),
);
export type GateAnnotations = z.infer<typeof GateAnnotations>;

/** A ResourceDescriptor naming one verdict: `iteration-<n>/<gate>`, the tree it judged, and the verdict. */
export const GateConfiguration = deferred(() =>
  z.strictObject({
    name: Name,
    digest: z.strictObject({ gitTree: Sha }),
    annotations: GateAnnotations,
  }),
);
export type GateConfiguration = z.infer<typeof GateConfiguration>;

export const TestResult = deferred(() => z.enum(['PASSED', 'WARNED', 'FAILED']));
export type TestResult = z.infer<typeof TestResult>;

/** An iteration a declared restart set aside: named by a run-level statement, not covered by it. */
export const SetAsideIteration = deferred(() =>
  z.strictObject({
    name: Name,
    afterSha: Sha,
    restartFrom: z.int().check(z.nonnegative()),
    declaredAt: z.string().check(z.maxLength(64)),
  }),
);
export type SetAsideIteration = z.infer<typeof SetAsideIteration>;

/** The CI run's URL (`predicate.url`): `attest` leaves out one this would refuse. */
export const RunUrl = deferred(() => z.url().check(z.maxLength(4096)));

export const TestResultPredicate = deferred(() =>
  z.strictObject({
    result: TestResult,
    configuration: z.array(GateConfiguration).check(z.maxLength(100_000)),
    url: z.optional(RunUrl),
    passedTests: z.array(Name).check(z.maxLength(100_000)),
    warnedTests: z.array(Name).check(z.maxLength(100_000)),
    failedTests: z.array(Name).check(z.maxLength(100_000)),
    /** Run-level statements only, when a restart set iterations aside: those left out of `subject`. */
    setAside: z.optional(z.array(SetAsideIteration).check(z.maxLength(100_000))),
  }),
);
export type TestResultPredicate = z.infer<typeof TestResultPredicate>;

export const Statement = deferred(() =>
  z.strictObject({
    _type: z.literal(STATEMENT_TYPE),
    subject: z.array(Subject).check(z.minLength(1), z.maxLength(100_000)),
    predicateType: z.literal(TEST_RESULT_PREDICATE_TYPE),
    predicate: TestResultPredicate,
  }),
);
export type Statement = z.infer<typeof Statement>;

/** `attest` prints this. */
export const AttestResult = deferred(() =>
  z.object({ file: z.string(), subjects: z.int().check(z.positive()) }),
);
export type AttestResult = z.infer<typeof AttestResult>;

/** One check of `verify --attestation`. */
export const AttestationCheck = deferred(() =>
  z.object({ check: z.string(), ok: z.boolean(), detail: z.string() }),
);
export type AttestationCheck = z.infer<typeof AttestationCheck>;

/**
 * `verify --attestation FILE` prints this; exit 3 unless `ok`. `runId`: the run the statement
 * attests (for a commit statement, the run of the iteration whose after tree is the commit's tree),
 * null when none is; `commit`: a commit statement's commit.
 */
export const AttestationReport = deferred(() =>
  z.object({
    ok: z.boolean(),
    file: z.string(),
    runId: z.nullable(SafeId),
    commit: z.optional(Sha),
    checks: z.array(AttestationCheck),
  }),
);
export type AttestationReport = z.infer<typeof AttestationReport>;
