// Issue 29 item 1 (and issues 14 and 21 before it): starting the CLI (`--version`, and `runs --json`
// on an empty home, which loads a command module and the library) against starting Node itself,
// interleaved, rotating the order. The CLI runs as users run it: the bin as a program, on the Node
// first on PATH (under `npm run bench`, the project's pinned Node, which is also process.execPath).
import { run } from '../git.js';
import { median, rotate } from '../measure.js';
import { addRows, scratch, timed, type Bench } from '../results.js';
import { CLI } from './iteration.js';

export async function startupCase(bench: Bench): Promise<void> {
  const home = await scratch('startup-home');
  const contestants: Record<string, () => Promise<string>> = {
    'node -e 0': () => run(process.execPath, ['-e', '0']),
    'cli --version': () => run(CLI, ['--version']),
    'cli runs --json': () => run(CLI, ['runs', '--json', '--home', home]),
  };
  const samples: Record<string, number[]> = Object.fromEntries(
    Object.keys(contestants).map((name) => [name, []]),
  );
  const names = Object.keys(contestants);
  // Start-up is short and noisy: many more repetitions than the iteration cases.
  for (let rep = -1; rep < bench.reps * 6; rep++) {
    for (const name of rotate(names, rep + 1)) {
      const { ms } = await timed(() => (contestants[name] as () => Promise<string>)());
      if (rep >= 0) samples[name]?.push(ms);
    }
  }
  addRows(bench, { case: 'CLI start-up', scale: 'no repository' }, samples, 'node -e 0');
  bench.log(`startup: ${names.map((n) => `${n} ${Math.round(median(samples[n] ?? []))} ms`).join(', ')}`);
}
