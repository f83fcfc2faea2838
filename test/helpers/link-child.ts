/**
 * Child process for the concurrent-link test: LINK HOME RUN INDEX CHILDREN COUNT GO.
 * Prints "ready", waits for file GO, then saves and links COUNT snapshots whose iterations
 * interleave with the other children's (INDEX, INDEX + CHILDREN, ...).
 */
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import { makeSnapshot } from './store-fixtures.js';

const [home, runId, index, children, count, go] = process.argv.slice(2) as [
  string,
  string,
  string,
  string,
  string,
  string,
];
const store = new SnapshotStore(home, { lockTimeoutMs: 60_000 });
process.stdout.write('ready\n');
while (!existsSync(go)) await sleep(5);
for (let j = 0; j < Number(count); j++) {
  const iteration = j * Number(children) + Number(index);
  const snapshot = makeSnapshot({ runId, iteration, id: `s-${iteration}` });
  await store.save(snapshot);
  await store.linkSnapshot(runId, '/tmp/ws', snapshot.id, iteration);
}
