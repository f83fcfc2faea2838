import * as z from './zod.js';
import { deferred } from './zod.js';
import { TimeoutMs } from './duration.js';

/** What `before` does with uncommitted work (a plain list too: an option's choices need no schema). */
export const ON_DIRTY = ['wip-commit', 'error'] as const;
export const OnDirty = deferred(() => z.enum(ON_DIRTY));
export type OnDirty = z.infer<typeof OnDirty>;

/**
 * A commit's name or email as git keeps it (git's ident.c): git drops `<`, `>` and newlines and
 * refuses a name made only of "crud" (control characters, spaces and . , : ; " \ '), so either
 * would fail `before` late (GIT_FAILED) or commit another identity than the one configured.
 */
const identityPart = () =>
  z.string().check(
    z.minLength(1),
    // eslint-disable-next-line no-control-regex -- control characters are what git drops
    z.regex(/^[^<>\u0000-\u001f\u007f]*$/, 'must not contain <, > or a control character'),
    // eslint-disable-next-line no-control-regex -- git's crud: every byte up to the space
    z.regex(/^$|[^\u0000-\u0020.,:;<>"\\']/, `must hold a character other than spaces and . , : ; " \\ '`),
  );

export const Identity = deferred(() => z.strictObject({ name: identityPart(), email: identityPart() }));
export type Identity = z.infer<typeof Identity>;

export const DEFAULT_IDENTITY: Identity = { name: 'agentgate', email: 'agentgate@localhost' };
export const DEFAULT_ON_DIRTY: OnDirty = 'wip-commit';
export const DEFAULT_GIT_TIMEOUT_MS = 120_000;
/** Untracked files above this size are not captured by a checkpoint (reported as skipped). */
export const DEFAULT_MAX_FILE_SIZE_BYTES = 10 * 1024 * 1024;
/** Checkpoints kept by retention, newest first (markers are kept besides). */
export const DEFAULT_KEEP = 100;
/**
 * The HTML report embeds at most this much diff per file and in all, as GitHub's diff view does;
 * a file beyond either is listed with its line counts and "too large to show here".
 */
export const DEFAULT_REPORT_MAX_FILE_DIFF_BYTES = 512 * 1024;
export const DEFAULT_REPORT_MAX_TOTAL_DIFF_BYTES = 20 * 1024 * 1024;
/** A checkpoint store is pruned (oldest unprotected checkpoints first) and packed to stay under this. */
export const DEFAULT_MAX_STORE_BYTES = 2 * 1024 ** 3;
/** An agent hook that has not finished its checkpoint by then skips it (and says so in the log). */
export const DEFAULT_HOOK_TIMEOUT_MS = 5000;

/** `<home>/config.yaml`. Every key is optional; unknown keys are refused so typos surface. */
export const Config = deferred(() =>
  z.strictObject({
    artifactsDir: z.optional(z.string().check(z.minLength(1))),
    identity: z.optional(Identity),
    onDirty: z.optional(OnDirty),
    gitTimeoutMs: z.optional(TimeoutMs),
    lockTimeoutMs: z.optional(TimeoutMs),
    checkpoints: z.optional(
      z.strictObject({
        maxFileSizeBytes: z.optional(z.int().check(z.positive())),
        keep: z.optional(z.int().check(z.positive())),
        maxStoreBytes: z.optional(z.int().check(z.positive())),
      }),
    ),
    hooks: z.optional(
      z.strictObject({
        timeoutMs: z.optional(TimeoutMs),
        /** Keep the whole prompt in a hook's checkpoint label (default: a short label only). */
        recordPrompts: z.optional(z.boolean()),
      }),
    ),
    report: z.optional(
      z.strictObject({
        maxFileDiffBytes: z.optional(z.int().check(z.nonnegative())),
        maxTotalDiffBytes: z.optional(z.int().check(z.nonnegative())),
      }),
    ),
    sharing: z.optional(
      z.strictObject({
        /** Whether push and export carry each gate verdict's log text (its digest always travels). */
        includeGateLogs: z.optional(z.boolean()),
      }),
    ),
  }),
);
export type Config = z.infer<typeof Config>;
