/** After the budget, how long a stopped checkpoint gets to release its lock and git processes. */
const WIND_DOWN_MS = 1000;

/**
 * Runs `fn` within `ms`: at the deadline its signal is aborted (which stops its git processes),
 * and the result is `{ done: false }` whether or not `fn` has wound down by then (it gets
 * WIND_DOWN_MS to do so, so that its lock is released in order). Errors of `fn` are rethrown.
 */
export async function withinBudget<T>(
  ms: number,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<{ done: true; value: T } | { done: false }> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const work = fn(controller.signal);
  const wrapped = work.then((value) => ({ value }));
  // A failure after the deadline is nobody's to handle: it must not become an unhandled rejection.
  wrapped.catch(() => undefined);
  try {
    const first = await Promise.race([wrapped, deadline]);
    if (first !== 'late') return { done: true, value: first.value };
  } finally {
    clearTimeout(timer);
  }
  controller.abort();
  const settled = work.then(
    () => undefined,
    () => undefined,
  );
  await Promise.race([settled, new Promise((resolve) => setTimeout(resolve, WIND_DOWN_MS).unref())]);
  return { done: false };
}
