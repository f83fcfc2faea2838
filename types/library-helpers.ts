/**
 * The shapes of the exported helpers' arguments (src/library-helpers.ts), apart from
 * types/library.ts so that the commands, which call the helpers unchecked, never load them.
 */
import * as z from './zod.js';
import { deferred } from './zod.js';
import { Anchor, Trace } from './anchor.js';
import { TestCounts } from './gate.js';
import { FunctionArg } from './library.js';
import { RunReport } from './report.js';
import { VerifyCheck } from './verify.js';

export const DemoOptionsArg = deferred(() => z.optional(z.object({ keep: z.optional(z.boolean()) })));
/** A size or count limit a helper takes (bytes of a summary, annotations): none for its default. */
export const OptionalCountArg = deferred(() => z.optional(z.int().check(z.positive())));
export const RunReportArg = RunReport;
/** `$GITHUB_OUTPUT` values by name (what each name may be is checked where it is written). */
export const KeyValuesArg = deferred(() =>
  z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
);
/** What a caller's `random` gives formatKeyValues: a delimiter, which cannot be empty. */
export const DelimiterArg = deferred(() => z.string().check(z.minLength(1, 'must not be empty')));
export const StepSummaryArg = deferred(() =>
  z.union([z.string(), z.object({ text: z.string(), cutTo: FunctionArg, note: z.string() })]),
);
export const VerifyChecksArg = deferred(() => z.array(VerifyCheck));
export const VerdictInputArg = deferred(() =>
  z.object({
    exitCode: z.nullable(z.int()),
    signal: z.nullable(z.string()),
    timedOut: z.boolean(),
    timeoutMs: z.nullable(z.number()),
    spawnError: z.nullable(z.string()),
    command: z.nullable(z.array(z.string())),
    junit: z.nullable(z.union([z.object({ counts: TestCounts }), z.object({ problem: z.string() })])),
    minTests: z.nullable(z.int().check(z.nonnegative())),
    outlived: z.optional(z.boolean()),
  }),
);
export const TraceArg = Trace;
export const ToolArg = deferred(() => z.object({ version: z.string() }));
export const AnchorArg = Anchor;
