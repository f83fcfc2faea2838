import * as z from './zod.js';
import { deferred } from './zod.js';

export const VerifyCheck = deferred(() =>
  z.object({
    snapshotId: z.nullable(z.string()),
    runId: z.nullable(z.string()),
    check: z.string(),
    ok: z.boolean(),
    detail: z.string(),
  }),
);
export type VerifyCheck = z.infer<typeof VerifyCheck>;

export const VerifyReport = deferred(() => z.object({ ok: z.boolean(), checks: z.array(VerifyCheck) }));
export type VerifyReport = z.infer<typeof VerifyReport>;
