// Case 8: loadByRun for a 10-iteration run, in a store of 10 snapshots and in one of 10,000; and
// `list` (every snapshot, library and CLI) over 1,000 and 10,000 snapshots, which must grow no
// faster than the store.
// The store files are written directly, as JSON that the Snapshot and RunRecord schemas accept.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { run } from '../git.js';
import { CLI } from './iteration.js';
import { RunRecord } from '../../types/run.js';
import { Snapshot, type FileChange } from '../../types/snapshot.js';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import { rotate } from '../measure.js';
import { addRows, scratch, timed, type Bench } from '../results.js';

const RUN = 'bench-run';
const ITERATIONS = 10;
/** loadByRun calls per sample: one call is well under a millisecond, too short to time alone. */
const CALLS = 20;

function snapshotFor(i: number, runId: string, iteration: number): Snapshot {
  const hex = (n: number): string => n.toString(16).padStart(40, '0');
  const files: FileChange[] = Array.from({ length: 15 }, (_, k) => ({
    path: `src/pkg${k}/mod/file${i}-${k}.txt`,
    oldPath: null,
    status: 'modified',
    insertions: 2,
    deletions: 1,
    binary: false,
  }));
  return Snapshot.parse({
    id: `snap-${i.toString().padStart(6, '0')}`,
    runId,
    iteration,
    beforeSha: hex(2 * i + 1),
    afterSha: hex(2 * i + 2),
    branch: 'main',
    commitMessage: `[agentgate] Run ${runId} iteration ${iteration}\n\nTask: bench\nGate: bench\n`,
    patchPath: null,
    patchSha256: null,
    filesChanged: files.length,
    insertions: 30,
    deletions: 15,
    createdAt: new Date(1_700_000_000_000 + i * 1000).toISOString(),
    files,
    workspace: '/tmp/bench-workspace',
    ref: `refs/agentgate/runs/${runId}/iteration-${iteration}`,
  });
}

/** A home with `total` snapshots: the first 10 are RUN's iterations, the rest belong to runs of 10. */
async function writeStore(total: number): Promise<string> {
  const home = await scratch(`store-${total}`);
  await mkdir(join(home, 'snapshots'), { recursive: true });
  await mkdir(join(home, 'runs'), { recursive: true });
  const runs = new Map<string, string[]>();
  for (let i = 0; i < total; i++) {
    const runId = i < ITERATIONS ? RUN : `other-${Math.floor(i / ITERATIONS)}`;
    const s = snapshotFor(i, runId, i % ITERATIONS);
    await writeFile(join(home, 'snapshots', `${s.id}.json`), JSON.stringify(s, null, 2));
    runs.set(runId, [...(runs.get(runId) ?? []), s.id]);
  }
  const now = new Date(1_700_000_000_000).toISOString();
  for (const [runId, snapshotIds] of runs) {
    const record = RunRecord.parse({
      runId,
      workspace: '/tmp/bench-workspace',
      createdAt: now,
      updatedAt: now,
      before: null,
      snapshotIds,
    });
    await writeFile(join(home, 'runs', `${runId}.json`), JSON.stringify(record, null, 2));
  }
  return home;
}

export async function storeCase(bench: Bench): Promise<void> {
  const sizes = [10, 1000, 10_000];
  bench.log(`loadByRun: writing stores of ${sizes.join(' and ')} snapshots`);
  const stores = new Map<string, SnapshotStore>();
  for (const n of sizes) stores.set(`${n} snapshots`, new SnapshotStore(await writeStore(n)));
  const samples: Record<string, number[]> = Object.fromEntries([...stores.keys()].map((k) => [k, []]));
  for (let rep = -1; rep < bench.reps; rep++) {
    for (const name of rotate([...stores.keys()], rep)) {
      const store = stores.get(name) as SnapshotStore;
      const t = await timed(async () => {
        let n = 0;
        for (let k = 0; k < CALLS; k++) n = (await store.loadByRun(RUN)).length;
        return n;
      });
      if (t.value !== ITERATIONS)
        throw new Error(`loadByRun returned ${t.value} snapshots in the ${name} store`);
      if (rep >= 0) samples[name]?.push(t.ms / CALLS);
    }
  }
  for (const [name, values] of Object.entries(samples)) {
    if (name === '1000 snapshots') continue;
    addRows(bench, { case: 'store loadByRun (10-iteration run)', scale: name }, { library: values }, null);
  }
  await listCase(bench, stores);
}

/** `list` of the whole store: library (SnapshotStore.list) and the CLI (`list --json`, one process). */
async function listCase(bench: Bench, stores: Map<string, SnapshotStore>): Promise<void> {
  const listed = ['1000 snapshots', '10000 snapshots'];
  bench.log(`list: ${listed.join(' and ')} (library and CLI)`);
  const samples: Record<string, { library: number[]; cli: number[] }> = Object.fromEntries(
    listed.map((k) => [k, { library: [], cli: [] }]),
  );
  for (let rep = -1; rep < bench.reps; rep++) {
    for (const name of rotate(listed, rep)) {
      const store = stores.get(name) as SnapshotStore;
      const expected = Number(name.split(' ')[0]);
      const lib = await timed(async () => (await store.list()).snapshots.length);
      const cli = await timed(
        async () =>
          (JSON.parse(await run(CLI, ['list', '--json', '--home', store.home])) as unknown[]).length,
      );
      if (lib.value !== expected || cli.value !== expected)
        throw new Error(`list returned ${lib.value} / ${cli.value} snapshots in the ${name} store`);
      if (rep < 0) continue;
      samples[name]?.library.push(lib.ms);
      samples[name]?.cli.push(cli.ms);
    }
  }
  for (const [name, s] of Object.entries(samples))
    addRows(bench, { case: 'list (whole store)', scale: name }, s, null);
}
