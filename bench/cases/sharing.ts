// Case "sharing": push, fetch and rebuild of a run of 100 iterations and of 1,000 one-iteration
// runs, in git processes and milliseconds; then the same again with nothing new, and with one new
// iteration or run. The history and the store are written directly (fast-import, JSON files);
// push and fetch go through the library (src/sharing) as the CLI does.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import { RunRecord } from '../../types/run.js';
import { Snapshot } from '../../types/snapshot.js';
import { gitCallCount } from '../../src/git/runner.js';
import { PATCH_ARGS } from '../../src/git/unified-diff.js';
import { Sharing } from '../../src/sharing/sharing.js';
import { git } from '../git.js';
import { addRows, scratch, timed, type Bench } from '../results.js';

interface Shape {
  scale: string;
  /** Run id and iteration of the i-th snapshot. */
  at: (i: number) => { runId: string; iteration: number };
  count: number;
}

const SHAPES: Shape[] = [
  { scale: '1 run of 100 iterations', count: 100, at: (i) => ({ runId: 'long-run', iteration: i }) },
  {
    scale: '1000 runs of 1 iteration',
    count: 1000,
    at: (i) => ({ runId: `run-${String(i).padStart(4, '0')}`, iteration: 0 }),
  },
];

interface Machine {
  dir: string;
  home: string;
  share: Sharing;
}

function machine(root: string, name: string, origin: string): Machine {
  const dir = join(root, name);
  git(root, ['clone', '-q', origin, dir]);
  const home = join(root, `${name}-home`);
  const share = new Sharing({
    home,
    artifactsDir: join(home, 'artifacts'),
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 600_000,
    lockTimeoutMs: 60_000,
  });
  return { dir: realpathSync(dir), home, share };
}

/** Commits `count` changes on A (one fast-import), and writes their snapshots, runs and patch artifacts into A's home. */
function capture(a: Machine, shape: Shape, from: number, count: number): void {
  const base = git(a.dir, ['rev-parse', 'HEAD']).trim();
  const stream: string[] = [];
  for (let i = from; i < from + count; i++) {
    const body = `change ${i}\n`;
    stream.push(
      'commit refs/heads/main',
      `mark :${i + 1}`,
      `committer bench <bench@localhost> ${1_700_000_000 + i} +0000`,
      'data 7',
      'change',
      ...(i === from ? [`from ${base}`] : []),
      `M 100644 inline work/file-${i}.txt`,
      `data ${Buffer.byteLength(body)}`,
      body,
    );
  }
  git(a.dir, ['fast-import', '--quiet', '--force'], { input: `${stream.join('\n')}\n` });
  git(a.dir, ['reset', '-q', '--hard', 'main']);
  const shas = git(a.dir, ['rev-list', '--reverse', `-${count + 1}`, 'main'])
    .trim()
    .split('\n');
  const refs: string[] = [];
  const runs = new Map<string, { ids: string[]; createdAt: string }>();
  mkdirSync(join(a.home, 'snapshots'), { recursive: true });
  mkdirSync(join(a.home, 'runs'), { recursive: true });
  for (let k = 0; k < count; k++) {
    const i = from + k;
    const { runId, iteration } = shape.at(i);
    const [beforeSha, afterSha] = [shas[k] as string, shas[k + 1] as string];
    const patchPath = join(a.home, 'artifacts', runId, `iteration-${iteration}`, 'patch.diff');
    mkdirSync(join(patchPath, '..'), { recursive: true });
    const patch = git(a.dir, [...PATCH_ARGS, beforeSha, afterSha]);
    writeFileSync(patchPath, patch);
    const createdAt = new Date((1_700_000_000 + i) * 1000).toISOString();
    const snapshot = Snapshot.parse({
      id: `snap-${String(i).padStart(6, '0')}`,
      runId,
      iteration,
      beforeSha,
      afterSha,
      branch: 'main',
      commitMessage: '',
      patchPath,
      patchSha256: createHash('sha256').update(patch).digest('hex'),
      filesChanged: 1,
      insertions: 1,
      deletions: 0,
      createdAt,
      files: [
        {
          path: `work/file-${i}.txt`,
          oldPath: null,
          status: 'added',
          insertions: 1,
          deletions: 0,
          binary: false,
        },
      ],
      workspace: a.dir,
      ref: `refs/agentgate/runs/${runId}/iteration-${iteration}`,
      task: `bench task ${i}`,
      gate: 'npm test',
    });
    writeFileSync(join(a.home, 'snapshots', `${snapshot.id}.json`), JSON.stringify(snapshot, null, 2));
    refs.push(`update ${snapshot.ref} ${afterSha}`);
    const run = runs.get(runId) ?? { ids: [], createdAt };
    run.ids.push(snapshot.id);
    runs.set(runId, run);
  }
  git(a.dir, ['update-ref', '--stdin'], { input: `${refs.join('\n')}\n` });
  for (const [runId, run] of runs) {
    const path = join(a.home, 'runs', `${runId}.json`);
    const ids = existsSync(path)
      ? [...RunRecord.parse(JSON.parse(readFileSync(path, 'utf8'))).snapshotIds, ...run.ids]
      : run.ids;
    const record = RunRecord.parse({
      runId,
      workspace: a.dir,
      createdAt: run.createdAt,
      updatedAt: run.createdAt,
      before: null,
      snapshotIds: ids,
    });
    writeFileSync(path, JSON.stringify(record, null, 2));
  }
}

/** git processes and milliseconds of one call. */
async function measure<T>(fn: () => Promise<T>): Promise<{ ms: number; processes: number; value: T }> {
  const before = gitCallCount();
  const t = await timed(fn);
  return { ms: t.ms, processes: gitCallCount() - before, value: t.value };
}

export async function sharingCase(bench: Bench): Promise<void> {
  const facts: Record<string, Record<string, { ms: number; gitProcesses: number }>> = {};
  for (const shape of SHAPES) {
    bench.log(`sharing: ${shape.scale}: writing the history and the store`);
    const root = await scratch('sharing');
    const origin = join(root, 'origin.git');
    git(root, ['init', '-q', '--bare', '-b', 'main', origin]);
    const seed = join(root, 'seed');
    git(root, ['init', '-q', '-b', 'main', seed]);
    writeFileSync(join(seed, 'README.md'), 'bench\n');
    git(seed, ['add', '-A']);
    git(seed, ['commit', '-q', '-m', 'initial']);
    git(seed, ['push', '-q', origin, 'main']);
    const a = machine(root, 'a', origin);
    const b = machine(root, 'b', origin);
    capture(a, shape, 0, shape.count);
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['push, all new', () => a.share.push({ workspace: a.dir, all: true })],
      ['push, nothing new', () => a.share.push({ workspace: a.dir, all: true })],
      ['fetch + rebuild, all new', () => b.share.fetch({ workspace: b.dir })],
      ['fetch, nothing new', () => b.share.fetch({ workspace: b.dir })],
      ['capture one more', async () => capture(a, shape, shape.count, 1)],
      ['push, 1 new', () => a.share.push({ workspace: a.dir, all: true })],
      ['fetch + rebuild, 1 new', () => b.share.fetch({ workspace: b.dir })],
    ];
    const samples: Record<string, number[]> = {};
    const extra: Record<string, { gitProcesses: number; note?: string }> = {};
    facts[shape.scale] = {};
    for (const [name, step] of steps) {
      const m = await measure(step);
      if (name === 'capture one more') continue;
      bench.log(`sharing: ${shape.scale}: ${name}: ${Math.round(m.ms)} ms, ${m.processes} git processes`);
      samples[name] = [m.ms];
      extra[name] = { gitProcesses: m.processes, note: 'one sample' };
      (facts[shape.scale] as Record<string, { ms: number; gitProcesses: number }>)[name] = {
        ms: Math.round(m.ms),
        gitProcesses: m.processes,
      };
    }
    const fetched = (await b.share.fetch({ workspace: b.dir })).unchanged;
    if (fetched !== shape.count + 1)
      throw new Error(`sharing bench: B holds ${fetched} records, expected ${shape.count + 1}`);
    addRows(bench, { case: 'sharing', scale: shape.scale }, samples, 'push, all new', extra);
  }
  bench.facts.sharing = facts;
}
