// The `trace` part of case "provenance" (issue 27, item 8): a LINES-line file written over 50
// iterations of one run, merged by fast-forward, traced four ways in the same interleaved rounds:
//   cli trace              the CLI, `trace --json` (what a person runs);
//   library computeTrace   computeTrace in this process, after one warm-up call (no Node start-up,
//                          no module loading, no JSON written);
//   node + blame           `node -e` that only spawns the same blame and reads its output: the
//                          floor for any command-line tool written for Node;
//   git blame --porcelain  the baseline.
import { spawnSync } from 'node:child_process';
import { openRepo } from '../../src/git/repo.js';
import { provenanceSources } from '../../src/provenance/sources.js';
import { computeTrace } from '../../src/provenance/trace.js';
import { git, gitEnv } from '../git.js';
import { addRows, timed, type Bench } from '../results.js';
import { benchSnapshotter, CLI } from './iteration.js';

const PATH = 'trace/big.txt';

/** Spawns git blame from a bare Node process and reads all of its output; exits with blame's status. */
const NODE_BLAME = [
  "const { spawn } = require('node:child_process');",
  'const [dir, rev, path] = process.argv.slice(1);',
  "const c = spawn('git', ['blame', '--porcelain', rev, '--', path], { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] });",
  'const out = [];',
  "c.stdout.on('data', (d) => out.push(d));",
  "c.on('close', (code) => { Buffer.concat(out); process.exitCode = code ?? 1; });",
].join('\n');

function spawnChecked(cmd: string, args: string[], what: string): void {
  const res = spawnSync(cmd, args, { env: gitEnv(), maxBuffer: 1 << 30 });
  if (res.status !== 0) throw new Error(`${what} failed: ${res.stdout}${res.stderr}`);
}

export async function traceRounds(
  bench: Bench,
  dir: string,
  home: string,
  tip: string,
  lines: number,
): Promise<void> {
  const cli = (): void =>
    spawnChecked(
      process.execPath,
      [CLI, '-C', dir, '--home', home, 'trace', PATH, '--rev', tip, '--json'],
      'cli trace',
    );
  const snapshotter = benchSnapshotter(home);
  const src = provenanceSources(snapshotter);
  const repo = await openRepo(dir, snapshotter.gitOptions());
  const library = async (): Promise<void> => {
    const t = await computeTrace(src, repo, PATH, { rev: tip });
    if (t.ranges.at(-1)?.end !== lines) throw new Error('library trace: not every line');
  };
  const nodeBlame = (): void =>
    spawnChecked(process.execPath, ['-e', NODE_BLAME, dir, tip, PATH], 'node + blame');
  // Warm-ups: the CLI's compile cache, the library's modules, the page cache.
  cli();
  await library();
  nodeBlame();
  const samples: Record<string, number[]> = {
    'cli trace': [],
    'library computeTrace': [],
    'node + blame': [],
    'git blame --porcelain': [],
  };
  for (let r = 0; r < bench.reps; r++) {
    samples['cli trace']?.push((await timed(async () => cli())).ms);
    samples['library computeTrace']?.push((await timed(library)).ms);
    samples['node + blame']?.push((await timed(async () => nodeBlame())).ms);
    samples['git blame --porcelain']?.push(
      (await timed(async () => void git(dir, ['blame', '--porcelain', tip, '--', PATH]))).ms,
    );
  }
  addRows(
    bench,
    { case: 'trace (50 iterations)', scale: `${lines}-line file` },
    samples,
    'git blame --porcelain',
  );
}
