// Cases 1-4: one agent iteration (before, the agent's work, after) by the library, the CLI, the
// shell floor and the simple-git porcelain version, side by side on the same repository, in an
// order that rotates every repetition. Only before and after are timed; the workload between them
// and the reset after them are not.
import { readFile } from 'node:fs/promises';
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
  type Workload,
} from '../repos.js';
import { addRows, scratch, timed, type Bench } from '../results.js';

export const FLOOR_SCRIPT = fileURLToPath(new URL('../floor.sh', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/bin/agentgate-snapshot.js', import.meta.url));

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

function libraryContestant(home: string): Contestant {
  const snapshotter = new Snapshotter({
    home,
    artifactsDir: join(home, 'artifacts'),
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 600_000,
    lockTimeoutMs: 60_000,
    onDirty: 'wip-commit',
  });
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
    run(process.execPath, [CLI, ...args, '--home', home, '--json'], {
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

/** The floor script; `withStatus` adds the dirty check (one `git status`) to the before step. */
function floorContestant(withStatus = false): Contestant {
  return {
    name: withStatus ? 'floor+status' : 'floor',
    async iterate(repo, rep, work) {
      const out = await scratch(`floor-out-${rep}`);
      const b = await timed(() =>
        run('sh', [FLOOR_SCRIPT, withStatus ? 'before-status' : 'before', repo.dir]),
      );
      const w = await work(`${withStatus ? 'floors' : 'floor'}-${rep}`);
      const a = await timed(() =>
        run('sh', [FLOOR_SCRIPT, 'after', repo.dir, b.value.trim(), out], { env: gitEnv() }),
      );
      const files = (await readFile(join(out, 'name-status'), 'utf8'))
        .split('\0')
        .filter((t) => /^[ACDMRT]/.test(t)).length;
      return {
        ms: b.ms + a.ms,
        split: [b.ms, a.ms],
        files,
        gitProcesses: withStatus ? 9 : 8,
        created: w.created,
      };
    },
  };
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
      floorContestant(true),
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
        gitProcesses: 8,
        note: 'rev-parse; add -A, write-tree, commit-tree, update-ref, diff-tree x3',
      },
      'floor+status': { gitProcesses: 9, note: 'the floor plus one git status in before (the dirty check)' },
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

function round1(ms: number): number {
  return Math.round(ms * 10) / 10;
}
