// A run's length must not make its next iteration dearer: `iterate` as the next iteration of a run
// that already has 100 against iteration 1 of a new run, on the same workspace, interleaved in
// rotating order. (Each iteration used to read every snapshot of its run, up to three times.)
import { rotate } from '../measure.js';
import { ensureRepo, resetRepo } from '../repos.js';
import { addRows, scratch, timed, type Bench } from '../results.js';
import { cliIterate } from './iteration.js';

const LENGTH = 100;

export async function longRunCase(bench: Bench): Promise<void> {
  const size = bench.sizes[0] ?? 1000;
  const repo = await ensureRepo(size, bench.log);
  resetRepo(repo);
  const home = await scratch('home-long-run');
  const iterate = (runId: string, iteration: number) =>
    cliIterate(repo.dir, home, runId, iteration, ['sh', '-c', `echo ${runId}-${iteration} > long-run.txt`]);
  bench.log(`long run @ ${size} files: ${LENGTH} iterations of one run (untimed)`);
  for (let iteration = 1; iteration <= LENGTH; iteration++) await iterate('long', iteration);
  const long = `next iteration of a ${LENGTH}-iteration run`;
  const fresh = 'iteration 1 of a new run';
  const samples: Record<string, number[]> = { [long]: [], [fresh]: [] };
  let next = LENGTH + 1;
  for (let rep = -1; rep < bench.reps; rep++) {
    for (const name of rotate([long, fresh], rep + 1)) {
      const { ms } = await timed(() => (name === long ? iterate('long', next++) : iterate(`new-${rep}`, 1)));
      if (rep >= 0) samples[name]?.push(ms);
    }
  }
  addRows(bench, { case: 'iterate on a long run', scale: `${size} files` }, samples, fresh);
  resetRepo(repo, ['long-run.txt']);
}
