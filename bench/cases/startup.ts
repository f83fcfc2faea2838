// Issue 14 target 2: starting the CLI (`--version`, and `runs --json` on an empty home, which loads
// a command module and the library) against starting Node itself, interleaved, rotating the order.
import { fileURLToPath } from 'node:url';
import { run } from '../git.js';
import { median, rotate } from '../measure.js';
import { addRows, scratch, timed, type Bench } from '../results.js';

const CLI = fileURLToPath(new URL('../../dist/bin/agentgate-snapshot.js', import.meta.url));

export async function startupCase(bench: Bench): Promise<void> {
  const home = await scratch('startup-home');
  const contestants: Record<string, string[]> = {
    'node -e 0': ['-e', '0'],
    'cli --version': [CLI, '--version'],
    'cli runs --json': [CLI, 'runs', '--json', '--home', home],
  };
  const samples: Record<string, number[]> = Object.fromEntries(
    Object.keys(contestants).map((name) => [name, []]),
  );
  const names = Object.keys(contestants);
  // Start-up is short and noisy: many more repetitions than the iteration cases.
  for (let rep = -1; rep < bench.reps * 6; rep++) {
    for (const name of rotate(names, rep + 1)) {
      const { ms } = await timed(() => run(process.execPath, contestants[name] as string[]));
      if (rep >= 0) samples[name]?.push(ms);
    }
  }
  addRows(bench, { case: 'CLI start-up', scale: 'no repository' }, samples, 'node -e 0');
  bench.log(`startup: ${names.map((n) => `${n} ${Math.round(median(samples[n] ?? []))} ms`).join(', ')}`);
}
