import * as z from './zod.js';
import { deferred } from './zod.js';

/** Longest request line `serve` reads (bytes, newline excluded); a longer one is refused unread. */
export const SERVE_MAX_LINE_BYTES = 1024 * 1024;

/** A request id: echoed in the response so that a caller can match them. */
export const ServeRequestId = deferred(() =>
  z.union([
    z.string().check(z.maxLength(200)),
    z.int().check(z.gte(Number.MIN_SAFE_INTEGER), z.lte(Number.MAX_SAFE_INTEGER)),
  ]),
);
export type ServeRequestId = z.infer<typeof ServeRequestId>;

/**
 * One line of `serve`'s input: the command as on the command line (`"after"`, `"checkpoint track"`),
 * its positional arguments, and its options by long name without dashes (`{"run": "r1",
 * "iteration": 2, "workspace": "/w"}`; `true` for a flag, `false` or absent to leave it out; a
 * list of strings for a repeatable option, `{"require-gate": ["test", "lint"]}`).
 */
export const ServeRequest = deferred(() =>
  z.strictObject({
    id: ServeRequestId,
    command: z.string().check(z.minLength(1), z.maxLength(100)),
    args: z._default(
      z.array(z.string().check(z.maxLength(SERVE_MAX_LINE_BYTES))).check(z.maxLength(10_000)),
      [],
    ),
    options: z._default(
      z.record(
        z.string().check(z.regex(/^[a-z][a-z0-9-]{0,63}$/)),
        z.union([
          z.string(),
          z.boolean(),
          // Any number: given to the parser as its decimal text, which judges it as the command line does.
          z.number(),
          // A repeatable option (`--require-gate A --require-gate B`): serve refuses a list for any other.
          z.array(z.string()).check(z.maxLength(10_000)),
        ]),
      ),
      {},
    ),
  }),
);
export type ServeRequest = z.infer<typeof ServeRequest>;

/** An error as the command line prints it with --json: its code, message and, when it has any, details. */
export const ServeError = deferred(() =>
  z.object({ code: z.string(), message: z.string(), details: z.optional(z.record(z.string(), z.unknown())) }),
);

/**
 * One line of `serve`'s output: the command's JSON document (what it prints with --json) or its
 * error. `exitCode` is present when the command would have exited non-zero with a result
 * (verify with a failed check). A line that could not be read as a request gets `id: null`.
 */
export const ServeResponse = deferred(() =>
  z.union([
    z.strictObject({ id: ServeRequestId, result: z.unknown(), exitCode: z.optional(z.int()) }),
    z.strictObject({ id: z.nullable(ServeRequestId), error: ServeError }),
  ]),
);
export type ServeResponse = z.infer<typeof ServeResponse>;
