import { MAX_DURATION_MS } from '../../types/duration.js';

/**
 * `ms` as a timer's delay: at most MAX_DURATION_MS, since Node fires a longer timer after 1 ms
 * (a budget near the maximum plus a grace period would end at once), and at least 1.
 */
export function timerDelay(ms: number): number {
  return Math.min(Math.max(ms, 1), MAX_DURATION_MS);
}

/** At most this long before the deadline, a checkpoint is told to stop, so that it can release its lock and git processes in time. */
const WIND_DOWN_MS = 1000;

/**
 * Runs `fn` within `ms`, wind-down included: at the stop point (WIND_DOWN_MS before the deadline,
 * or half-way for a short budget) its signal is aborted, which stops its git processes, and it
 * gets until the deadline to wind down (its lock is released in order). `{ done: false }` when it
 * has not finished by then; a value it still produced meanwhile is kept (a checkpoint recorded
 * before its upkeep was stopped is recorded). Errors of `fn` before the stop are rethrown.
 */
export async function withinBudget<T>(
  ms: number,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<{ done: true; value: T } | { done: false }> {
  const controller = new AbortController();
  const total = timerDelay(ms);
  const stopAt = Math.max(total - WIND_DOWN_MS, Math.ceil(total / 2));
  const work = fn(controller.signal);
  const wrapped = work.then((value) => ({ value }));
  // A failure after the stop is nobody's to handle: it must not become an unhandled rejection.
  wrapped.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const stop = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), stopAt);
  });
  const first = await Promise.race([wrapped, stop]).finally(() => clearTimeout(timer));
  if (first !== 'late') return { done: true, value: first.value };
  controller.abort();
  const settled = wrapped.then(
    (v) => v,
    () => null,
  );
  // The wind-down's timer does not keep the process alive: what it waits for does, while it runs.
  const windDown = new Promise<null>((resolve) => setTimeout(() => resolve(null), total - stopAt).unref());
  const last = await Promise.race([settled, windDown]);
  return last === null ? { done: false } : { done: true, value: last.value };
}
