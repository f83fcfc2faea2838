// Issue 20: an agent hook's wall time per event against the floor (the git commands of one
// checkpoint), and the size of a checkpoint store after many checkpoints of a churning workspace
// against the packed size of the same unique content.
//
//   AGENTGATE_BENCH_CHECKPOINTS=200   checkpoints in the store-size case
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { runAgentHook } from '../../src/hooks/index.js';
import { resolveSettings } from '../../src/store/config.js';
import { git, gitEnv, run } from '../git.js';
import { parseCount, rotate } from '../measure.js';
import { applyWorkload, ensureRepo, resetRepo, type BenchRepo } from '../repos.js';
import { addRows, scratch, timed, type Bench } from '../results.js';
import { CLI, FLOOR_SCRIPT } from './iteration.js';

/** The hook's budget is set out of the way: the case measures the work, not the cut-off. */
const NO_BUDGET = 'hooks:\n  timeoutMs: 3600000\n';

/** `hook claude-code` as Claude Code runs it: a new process, the event on stdin. */
function cliHook(home: string, event: object): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(CLI, ['hook', 'claude-code'], {
      env: { ...gitEnv(), AGENTGATE_HOME: home },
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`hook exited ${code}`))));
    child.stdin.end(JSON.stringify(event));
  });
}

/** Case: one UserPromptSubmit hook after an agent-like workload, per repository size. */
export async function hookCase(bench: Bench): Promise<void> {
  for (const size of bench.sizes) {
    const repo = await ensureRepo(size, bench.log);
    resetRepo(repo);
    const cliHome = await scratch(`home-hook-cli-${size}`);
    const libHome = await scratch(`home-hook-lib-${size}`);
    for (const home of [cliHome, libHome]) await writeFile(join(home, 'config.yaml'), NO_BUDGET);
    const settings = await resolveSettings({ home: libHome });
    const floorDir = join(await scratch(`floor-hook-${size}`), 'git');
    git(repo.dir, ['init', '-q', '--bare', floorDir]);
    const event = (prompt: string) => ({
      session_id: 'bench',
      transcript_path: '/dev/null',
      cwd: repo.dir,
      hook_event_name: 'UserPromptSubmit',
      prompt,
    });
    const contestants: Record<string, (rep: number) => Promise<unknown>> = {
      'cli hook claude-code': (rep) => cliHook(cliHome, event(`prompt ${rep}`)),
      'library runAgentHook': (rep) =>
        runAgentHook(
          { agent: 'bench', workspace: repo.dir, session: 'bench', event: 'turn', kind: 'before-prompt' },
          { settings },
        ).then((o) => {
          if (o.status !== 'recorded') throw new Error(`runAgentHook: ${o.status}: ${o.message}`);
          return rep;
        }),
      floor: () => run('sh', [FLOOR_SCRIPT, 'track', repo.dir, floorDir], { env: gitEnv() }),
    };
    // First capture of each store (every file hashed), not timed: a session starts with it.
    bench.log(`hook @ ${size} files: first captures`);
    await cliHook(cliHome, { ...event('start'), hook_event_name: 'SessionStart', source: 'startup' });
    for (const name of ['library runAgentHook', 'floor']) await contestants[name]?.(-2);
    const samples: Record<string, number[]> = Object.fromEntries(
      Object.keys(contestants).map((n) => [n, []]),
    );
    bench.log(`hook @ ${size} files: ${bench.reps} repetitions`);
    for (let rep = -1; rep < bench.reps; rep++) {
      for (const name of rotate(Object.keys(contestants), rep)) {
        const w = await applyWorkload(repo, `hook-${name.split(' ')[0]}-${rep}`);
        const t = await timed(() => (contestants[name] as (r: number) => Promise<unknown>)(rep));
        resetRepo(repo, w.created);
        if (rep >= 0) samples[name]?.push(t.ms);
      }
    }
    addRows(bench, { case: 'hook per event (UserPromptSubmit)', scale: `${size} files` }, samples, 'floor', {
      'cli hook claude-code': { note: 'node start-up + read stdin + checkpoint + log line' },
      'library runAgentHook': {
        note: 'in process: open + track (prompt numbering, budget check) + log line',
      },
      floor: { gitProcesses: 3, note: 'add -A, write-tree, update-ref (private git dir + index)' },
    });
  }
}

/** Case: the store after N checkpoints of a churning 1,000-file workspace, unbounded and under a budget. */
export async function hookStoreCase(bench: Bench): Promise<void> {
  const count = parseCount(process.env.AGENTGATE_BENCH_CHECKPOINTS, 200, 'AGENTGATE_BENCH_CHECKPOINTS');
  const repo = await ensureRepo(1000, bench.log);
  const unbounded = await churn(bench, repo, count, undefined);
  const reference = await packedReference(unbounded.gitDir);
  // A budget the churn must exceed: half the unbounded store.
  const budget = Math.floor(unbounded.storeBytes / 2);
  const bounded = await churn(bench, repo, count, budget);
  const scale = `${count} checkpoints, 1000 files`;
  addRows(
    bench,
    { case: 'checkpoint store size', scale, unit: 'bytes' },
    {
      'same content, packed': [reference],
      'store (objects + index)': [unbounded.storeBytes],
      'store objects': [unbounded.objectBytes],
      [`store under a budget of ${budget}`]: [bounded.storeBytes],
    },
    'same content, packed',
    {
      'same content, packed': { note: 'every checkpoint ref fetched into a new repository, git gc' },
      'store (objects + index)': { note: `default budget; ${unbounded.checkpoints} checkpoints kept` },
      [`store under a budget of ${budget}`]: {
        note: `${bounded.checkpoints} checkpoints kept, ${bounded.pruned} pruned; never above the budget: ${bounded.maxSeen <= budget}`,
      },
    },
  );
  bench.facts.hookStore = { count, budget, reference, unbounded, bounded };
}

async function churn(bench: Bench, repo: BenchRepo, count: number, budget: number | undefined) {
  resetRepo(repo);
  const home = await scratch(`home-hook-store-${budget ?? 'unbounded'}`);
  const opts = { home, ...(budget === undefined ? {} : { maxStoreBytes: budget }) };
  let maxSeen = 0;
  let cp: Checkpoints | null = null;
  bench.log(`store after ${count} checkpoints (budget ${budget ?? 'default'})`);
  for (let i = 0; i < count; i++) {
    const w = await applyWorkload(repo, `churn-${i}`);
    cp = await Checkpoints.open(repo.dir, opts);
    await cp.track(`churn ${i}`, { session: 'bench', event: 'turn', beforePrompt: true });
    if (budget !== undefined) maxSeen = Math.max(maxSeen, (await cp.status()).storeBytes);
    resetRepo(repo, w.created);
  }
  const status = await (cp as Checkpoints).status();
  const counts = git(repo.dir, [`--git-dir=${(cp as Checkpoints).location.gitDir}`, 'count-objects', '-v']);
  const kib = (key: string) => Number(new RegExp(`^${key}: (\\d+)$`, 'm').exec(counts)?.[1] ?? 0) * 1024;
  return {
    gitDir: (cp as Checkpoints).location.gitDir,
    storeBytes: status.storeBytes,
    objectBytes: kib('size') + kib('size-pack'),
    checkpoints: status.checkpoints,
    pruned: status.pruned.reduce((n, p) => n + p.removed.length, 0),
    maxSeen,
  };
}

/** The packed size of exactly the content the store's checkpoints hold. */
async function packedReference(gitDir: string): Promise<number> {
  const dir = join(await scratch('hook-store-reference'), 'ref.git');
  git('/', ['init', '-q', '--bare', dir]);
  git(dir, ['fetch', '-q', gitDir, 'refs/checkpoints/*:refs/checkpoints/*']);
  git(dir, ['gc', '-q', '--prune=now']);
  const counts = git(dir, ['count-objects', '-v']);
  return Number(/^size-pack: (\d+)$/m.exec(counts)?.[1] ?? 0) * 1024;
}
