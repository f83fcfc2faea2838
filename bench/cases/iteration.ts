// Cases 1-4: one agent iteration (before, the agent's work, after) by the library, the CLI, the
// shell floor and the simple-git porcelain version, side by side on the same repository, in an
// order that rotates every repetition. Only before and after are timed; the workload between them
// and the reset after them are not.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import { gitCallCount } from '../../src/git/runner.js';
import { Snapshotter } from '../../src/snapshotter/snapshotter.js';
import { gitEnv, run } from '../git.js';
import { median, rotate } from '../measure.js';
import { porcelainAfter, porcelainBefore } from '../porcelain.js';
import { startServe, type ServeClient } from '../serve-client.js';
import {
  applyWorkload,
  ensureRepo,
  modifyFiles,
  resetRepo,
  type BenchRepo,
  workloadPlan,
  type Workload,
} from '../repos.js';
import { addRows, scratch, timed, type Bench } from '../results.js';

export const FLOOR_SCRIPT = fileURLToPath(new URL('../floor.sh', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/bin/agentgate-snapshot.js', import.meta.url));
const AGENT = fileURLToPath(new URL('../agent.mjs', import.meta.url));
const IDEAL_ITERATE = fileURLToPath(new URL('../ideal-iterate.mjs', import.meta.url));

/** Files one workload changes: 10 modified, 2 added, 1 deleted, 1 renamed, 1 binary. */
export const WORKLOAD_FILES = 15;

interface Outcome {
  ms: number;
  /** The before and after parts of `ms`. */
  split: [number, number];
  files: number;
  gitProcesses: number | null;
  created: string[];
}

interface Contestant {
  name: string;
  /** Runs before, the (untimed) workload, then after; returns the timed milliseconds and the files the snapshot reported. */
  iterate(repo: BenchRepo, rep: number, work: (nonce: string) => Promise<Workload>): Promise<Outcome>;
}

/** The library as the bench drives it: generous timeouts, the home's artifacts, WIP commits. */
export function benchSnapshotter(home: string): Snapshotter {
  return new Snapshotter({
    home,
    artifactsDir: join(home, 'artifacts'),
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 600_000,
    lockTimeoutMs: 60_000,
    onDirty: 'wip-commit',
  });
}

function libraryContestant(home: string): Contestant {
  const snapshotter = benchSnapshotter(home);
  return {
    name: 'library',
    async iterate(repo, rep, work) {
      const runId = `lib-${rep}`;
      const calls = gitCallCount();
      const b = await timed(() => snapshotter.captureBeforeState(repo.dir, { runId }));
      const w = await work(runId);
      const a = await timed(() =>
        snapshotter.captureAfterState(repo.dir, b.value, {
          runId,
          iteration: 1,
          taskPrompt: 'bench task',
          gatePlanSource: 'bench gate',
        }),
      );
      return {
        ms: b.ms + a.ms,
        split: [b.ms, a.ms],
        files: a.value.filesChanged,
        gitProcesses: gitCallCount() - calls,
        created: w.created,
      };
    },
  };
}

function cliContestant(home: string): Contestant {
  const cli = (args: string[]): Promise<string> =>
    run(CLI, [...args, '--home', home, '--json'], {
      env: { ...process.env, NO_COLOR: '1' },
    });
  return {
    name: 'cli',
    async iterate(repo, rep, work) {
      const runId = `cli-${rep}`;
      const b = await timed(() => cli(['before', '--run', runId, '-C', repo.dir]));
      const w = await work(runId);
      const a = await timed(() =>
        cli([
          'after',
          '--run',
          runId,
          '--iteration',
          '1',
          '--task',
          'bench task',
          '--gate',
          'bench gate',
          '-C',
          repo.dir,
        ]),
      );
      const snapshot = JSON.parse(a.value) as { filesChanged: number };
      return {
        ms: b.ms + a.ms,
        split: [b.ms, a.ms],
        files: snapshot.filesChanged,
        gitProcesses: null,
        created: w.created,
      };
    },
  };
}

/**
 * `serve`: one long-lived CLI process (started once, untimed) answering a before and an after
 * request per iteration over JSON lines; each request's round trip is timed.
 */
function serveContestant(home: string): Contestant & { close(): Promise<void> } {
  let client: ServeClient | null = null;
  return {
    name: 'serve',
    async iterate(repo, rep, work) {
      client ??= startServe(CLI, ['--home', home], { ...process.env, NO_COLOR: '1' });
      const c = client;
      const runId = `serve-${rep}`;
      const b = await timed(() => c.request('before', { run: runId, workspace: repo.dir }));
      const w = await work(runId);
      const a = await timed(() =>
        c.request('after', {
          run: runId,
          iteration: 1,
          task: 'bench task',
          gate: 'bench gate',
          workspace: repo.dir,
        }),
      );
      const snapshot = a.value as { filesChanged: number };
      return {
        ms: b.ms + a.ms,
        split: [b.ms, a.ms],
        files: snapshot.filesChanged,
        gitProcesses: null,
        created: w.created,
      };
    },
    async close() {
      const code = await client?.close();
      if (code !== undefined && code !== 0) throw new Error(`serve exited ${String(code)}`);
    },
  };
}

/** The floor script: the contract's before (dirty check, WIP commit when needed) and after. */
function floorContestant(): Contestant {
  return {
    name: 'floor',
    async iterate(repo, rep, work) {
      const out = await scratch(`floor-out-${rep}`);
      const b = await timed(() => run('sh', [FLOOR_SCRIPT, 'before', repo.dir], { env: gitEnv() }));
      const w = await work(`floor-${rep}`);
      const a = await timed(() =>
        run('sh', [FLOOR_SCRIPT, 'after', repo.dir, b.value.trim(), out], { env: gitEnv() }),
      );
      return {
        ms: b.ms + a.ms,
        split: [b.ms, a.ms],
        files: await floorFiles(out),
        gitProcesses: FLOOR_GIT_PROCESSES,
        created: w.created,
      };
    },
  };
}

/** The floor's git processes on a clean start: rev-parse, add, write-tree, rev-parse (before); add, write-tree, commit-tree, update-ref, diff-tree x3 (after). */
const FLOOR_GIT_PROCESSES = 11;

/** Files the floor's name-status lists. */
async function floorFiles(out: string): Promise<number> {
  return (await readFile(join(out, 'name-status'), 'utf8')).split('\0').filter((t) => /^[ACDMRT]/.test(t))
    .length;
}

function porcelainContestant(outRoot: string): Contestant {
  return {
    name: 'porcelain',
    async iterate(repo, rep, work) {
      const b = await timed(() => porcelainBefore(repo.dir));
      const w = await work(`porcelain-${rep}`);
      const a = await timed(() => porcelainAfter(repo.dir, b.value, join(outRoot, `porcelain-${rep}`), 1));
      return { ms: b.ms + a.ms, split: [b.ms, a.ms], files: a.value, gitProcesses: 8, created: w.created };
    },
  };
}

/** Runs the iteration case for every size; returns nothing, adds rows to `bench`. */
export async function iterationCase(bench: Bench): Promise<void> {
  for (const size of bench.sizes) {
    const repo = await ensureRepo(size, bench.log);
    resetRepo(repo);
    const home = await scratch(`home-iter-${size}`);
    const out = await scratch(`out-iter-${size}`);
    const served = serveContestant(home);
    const contestants = [
      libraryContestant(home),
      cliContestant(home),
      served,
      floorContestant(),
      porcelainContestant(out),
    ];
    const samples: Record<string, number[]> = Object.fromEntries(contestants.map((c) => [c.name, []]));
    const procs: Record<string, number | null> = {};
    const splits: Record<string, Array<[number, number]>> = {};
    bench.log(
      `iteration @ ${size} files: ${bench.reps} repetitions of ${contestants.map((c) => c.name).join(', ')}`,
    );
    // One untimed warm-up round so that the first contestant does not pay for a cold page cache.
    for (let rep = -1; rep < bench.reps; rep++) {
      for (const c of rotate(contestants, rep)) {
        const result = await c.iterate(repo, rep, (nonce) => applyWorkload(repo, `${nonce}-${size}`));
        resetRepo(repo, result.created);
        if (result.files !== WORKLOAD_FILES)
          throw new Error(
            `${c.name} reported ${result.files} changed files at ${size} files, expected ${WORKLOAD_FILES}`,
          );
        if (rep < 0) continue;
        samples[c.name]?.push(result.ms);
        procs[c.name] = result.gitProcesses;
        (splits[c.name] ??= []).push(result.split);
      }
    }
    await served.close();
    const split = (bench.facts.iterationSplit ??= {}) as Record<
      string,
      Record<string, { beforeMs: number; afterMs: number }>
    >;
    split[`${size} files`] = Object.fromEntries(
      Object.entries(splits).map(([name, pairs]) => [
        name,
        { beforeMs: round1(median(pairs.map((p) => p[0]))), afterMs: round1(median(pairs.map((p) => p[1]))) },
      ]),
    );
    addRows(bench, { case: 'iteration (before+after)', scale: `${size} files` }, samples, 'floor', {
      library: { gitProcesses: procs.library ?? null },
      floor: {
        gitProcesses: FLOOR_GIT_PROCESSES,
        note: 'before: add -A, write-tree, compare with HEAD^{tree}; after: add -A, write-tree, commit-tree, update-ref, diff-tree x3',
      },
      porcelain: {
        gitProcesses: procs.porcelain ?? null,
        note: 'simple-git status/add/commit/diffSummary/diff',
      },
      serve: {
        gitProcesses: null,
        note: 'one `serve` process started once (untimed); before and after as JSON-line requests',
      },
    });
  }
}

/** Repository size of the change-size case. */
const CHANGE_REPO_FILES = 10_000;

/**
 * How the cost grows with the size of the change: the library and the floor on the same
 * repository with 10, 100, 1,000 and 5,000 modified files.
 */
export async function changeSizeCase(bench: Bench): Promise<void> {
  const repo = await ensureRepo(CHANGE_REPO_FILES, bench.log);
  resetRepo(repo);
  const home = await scratch('home-change');
  const contestants = [libraryContestant(home), floorContestant()];
  for (const changed of [10, 100, 1000, 5000]) {
    const samples: Record<string, number[]> = { library: [], floor: [] };
    bench.log(`change size: ${changed} modified files @ ${CHANGE_REPO_FILES} files`);
    for (let rep = -1; rep < bench.reps; rep++) {
      for (const c of rotate(contestants, rep)) {
        const work = async (nonce: string): Promise<Workload> => {
          const modified = await modifyFiles(repo, changed, `${nonce}-${changed}`);
          return { modified, added: [], deleted: [], renamed: [], binary: [], created: [] };
        };
        const result = await c.iterate(repo, rep + 1000 * changed, work);
        resetRepo(repo, result.created);
        if (result.files !== changed)
          throw new Error(`${c.name} reported ${result.files} changed files, expected ${changed}`);
        if (rep >= 0) samples[c.name]?.push(result.ms);
      }
    }
    addRows(
      bench,
      { case: 'iteration by change size', scale: `${changed} of ${CHANGE_REPO_FILES} files` },
      samples,
      'floor',
    );
  }
}

/** One `iterate` through the CLI, the agent given as an argument list; resolves to what it printed (JSON). */
export function cliIterate(
  dir: string,
  home: string,
  runId: string,
  iteration: number,
  agent: readonly string[],
  options: readonly string[] = [],
): Promise<string> {
  return run(
    CLI,
    [
      'iterate',
      '--run',
      runId,
      '--iteration',
      String(iteration),
      ...options,
      '-C',
      dir,
      '--home',
      home,
      '--json',
      '--',
      ...agent,
    ],
    { env: { ...process.env, NO_COLOR: '1' } },
  );
}

function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/**
 * `iterate` against the floor with the same agent program (bench/agent.mjs applying one workload
 * plan) run between the floor's two halves; the whole iteration is timed for both, interleaved in
 * rotating order. `node -e 0` runs in the same rounds: at small sizes the target is a number of
 * Node start-ups above the floor.
 */
export async function iterateCase(bench: Bench): Promise<void> {
  for (const size of bench.sizes) {
    const repo = await ensureRepo(size, bench.log);
    resetRepo(repo);
    const home = await scratch(`home-iterate-${size}`);
    const plans = await scratch(`plans-iterate-${size}`);
    const names = ['iterate', 'floor+agent', 'ideal Node iterate', 'node -e 0'] as const;
    const samples: Record<string, number[]> = Object.fromEntries(names.map((n) => [n, []]));
    bench.log(`iterate @ ${size} files: ${bench.reps} repetitions of ${names.join(', ')}`);
    for (let rep = -1; rep < bench.reps; rep++) {
      for (const name of rotate(names, rep + 1)) {
        if (name === 'node -e 0') {
          const { ms } = await timed(() => run(process.execPath, ['-e', '0']));
          if (rep >= 0) samples[name]?.push(ms);
          continue;
        }
        const nonce = `${{ iterate: 'it', 'floor+agent': 'fl', 'ideal Node iterate': 'id' }[name]}-${rep}-${size}`;
        const { plan, workload } = workloadPlan(repo, nonce);
        const planFile = join(plans, `${nonce}.json`);
        await writeFile(planFile, JSON.stringify(plan));
        const agent = [process.execPath, AGENT, planFile];
        const out = await scratch(`floor-agent-out-${rep}`);
        const { ms, value: files } = await timed(async () => {
          if (name === 'iterate') {
            const printed = await cliIterate(repo.dir, home, `iterate-${rep}`, 1, agent, [
              '--task',
              'bench task',
              '--gate',
              'bench gate',
            ]);
            return (JSON.parse(printed) as { filesChanged: number }).filesChanged;
          }
          if (name === 'ideal Node iterate') {
            await run(process.execPath, [IDEAL_ITERATE, repo.dir, out, ...agent], { env: gitEnv() });
            return floorFiles(out);
          }
          const before = await run('sh', [FLOOR_SCRIPT, 'before', repo.dir], { env: gitEnv() });
          await run(agent[0] as string, agent.slice(1), { cwd: repo.dir });
          await run('sh', [FLOOR_SCRIPT, 'after', repo.dir, before.trim(), out], { env: gitEnv() });
          return floorFiles(out);
        });
        resetRepo(repo, workload.created);
        if (files !== WORKLOAD_FILES)
          throw new Error(
            `${name} reported ${files} changed files at ${size} files, expected ${WORKLOAD_FILES}`,
          );
        if (rep >= 0) samples[name]?.push(ms);
      }
    }
    addRows(bench, { case: 'iterate (before+agent+after)', scale: `${size} files` }, samples, 'floor+agent', {
      iterate: { note: 'one CLI process: before, the agent (node bench/agent.mjs PLAN), after' },
      'floor+agent': { note: 'floor.sh before; node bench/agent.mjs PLAN; floor.sh after' },
      'ideal Node iterate': {
        note: "node bench/ideal-iterate.mjs: the floor's git commands and the agent, spawned from Node, nothing else",
      },
      'node -e 0': { note: 'a bare Node start-up, in the same rounds' },
    });
    // Per repetition: how many bare Node start-ups iterate (and the ideal Node iterate) spend above the floor.
    const startupsAbove = (name: (typeof names)[number]) =>
      median(
        (samples[name] ?? []).map(
          (ms, i) => (ms - (samples['floor+agent']?.[i] ?? 0)) / (samples['node -e 0']?.[i] ?? Number.NaN),
        ),
      );
    const startups = (bench.facts.iterateStartupsAboveFloor ??= {}) as Record<string, number>;
    startups[`${size} files`] = Math.round(startupsAbove('iterate') * 100) / 100;
    const ideal = (bench.facts.idealIterateStartupsAboveFloor ??= {}) as Record<string, number>;
    ideal[`${size} files`] = Math.round(startupsAbove('ideal Node iterate') * 100) / 100;
  }
}
