import { z } from 'zod';

export const OnDirty = z.enum(['wip-commit', 'error']);
export type OnDirty = z.infer<typeof OnDirty>;

export const Identity = z.object({ name: z.string().min(1), email: z.string().min(1) }).strict();
export type Identity = z.infer<typeof Identity>;

export const DEFAULT_IDENTITY: Identity = { name: 'agentgate', email: 'agentgate@localhost' };

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
      })
      .strict()
      .optional(),
  })
  .strict();
export type Config = z.infer<typeof Config>;
