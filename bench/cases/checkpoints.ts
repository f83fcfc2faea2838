// Cases 5-7: checkpoint track against its floor, diffFull against one `git show` per file, and
// revert of 300 files with the number of git processes it starts.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { gitCallCount } from '../../src/git/runner.js';
import { git, gitEnv, run } from '../git.js';
import { rotate } from '../measure.js';
import { applyWorkload, ensureRepo, modifyFiles, resetRepo, type BenchRepo } from '../repos.js';
import { addRows, scratch, timed, type Bench } from '../results.js';
import { FLOOR_SCRIPT } from './iteration.js';

/** The repository diffFull and revert work on (cached like the others; big enough for 1,000 changed files). */
const EDIT_REPO_FILES = 10_000;

async function floorTrack(repo: BenchRepo, gitDir: string): Promise<string> {
  return (await run('sh', [FLOOR_SCRIPT, 'track', repo.dir, gitDir], { env: gitEnv() })).trim();
}

/** Case 5: a checkpoint after one workload, on a store that already holds the previous state (its index is warm). */
export async function trackCase(bench: Bench): Promise<void> {
  for (const size of bench.sizes) {
    const repo = await ensureRepo(size, bench.log);
    resetRepo(repo);
    const home = await scratch(`home-track-${size}`);
    const floorDir = join(await scratch(`floor-track-${size}`), 'git');
    git(repo.dir, ['init', '-q', '--bare', floorDir]);
    // First capture of each store: every file is hashed. Timed once, reported apart.
    const first = {
      library: (await timed(async () => (await Checkpoints.open(repo.dir, { home })).track('first'))).ms,
      floor: (await timed(() => floorTrack(repo, floorDir))).ms,
    };
    addRows(
      bench,
      { case: 'checkpoint first track (cold store)', scale: `${size} files` },
      { library: [first.library], floor: [first.floor] },
      'floor',
    );
    const samples: Record<string, number[]> = { library: [], floor: [] };
    let procs: number | null = null;
    bench.log(`checkpoint track @ ${size} files: ${bench.reps} repetitions`);
    for (let rep = -1; rep < bench.reps; rep++) {
      for (const name of rotate(['library', 'floor'], rep)) {
        const w = await applyWorkload(repo, `track-${name}-${rep}`);
        const calls = gitCallCount();
        const t = await timed(async () =>
          name === 'library'
            ? (await (await Checkpoints.open(repo.dir, { home })).track()).hash
            : floorTrack(repo, floorDir),
        );
        if (name === 'library') procs = gitCallCount() - calls;
        resetRepo(repo, w.created);
        if (rep >= 0) samples[name]?.push(t.ms);
      }
    }
    addRows(bench, { case: 'checkpoint track', scale: `${size} files` }, samples, 'floor', {
      library: { gitProcesses: procs, note: 'Checkpoints.open + track' },
      floor: { gitProcesses: 3, note: 'add -A, write-tree, update-ref (private git dir + GIT_INDEX_FILE)' },
    });
  }
}

/** Case 6: per-file before/after contents of 1,000 changed files. */
export async function diffFullCase(bench: Bench): Promise<void> {
  const changed = 1000;
  const repo = await ensureRepo(EDIT_REPO_FILES, bench.log);
  resetRepo(repo);
  const home = await scratch('home-difffull');
  const cp = await Checkpoints.open(repo.dir, { home });
  const from = (await cp.track('from')).hash;
  await modifyFiles(repo, changed, 'difffull');
  const to = (await cp.track('to')).hash;
  const gitDir = cp.location.gitDir;
  bench.log(`diffFull of ${changed} files: ${bench.reps} repetitions`);
  const samples: Record<string, number[]> = { library: [], 'git show per file': [] };
  let procs: number | null = null;
  for (let rep = -1; rep < bench.reps; rep++) {
    for (const name of rotate(Object.keys(samples), rep)) {
      const calls = gitCallCount();
      const t = await timed(async () => {
        if (name === 'library') return (await cp.diffFull(from, to)).length;
        return (await showPerFile(repo, gitDir, from, to)).length;
      });
      if (name === 'library') procs = gitCallCount() - calls;
      if (t.value !== changed) throw new Error(`${name} returned ${t.value} files, expected ${changed}`);
      if (rep >= 0) samples[name]?.push(t.ms);
    }
  }
  resetRepo(repo, []);
  // The baseline is the reference here: the library's ratio is its share of the baseline's time.
  addRows(bench, { case: 'diffFull', scale: `${changed} changed files` }, samples, 'git show per file', {
    library: { gitProcesses: procs },
    'git show per file': {
      gitProcesses: changed + 1,
      note: 'diff-tree --name-only, then git show FROM:path per file; after side read from disk',
    },
  });
}

/** What most tools do: list the changed paths, then one `git show` per file for the old side, and the new side from disk. */
async function showPerFile(
  repo: BenchRepo,
  gitDir: string,
  from: string,
  to: string,
): Promise<Array<{ file: string; before: string; after: string }>> {
  const env = gitEnv({ GIT_DIR: gitDir, GIT_WORK_TREE: repo.dir });
  const names = (await run('git', ['diff-tree', '-r', '-z', '--name-only', from, to], { cwd: repo.dir, env }))
    .split('\0')
    .filter(Boolean);
  const out: Array<{ file: string; before: string; after: string }> = [];
  for (const file of names) {
    const before = await run('git', ['show', `${from}:${file}`], { cwd: repo.dir, env });
    out.push({ file, before, after: await readFile(join(repo.dir, file), 'utf8') });
  }
  return out;
}

/** Case 7: revert of 300 changed files to a checkpoint: time and git processes. */
export async function revertCase(bench: Bench): Promise<void> {
  const count = 300;
  const repo = await ensureRepo(EDIT_REPO_FILES, bench.log);
  resetRepo(repo);
  const home = await scratch('home-revert');
  const cp = await Checkpoints.open(repo.dir, { home });
  const target = (await cp.track('target')).hash;
  const samples: number[] = [];
  let procs = 0;
  bench.log(`revert of ${count} files: ${bench.reps} repetitions`);
  for (let rep = -1; rep < bench.reps; rep++) {
    const paths = await modifyFiles(repo, count, `revert-${rep}`);
    const calls = gitCallCount();
    const t = await timed(() => cp.revert(target));
    procs = Math.max(procs, gitCallCount() - calls);
    if (t.value.reverted.length !== count)
      throw new Error(`revert put back ${t.value.reverted.length} files, expected ${count}`);
    const sample = paths[0] as string;
    if ((await readFile(join(repo.dir, sample), 'utf8')).includes('edited revert-'))
      throw new Error(`revert left ${sample} modified`);
    if (rep >= 0) samples.push(t.ms);
  }
  resetRepo(repo, []);
  addRows(bench, { case: 'checkpoint revert', scale: `${count} files` }, { library: samples }, null, {
    library: { gitProcesses: procs, note: 'includes the safety checkpoint' },
  });
  bench.facts.revertGitProcesses = procs;
}
