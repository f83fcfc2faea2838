// Issue 14 target 2, issue 21 target 4: starting the CLI (`--version`, and `runs --json` on an empty
// home, which loads a command module and the library) against starting Node itself, interleaved,
// rotating the order. The CLI runs as users run it: the bin as a program, whose sh line starts Node
// without NODE_EXTRA_CA_CERTS (scripts/bundle.mjs). When that variable is set, two references show
// what it costs: `node <bin> --version` (Node run on the bin, certificates loaded) and `node -e 0`
// without it.
import { run } from '../git.js';
import { median, rotate } from '../measure.js';
import { addRows, scratch, timed, type Bench } from '../results.js';
import { CLI } from './iteration.js';

export async function startupCase(bench: Bench): Promise<void> {
  const home = await scratch('startup-home');
  const { NODE_EXTRA_CA_CERTS: extraCa, ...withoutCa } = process.env;
  const contestants: Record<string, () => Promise<string>> = {
    'node -e 0': () => run(process.execPath, ['-e', '0']),
    'cli --version': () => run(CLI, ['--version']),
    'cli runs --json': () => run(CLI, ['runs', '--json', '--home', home]),
    ...(extraCa === undefined
      ? {}
      : {
          'node <bin> --version': () => run(process.execPath, [CLI, '--version']),
          'node -e 0 without NODE_EXTRA_CA_CERTS': () =>
            run(process.execPath, ['-e', '0'], { env: withoutCa }),
        }),
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
