import * as z from 'zod';

/** Longest request line `serve` reads (bytes, newline excluded); a longer one is refused unread. */
export const SERVE_MAX_LINE_BYTES = 1024 * 1024;

/** A request id: echoed in the response so that a caller can match them. */
export const ServeRequestId = z.union([
  z.string().max(200),
  z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
]);
export type ServeRequestId = z.infer<typeof ServeRequestId>;

/**
 * One line of `serve`'s input: the command as on the command line (`"after"`, `"checkpoint track"`),
 * its positional arguments, and its options by long name without dashes (`{"run": "r1",
 * "iteration": 2, "workspace": "/w"}`; `true` for a flag, `false` or absent to leave it out).
 */
export const ServeRequest = z
  .object({
    id: ServeRequestId,
    command: z.string().min(1).max(100),
    args: z.array(z.string().max(SERVE_MAX_LINE_BYTES)).max(10_000).default([]),
    options: z
      .record(
        z.string().regex(/^[a-z][a-z0-9-]{0,63}$/),
        z.union([z.string(), z.boolean(), z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]),
      )
      .default({}),
  })
  .strict();
export type ServeRequest = z.infer<typeof ServeRequest>;

export const ServeError = z.object({ code: z.string(), message: z.string() });

/**
 * One line of `serve`'s output: the command's JSON document (what it prints with --json) or its
 * error. `exitCode` is present when the command would have exited non-zero with a result
 * (verify with a failed check). A line that could not be read as a request gets `id: null`.
 */
export const ServeResponse = z.union([
  z.object({ id: ServeRequestId, result: z.unknown(), exitCode: z.number().int().optional() }).strict(),
  z.object({ id: ServeRequestId.nullable(), error: ServeError }).strict(),
]);
export type ServeResponse = z.infer<typeof ServeResponse>;
