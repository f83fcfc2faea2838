// Issue 19: the cost of `gate` over running its command directly, and of `gate --isolated` over
// the plain-git floor (`git worktree add --detach`, the command, `git worktree remove`), on the
// same repository, in an order that rotates every repetition. The command is `true`, so what is
// measured is the gate's own work: the CLI's start, the tree check, the checkout, the log and
// the verdict file.
import { mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { git, run } from '../git.js';
import { median, rotate } from '../measure.js';
import { ensureRepo, resetRepo } from '../repos.js';
import { addRows, scratch, timed, type Bench } from '../results.js';
import { CLI } from './iteration.js';

export async function gatesCase(bench: Bench): Promise<void> {
  for (const n of bench.sizes) {
    const repo = await ensureRepo(n, bench.log);
    resetRepo(repo);
    const home = await scratch('gate-home');
    const cli = (...args: string[]) => run(CLI, ['-C', repo.dir, '--home', home, ...args]);
    // One iteration that changes nothing: its after commit is HEAD, so the workspace is at it and clean.
    await cli('before', '--run', 'bench');
    await cli('after', '--run', 'bench', '--iteration', '1');
    const head = git(repo.dir, ['rev-parse', 'HEAD']).trim();
    const floorRoot = await scratch('gate-floor');
    const contestants: Record<string, () => Promise<unknown>> = {
      'node -e 0': () => run(process.execPath, ['-e', '0']),
      'CMD directly': () => run('true', [], { cwd: repo.dir }),
      gate: () => cli('gate', '--run', 'bench', '--name', 'bench', '--', 'true'),
      'worktree add --detach + CMD': async () => {
        const dir = join(await mkdtemp(join(floorRoot, 'wt-')), 'tree');
        await run('git', ['-C', repo.dir, 'worktree', 'add', '-q', '--detach', dir, head]);
        await run('true', [], { cwd: dir });
        await run('git', ['-C', repo.dir, 'worktree', 'remove', '--force', dir]);
      },
      'gate --isolated': () => cli('gate', '--run', 'bench', '--name', 'bench', '--isolated', '--', 'true'),
    };
    const names = Object.keys(contestants);
    const samples: Record<string, number[]> = Object.fromEntries(names.map((name) => [name, []]));
    for (let rep = -1; rep < bench.reps; rep++) {
      for (const name of rotate(names, rep + 1)) {
        const { ms } = await timed(contestants[name] as () => Promise<unknown>);
        if (rep >= 0) samples[name]?.push(ms);
      }
    }
    const pick = (keys: string[]) => Object.fromEntries(keys.map((k) => [k, samples[k] ?? []]));
    const scale = `${n} files`;
    addRows(bench, { case: 'gate', scale }, pick(['CMD directly', 'node -e 0', 'gate']), 'CMD directly');
    addRows(
      bench,
      { case: 'gate --isolated', scale },
      pick(['worktree add --detach + CMD', 'gate --isolated']),
      'worktree add --detach + CMD',
    );
    bench.log(
      `gates ${scale}: ${names.map((k) => `${k} ${Math.round(median(samples[k] ?? []))} ms`).join(', ')}`,
    );
    resetRepo(repo);
  }
}
