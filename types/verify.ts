import * as z from 'zod';

export const VerifyCheck = z.object({
  snapshotId: z.string().nullable(),
  runId: z.string().nullable(),
  check: z.string(),
  ok: z.boolean(),
  detail: z.string(),
});
export type VerifyCheck = z.infer<typeof VerifyCheck>;

export const VerifyReport = z.object({ ok: z.boolean(), checks: z.array(VerifyCheck) });
export type VerifyReport = z.infer<typeof VerifyReport>;
