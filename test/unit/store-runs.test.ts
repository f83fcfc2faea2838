import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreCorruptError } from '../../src/errors.js';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import type { Snapshot } from '../../types/snapshot.js';
import { makeBefore, makeSnapshot, SHA_B, tempHome } from '../helpers/store-fixtures.js';
import { codeOf } from '../helpers/codes.js';

let home: string;
let store: SnapshotStore;
beforeEach(() => {
  home = tempHome();
  store = new SnapshotStore(home);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const runFile = (runId: string) => join(home, 'runs', `${runId}.json`);
const snapshotFile = (id: string) => join(home, 'snapshots', `${id}.json`);

/** Saves and links one snapshot of `runId`. */
async function capture(runId: string, iteration: number, id = `${runId}-${iteration}`): Promise<Snapshot> {
  const snapshot = makeSnapshot({ runId, iteration, id });
  await store.save(snapshot);
  await store.linkSnapshot(runId, '/tmp/ws', id, iteration);
  return snapshot;
}

describe('recordBefore', () => {
  it('creates the run record at <home>/runs/<runId>.json and updates its before state later', async () => {
    const first = await store.recordBefore('run1', '/tmp/ws', makeBefore('run1'));
    expect(first).toMatchObject({
      runId: 'run1',
      workspace: '/tmp/ws',
      before: makeBefore('run1'),
      snapshotIds: [],
    });
    expect(JSON.parse(readFileSync(runFile('run1'), 'utf8'))).toEqual(first);

    await capture('run1', 1);
    await expect(store.recordBefore('run1', '/elsewhere', makeBefore('run1', SHA_B))).rejects.toMatchObject({
      code: 'RUN_WORKSPACE_MISMATCH',
    });
    const second = await store.recordBefore('run1', '/tmp/ws', makeBefore('run1', SHA_B));
    expect(second.before?.sha).toBe(SHA_B);
    expect(second.createdAt).toBe(first.createdAt);
    expect(second.workspace).toBe('/tmp/ws');
    expect(second.snapshotIds).toEqual(['run1-1']);
    expect(await new SnapshotStore(home).loadRun('run1')).toEqual(second);
  });

  it('refuses an invalid before state, or one of another run, with INVALID_ARGUMENT', async () => {
    expect(await codeOf(store.recordBefore('run1', '/tmp/ws', { ...makeBefore('run1'), sha: 'HEAD' }))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(await codeOf(store.recordBefore('run1', '/tmp/ws', makeBefore('run2')))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(store.recordBefore('run1', '', makeBefore('run1')))).toBe('INVALID_ARGUMENT');
    expect(existsSync(runFile('run1'))).toBe(false);
  });
});

describe('linkSnapshot and loadByRun', () => {
  it('keeps links ordered by iteration whatever the order of linking; loadByRun returns them in order', async () => {
    for (const iteration of [3, 1, 4, 0, 2]) await capture('run1', iteration);
    expect((await store.loadRun('run1'))?.snapshotIds).toEqual([
      'run1-0',
      'run1-1',
      'run1-2',
      'run1-3',
      'run1-4',
    ]);
    expect((await store.loadByRun('run1')).map((s) => s.iteration)).toEqual([0, 1, 2, 3, 4]);
  });

  it('is idempotent, and a re-captured iteration keeps both snapshots (older first)', async () => {
    await capture('run1', 1);
    await capture('run1', 2);
    await store.linkSnapshot('run1', '/tmp/ws', 'run1-1', 1);
    await capture('run1', 1, 'run1-1-retry');
    expect((await store.loadRun('run1'))?.snapshotIds).toEqual(['run1-1', 'run1-1-retry', 'run1-2']);
  });

  it('links only stored snapshots of the same run and iteration', async () => {
    expect(await codeOf(store.linkSnapshot('run1', '/tmp/ws', 'never-saved', 1))).toBe('SNAPSHOT_NOT_FOUND');
    await store.save(makeSnapshot({ runId: 'run2', iteration: 1, id: 'other' }));
    expect(await codeOf(store.linkSnapshot('run1', '/tmp/ws', 'other', 1))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(store.linkSnapshot('run2', '/tmp/ws', 'other', 5))).toBe('INVALID_ARGUMENT');
    expect(existsSync(join(home, 'runs'))).toBe(false);
  });

  it('RUN_NOT_FOUND for a run without a record', async () => {
    expect(await codeOf(store.loadByRun('ghost'))).toBe('RUN_NOT_FOUND');
    expect(await store.loadRun('ghost')).toBeNull();
  });

  it('a link to a missing snapshot: loadByRun is STORE_CORRUPT naming the run file; inspectRun returns the rest', async () => {
    await capture('run1', 1);
    await capture('run1', 2);
    await capture('run1', 3);
    rmSync(snapshotFile('run1-2'));
    const error = (await store.loadByRun('run1').catch((e: unknown) => e)) as StoreCorruptError;
    expect(error.code).toBe('STORE_CORRUPT');
    expect(error.details).toMatchObject({
      path: runFile('run1'),
      snapshotId: 'run1-2',
      missing: snapshotFile('run1-2'),
    });

    const contents = await store.inspectRun('run1');
    expect(contents.snapshots.map((s) => s.id)).toEqual(['run1-1', 'run1-3']);
    expect(contents.problems.map((p) => p.code)).toEqual(['STORE_CORRUPT']);
  });

  it('a corrupt linked snapshot is reported with the snapshot file', async () => {
    await capture('run1', 1);
    writeFileSync(snapshotFile('run1-1'), '{"id":');
    const error = (await store.loadByRun('run1').catch((e: unknown) => e)) as StoreCorruptError;
    expect(error.code).toBe('STORE_CORRUPT');
    expect(error.details.path).toBe(snapshotFile('run1-1'));
  });

  it('never overwrites a corrupt run record: linking and recording refuse with STORE_CORRUPT', async () => {
    await capture('run1', 1);
    writeFileSync(runFile('run1'), '{"runId": "run1", "snapshotIds": [');
    await store.save(makeSnapshot({ runId: 'run1', iteration: 2, id: 'run1-2' }));
    expect(await codeOf(store.linkSnapshot('run1', '/tmp/ws', 'run1-2', 2))).toBe('STORE_CORRUPT');
    expect(await codeOf(store.recordBefore('run1', '/tmp/ws', makeBefore('run1')))).toBe('STORE_CORRUPT');
    expect(await codeOf(store.loadRun('run1'))).toBe('STORE_CORRUPT');
    expect(readFileSync(runFile('run1'), 'utf8')).toBe('{"runId": "run1", "snapshotIds": [');
  });
});

describe('listRuns', () => {
  it('returns the good records and one problem per corrupt file', async () => {
    await capture('run1', 1);
    await store.recordBefore('run2', '/tmp/ws', makeBefore('run2'));
    writeFileSync(runFile('broken'), '[]');
    writeFileSync(runFile('renamed'), JSON.stringify(await store.loadRun('run1')));
    const { runs, problems } = await store.listRuns();
    expect(runs.map((r) => r.runId).sort()).toEqual(['run1', 'run2']);
    expect(problems.map((p) => [p.code, p.details.path])).toEqual([
      ['STORE_CORRUPT', runFile('broken')],
      ['STORE_CORRUPT', runFile('renamed')],
    ]);
  });

  it('listRunsStrict: every record, or STORE_CORRUPT naming the first damaged file', async () => {
    await capture('run1', 1);
    await store.recordBefore('run2', '/tmp/ws', makeBefore('run2'));
    expect((await store.listRunsStrict()).map((r) => r.runId)).toEqual(['run1', 'run2']);
    writeFileSync(runFile('run2'), '{');
    writeFileSync(runFile('run3'), '[]');
    const error = (await store.listRunsStrict().catch((e: unknown) => e)) as StoreCorruptError;
    expect([error.code, error.details.path]).toEqual(['STORE_CORRUPT', runFile('run2')]);
  });

  it('a directory named like a record is none of ours: not listed, not damage', async () => {
    await capture('run1', 1);
    mkdirSync(runFile('stray'));
    expect((await store.listRunsStrict()).map((r) => r.runId)).toEqual(['run1']);
  });
});

describe('delete', () => {
  it('removes the snapshot file and its link from the run; SNAPSHOT_NOT_FOUND afterwards', async () => {
    await capture('run1', 1);
    await capture('run1', 2);
    expect(await store.delete('run1-1')).toEqual({ id: 'run1-1', removedFile: true, unlinkedFrom: ['run1'] });
    expect(existsSync(snapshotFile('run1-1'))).toBe(false);
    expect((await store.loadRun('run1'))?.snapshotIds).toEqual(['run1-2']);
    expect((await store.loadByRun('run1')).map((s) => s.id)).toEqual(['run1-2']);
    expect(await codeOf(store.delete('run1-1'))).toBe('SNAPSHOT_NOT_FOUND');
  });

  it('removes an unlinked snapshot file', async () => {
    await store.save(makeSnapshot({ id: 'loose' }));
    expect(await store.delete('loose')).toEqual({ id: 'loose', removedFile: true, unlinkedFrom: [] });
  });

  it('repairs a dangling link when the snapshot file is already gone', async () => {
    await capture('run1', 1);
    await capture('run1', 2);
    rmSync(snapshotFile('run1-1'));
    expect(await store.delete('run1-1')).toEqual({
      id: 'run1-1',
      removedFile: false,
      unlinkedFrom: ['run1'],
    });
    expect((await store.loadByRun('run1')).map((s) => s.id)).toEqual(['run1-2']);
  });

  it('removes a corrupt snapshot file and its link', async () => {
    await capture('run1', 1);
    writeFileSync(snapshotFile('run1-1'), 'garbage');
    expect(await store.delete('run1-1')).toEqual({ id: 'run1-1', removedFile: true, unlinkedFrom: ['run1'] });
    expect(await store.list()).toEqual({ snapshots: [], problems: [] });
  });
});
