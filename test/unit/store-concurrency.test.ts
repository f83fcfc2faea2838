import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import { finished, printed, spawnTs } from '../helpers/node-child.js';
import { tempHome } from '../helpers/store-fixtures.js';

let home: string;
beforeEach(() => {
  home = tempHome();
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

it('8 processes x 10 links into one run lose nothing and stay ordered by iteration', async () => {
  const children = 8;
  const count = 10;
  const go = join(home, 'go');
  const procs = Array.from({ length: children }, (_, index) =>
    spawnTs('link-child.ts', [home, 'shared', String(index), String(children), String(count), go]),
  );
  const results = procs.map(finished);
  await Promise.all(procs.map((child) => printed(child, 'ready')));
  writeFileSync(go, '');
  for (const result of await Promise.all(results)) expect(result.code, result.stderr).toBe(0);

  const store = new SnapshotStore(home);
  const expected = Array.from({ length: children * count }, (_, iteration) => `s-${iteration}`);
  expect((await store.loadRun('shared'))?.snapshotIds).toEqual(expected);
  expect((await store.loadByRun('shared')).map((s) => s.iteration)).toEqual(expected.map((_, i) => i));
});
