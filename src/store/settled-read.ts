import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { layout } from './paths.js';

/** Reads of a store that a writer keeps changing give up after this many and keep the last answer. */
const MAX_READS = 4;

/**
 * Where the store's records live: the runs, the snapshots and each run's verdicts. Every write
 * there (an atomic write's temp file and rename, a removal) moves the directory's mtime and ctime.
 */
async function recordDirs(home: string): Promise<string[]> {
  const { runs, snapshots, gates } = layout(home);
  const perRun = await readdir(gates).catch(() => [] as string[]);
  return [runs, snapshots, gates, ...perRun.sort().map((name) => join(gates, name))];
}

/** The identity and last change of each record directory: equal before and after a read, no writer touched them meanwhile. */
async function storeGeneration(home: string): Promise<string> {
  const stamps = await Promise.all(
    (await recordDirs(home)).map(async (dir) => {
      const st = await lstat(dir, { bigint: true }).catch(() => null);
      return st === null ? `${dir}:none` : `${dir}:${st.ino}:${st.mtimeNs}:${st.ctimeNs}`;
    }),
  );
  return stamps.join('\n');
}

/**
 * Runs `read` over the store again while it is not `settled` (or fails) and a writer changed the
 * store during it: a `delete` or an `after` in another process is several steps (a run's link, a
 * file, an artifact, a ref), and a read between them saw a state no command left. An answer that
 * is settled, or read from a store nobody changed meanwhile, stands; so does the last one.
 */
export async function readSettled<T>(
  home: string,
  read: () => Promise<T>,
  settled: (answer: T) => boolean,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    const before = await storeGeneration(home);
    const outcome = await read().then(
      (answer) => ({ answer }),
      (error: unknown) => ({ error }),
    );
    const stands =
      ('answer' in outcome && settled(outcome.answer)) ||
      attempt >= MAX_READS ||
      (await storeGeneration(home)) === before;
    if (!stands) continue;
    if ('error' in outcome) throw outcome.error;
    return outcome.answer;
  }
}
