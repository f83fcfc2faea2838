import * as z from 'zod';

export const OnDirty = z.enum(['wip-commit', 'error']);
export type OnDirty = z.infer<typeof OnDirty>;

export const Identity = z.object({ name: z.string().min(1), email: z.string().min(1) }).strict();
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
export const Config = z
  .object({
    artifactsDir: z.string().min(1).optional(),
    identity: Identity.optional(),
    onDirty: OnDirty.optional(),
    gitTimeoutMs: z.number().int().positive().optional(),
    lockTimeoutMs: z.number().int().positive().optional(),
    checkpoints: z
      .object({
        maxFileSizeBytes: z.number().int().positive().optional(),
        keep: z.number().int().positive().optional(),
        maxStoreBytes: z.number().int().positive().optional(),
      })
      .strict()
      .optional(),
    hooks: z
      .object({
        timeoutMs: z.number().int().positive().optional(),
        /** Keep the whole prompt in a hook's checkpoint label (default: a short label only). */
        recordPrompts: z.boolean().optional(),
      })
      .strict()
      .optional(),
    report: z
      .object({
        maxFileDiffBytes: z.number().int().nonnegative().optional(),
        maxTotalDiffBytes: z.number().int().nonnegative().optional(),
      })
      .strict()
      .optional(),
    sharing: z
      .object({
        /** Whether push and export carry each gate verdict's log text (its digest always travels). */
        includeGateLogs: z.boolean().optional(),
      })
      .strict()
      .optional(),
  })
  .strict();
export type Config = z.infer<typeof Config>;
