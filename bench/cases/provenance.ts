// Case "provenance" (issue 27, item 8):
//   anchor: a squash commit that changes FILES files, against a store of RUNS runs (one made the
//     change in 3 iterations, the others changed other files), at two repository sizes: the
//     cost must follow the files changed and the runs, not the repository (CLI `anchor --json`);
//   trace: a LINES-line file written over 50 iterations of one run, merged by fast-forward:
//     CLI `trace --json`, the library, and Node spawning blame, against `git blame --porcelain`
//     of the same file, interleaved (provenance-trace.ts);
//   memory: peak resident memory of `anchor` on the largest repository.
// Scale: AGENTGATE_BENCH_PROVENANCE=files,runs,lines (default 1000,200,5000), sizes from
// AGENTGATE_BENCH_SIZES (largest and smallest). Histories come from one fast-import each; the
// store's snapshots are written as JSON, as `after` writes them.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Snapshot } from '../../types/snapshot.js';
import type { RunRecord } from '../../types/run.js';
import { git, gitEnv } from '../git.js';
import { addRows, scratch, timed, type Bench } from '../results.js';
import { CLI } from './iteration.js';
import { measure } from './memory.js';
import { traceRounds } from './provenance-trace.js';

interface Scale {
  files: number;
  runs: number;
  lines: number;
}

function scale(): Scale {
  const [files = 1000, runs = 200, lines = 5000] = (process.env.AGENTGATE_BENCH_PROVENANCE ?? '')
    .split(',')
    .filter(Boolean)
    .map(Number);
  return { files, runs, lines };
}

const body = (tag: string, n: number): string =>
  Array.from({ length: n }, (_, i) => `${tag} ${i}\n`).join('');

/** fast-import: a base of `size` files on main, then one branch per run; returns the commits of each run (base first). */
export function history(dir: string, size: number, s: Scale): Map<string, string[]> {
  git(dir, ['init', '-q', '-b', 'main']);
  const out: string[] = [];
  let mark = 0;
  let when = 1_700_000_000;
  const commit = (ref: string, from: string | null, files: Array<[string, string]>): number => {
    mark += 1;
    out.push(
      `commit ${ref}`,
      `mark :${mark}`,
      `committer bench <bench@localhost> ${when++} +0000`,
      'data 1',
      'c',
    );
    if (from !== null) out.push(`from ${from}`);
    for (const [path, text] of files)
      out.push(`M 100644 inline ${path}`, `data ${Buffer.byteLength(text)}`, text);
    return mark;
  };
  const base = commit(
    'refs/heads/main',
    null,
    Array.from({ length: size }, (_, i) => [`src/d${i % 100}/f${i}.txt`, body(`base ${i}`, 20)]),
  );
  const marks = new Map<string, number[]>();
  // Run 0 changes `files` base files over 3 iterations; every other run changes 5 files of its own.
  let prev = base;
  const chain = [base];
  for (let it = 1; it <= 3; it++) {
    prev = commit(
      'refs/heads/run-0',
      `:${prev}`,
      Array.from({ length: Math.ceil(s.files / 3) }, (_, k) => {
        const i = ((it - 1) * Math.ceil(s.files / 3) + k) % size;
        return [`src/d${i % 100}/f${i}.txt`, `${body(`base ${i}`, 20)}${body(`run0 it${it} ${i}`, 5)}`] as [
          string,
          string,
        ];
      }),
    );
    chain.push(prev);
  }
  marks.set('run-0', chain);
  for (let r = 1; r < s.runs; r++) {
    const m = commit(
      `refs/heads/run-${r}`,
      `:${base}`,
      Array.from({ length: 5 }, (_, k) => [`other/r${r}/g${k}.txt`, body(`run ${r}`, 10)]),
    );
    marks.set(`run-${r}`, [base, m]);
  }
  // The trace file: LINES lines written over 50 iterations of run "trace" (on main: a fast-forward).
  prev = base;
  const tchain = [base];
  const lines = Array.from({ length: s.lines }, (_, i) => `line ${i} base`);
  for (let it = 1; it <= 50; it++) {
    for (let i = it - 1; i < s.lines; i += 50) lines[i] = `line ${i} by iteration ${it}`;
    prev = commit('refs/heads/trace', `:${prev}`, [['trace/big.txt', `${lines.join('\n')}\n`]]);
    tchain.push(prev);
  }
  marks.set('trace', tchain);
  git(dir, ['fast-import', '--quiet', `--export-marks=${join(dir, '.git', 'marks')}`], {
    input: `${out.join('\n')}\n`,
  });
  const ids = new Map(readMarks(dir));
  git(dir, ['reset', '-q', '--hard', 'main']);
  return new Map([...marks].map(([run, ms]) => [run, ms.map((m) => ids.get(m) as string)]));
}

function readMarks(dir: string): Array<[number, string]> {
  return readFileSync(join(dir, '.git', 'marks'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => {
      const [m, sha] = l.split(' ');
      return [Number((m as string).slice(1)), sha as string];
    });
}

/** One snapshot JSON per iteration of each run, and the run's record, as `after` writes them. */
export function store(home: string, dir: string, runs: Map<string, string[]>): void {
  mkdirSync(join(home, 'snapshots'), { recursive: true });
  mkdirSync(join(home, 'runs'), { recursive: true });
  for (const [runId, chain] of runs) {
    const at = new Date(1_700_000_000_000).toISOString();
    const record: RunRecord = {
      runId,
      workspace: dir,
      createdAt: at,
      updatedAt: at,
      before: null,
      snapshotIds: chain.slice(1).map((_, i) => `${runId}-it${i + 1}`),
    };
    writeFileSync(join(home, 'runs', `${runId}.json`), JSON.stringify(record));
    for (let i = 1; i < chain.length; i++) {
      const files = git(dir, [
        'diff-tree',
        '-r',
        '--name-only',
        '-z',
        chain[i - 1] as string,
        chain[i] as string,
      ])
        .split('\0')
        .filter(Boolean);
      const s: Snapshot = {
        id: `${runId}-it${i}`,
        runId,
        iteration: i,
        beforeSha: chain[i - 1] as string,
        afterSha: chain[i] as string,
        branch: runId,
        commitMessage: '',
        patchPath: null,
        patchSha256: null,
        filesChanged: files.length,
        insertions: 0,
        deletions: 0,
        createdAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
        files: files.map((path) => ({
          path,
          oldPath: null,
          status: 'modified',
          insertions: 0,
          deletions: 0,
          binary: false,
        })),
        workspace: dir,
        ref: null,
      };
      writeFileSync(join(home, 'snapshots', `${s.id}.json`), JSON.stringify(s));
    }
  }
}

function cli(dir: string, home: string, args: string[]): void {
  const res = spawnSync(process.execPath, [CLI, '-C', dir, '--home', home, ...args, '--json'], {
    env: gitEnv(),
    maxBuffer: 1 << 30,
  });
  if (res.status !== 0) throw new Error(`${args.join(' ')} failed: ${res.stdout}${res.stderr}`);
}

export async function provenanceCase(bench: Bench): Promise<void> {
  const s = scale();
  const sizes = [...new Set([Math.min(...bench.sizes), Math.max(...bench.sizes)])];
  const samples: Record<string, number[]> = {};
  const gitDiff: Record<string, number[]> = {};
  let largest: { dir: string; home: string; squash: string } | null = null;
  for (const size of sizes) {
    const root = await scratch('provenance');
    const dir = join(root, 'repo');
    mkdirSync(dir);
    bench.log(`provenance: ${size} files, ${s.runs} runs, squash of ${s.files} files`);
    const runs = history(dir, size, s);
    const home = join(root, 'home');
    store(home, dir, runs);
    git(dir, ['merge', '--squash', '-q', 'run-0']);
    git(dir, ['commit', '-q', '-m', 'squash'], {});
    const squash = git(dir, ['rev-parse', 'HEAD']).trim();
    cli(dir, home, ['anchor', squash]); // warm-up
    const key = `anchor @ ${size} files`;
    // git's own diff of the squash, in the same rounds: what the change costs git at this size.
    const diffKey = `git diff-tree -r @ ${size} files`;
    samples[key] = [];
    gitDiff[diffKey] = [];
    for (let r = 0; r < bench.reps; r++) {
      samples[key].push((await timed(async () => cli(dir, home, ['anchor', squash]))).ms);
      gitDiff[diffKey].push(
        (await timed(async () => void git(dir, ['diff-tree', '-r', '--raw', `${squash}^`, squash]))).ms,
      );
    }
    largest = { dir, home, squash };
    if (size === Math.max(...sizes))
      await traceRounds(bench, dir, home, runs.get('trace')?.at(-1) as string, s.lines);
  }
  addRows(
    bench,
    { case: `anchor (squash of ${s.files} files)`, scale: `${s.runs} runs in the store` },
    samples,
    `anchor @ ${Math.min(...sizes)} files`,
  );
  addRows(
    bench,
    { case: `git's diff of the squash (${s.files} files)`, scale: 'the same repositories' },
    gitDiff,
    `git diff-tree -r @ ${Math.min(...sizes)} files`,
  );
  if (largest !== null) {
    const { peak } = await measure(
      process.execPath,
      [CLI, '-C', largest.dir, '--home', largest.home, 'anchor', largest.squash, '--json'],
      gitEnv(),
      null,
    );
    addRows(
      bench,
      { case: 'anchor peak memory', scale: `${Math.max(...sizes)} files`, unit: 'bytes' },
      { 'largest process': [peak.largestBytes ?? Number.NaN], tree: [peak.treeBytes] },
      null,
    );
  }
}
