import * as z from './zod.js';
import { deferred } from './zod.js';

/**
 * The longest duration anything takes (timeouts, limits, recorded durations), in milliseconds:
 * 2^31-1, about 24.8 days. Node's timers cannot wait longer: a larger delay fires after 1 ms, so
 * `gate --timeout 2147484` killed the check at once and a huge `gitTimeoutMs` failed every git
 * call. Options, config and records are all validated against it (docs/configuration.md).
 */
export const MAX_DURATION_MS = 2_147_483_647;

/** A duration in milliseconds, 0 to MAX_DURATION_MS (a recorded duration). */
export const DurationMs = deferred(() => z.int().check(z.nonnegative(), z.lte(MAX_DURATION_MS)));

/** A time limit in milliseconds, 1 to MAX_DURATION_MS. */
export const TimeoutMs = deferred(() => z.int().check(z.positive(), z.lte(MAX_DURATION_MS)));

/** Why `ms` is no usable time limit (from `min`: 0 where "do not wait" means something), naming it as `what`, or null. */
export function timeoutProblem(ms: number, what: string, min = 1): string | null {
  return Number.isInteger(ms) && ms >= min && ms <= MAX_DURATION_MS
    ? null
    : `${what} must be a whole number of milliseconds from ${min} to ${MAX_DURATION_MS} (about 24.8 days), not ${ms}`;
}
