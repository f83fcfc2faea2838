import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StoreCorruptError } from '../../src/errors.js';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import { makeBefore, makeSnapshot, SHA_A, tempHome } from '../helpers/store-fixtures.js';
import { codeOf } from '../helpers/codes.js';

let home: string;
let store: SnapshotStore;
beforeEach(() => {
  home = tempHome();
  store = new SnapshotStore(home);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const snapshotFile = (id: string) => join(home, 'snapshots', `${id}.json`);

describe('save and load', () => {
  it('round-trips a snapshot through <home>/snapshots/<id>.json', async () => {
    const snapshot = makeSnapshot();
    expect(await store.save(snapshot)).toEqual(snapshot);
    expect(await store.load(snapshot.id)).toEqual(snapshot);
    expect(JSON.parse(readFileSync(snapshotFile(snapshot.id), 'utf8'))).toEqual(snapshot);
  });

  it('survives a restart: a new store instance on the same home sees everything', async () => {
    const snapshot = makeSnapshot();
    await store.save(snapshot);
    await store.linkSnapshot('run1', '/tmp/ws', snapshot.id, 1);
    const reopened = new SnapshotStore(home);
    expect(await reopened.load(snapshot.id)).toEqual(snapshot);
    expect(await reopened.loadByRun('run1')).toEqual([snapshot]);
  });

  it('returns null for a snapshot that does not exist', async () => {
    expect(await store.load('nope')).toBeNull();
  });

  it('refuses an invalid snapshot with INVALID_ARGUMENT and writes nothing', async () => {
    const bad = { ...makeSnapshot(), afterSha: 'not-a-sha', insertions: -1 };
    expect(await codeOf(store.save(bad))).toBe('INVALID_ARGUMENT');
    expect(await codeOf(store.save({ ...makeSnapshot(), files: undefined } as never))).toBe(
      'INVALID_ARGUMENT',
    );
    expect(existsSync(join(home, 'snapshots'))).toBe(false);
  });

  it('saving the same snapshot again is a no-op; a different one under the same id is CONCURRENT_UPDATE', async () => {
    const snapshot = makeSnapshot();
    await store.save(snapshot);
    await store.save({ ...snapshot });
    const changed = { ...snapshot, commitMessage: 'something else' };
    expect(await codeOf(store.save(changed))).toBe('CONCURRENT_UPDATE');
    expect(await store.load(snapshot.id)).toEqual(snapshot);
    await store.save(changed, { replace: true });
    expect(await store.load(snapshot.id)).toEqual(changed);
  });
});

describe('corrupt files', () => {
  beforeEach(async () => {
    await store.save(makeSnapshot({ runId: 'good', iteration: 1, id: 'good-1' }));
    await store.save(makeSnapshot({ runId: 'good', iteration: 2, id: 'good-2' }));
  });

  const cases: Array<[string, string]> = [
    ['truncated JSON', JSON.stringify(makeSnapshot({ id: 'bad' })).slice(0, 40)],
    ['valid JSON of the wrong shape', JSON.stringify({ ...makeSnapshot({ id: 'bad' }), iteration: 'one' })],
    ['a file holding another id', JSON.stringify(makeSnapshot({ id: 'other' }))],
    ['an empty file', ''],
  ];
  it.each(cases)(
    '%s: load is STORE_CORRUPT naming the file; list still returns the good ones',
    async (_label, content) => {
      writeFileSync(snapshotFile('bad'), content);
      const error = (await store.load('bad').catch((e: unknown) => e)) as StoreCorruptError;
      expect(error.code).toBe('STORE_CORRUPT');
      expect(error.details.path).toBe(snapshotFile('bad'));
      expect(error.message).toContain(snapshotFile('bad'));

      const { snapshots, problems } = await store.list();
      expect(snapshots.map((s) => s.id)).toEqual(['good-1', 'good-2']);
      expect(problems.map((p) => [p.code, p.details.path])).toEqual([['STORE_CORRUPT', snapshotFile('bad')]]);
      const strict = (await store.listStrict().catch((e: unknown) => e)) as StoreCorruptError;
      expect([strict.code, strict.details.path]).toEqual(['STORE_CORRUPT', snapshotFile('bad')]);
    },
  );

  it('listStrict: every snapshot while every file loads', async () => {
    expect((await store.listStrict()).map((s) => s.id)).toEqual(['good-1', 'good-2']);
  });

  it('a directory named like a snapshot is none of ours: listings skip it; loading it by name is STORE_CORRUPT', async () => {
    mkdirSync(snapshotFile('dir'));
    expect(await codeOf(store.load('dir'))).toBe('STORE_CORRUPT');
    const { snapshots, problems } = await store.list();
    expect(snapshots).toHaveLength(2);
    expect(problems).toEqual([]);
  });

  it('ignores temp files and files with unsafe names are reported, not loaded', async () => {
    writeFileSync(join(home, 'snapshots', '.good-1.json.123.abc.tmp'), '{');
    writeFileSync(join(home, 'snapshots', 'has space.json'), '{}');
    const { snapshots, problems } = await store.list();
    expect(snapshots).toHaveLength(2);
    expect(problems.map((p) => p.details.path)).toEqual([snapshotFile('has space')]);
  });
});

describe('ids are validated before they touch a path', () => {
  const badIds = ['../x', 'a/b', '', '-rf', 'x'.repeat(200), '..', 'a\\b', 'x.lock', '/etc/passwd', 'a\0b'];

  it.each(badIds.map((id) => [JSON.stringify(id).slice(0, 30), id]))(
    '%s -> INVALID_ID everywhere, nothing written',
    async (_label, id) => {
      const calls: Array<Promise<unknown>> = [
        store.load(id),
        store.save(makeSnapshot({ id })),
        store.save(makeSnapshot({ runId: id })),
        store.delete(id),
        store.loadRun(id),
        store.loadByRun(id),
        store.recordBefore(id, '/tmp/ws', makeBefore(id)),
        store.linkSnapshot(id, '/tmp/ws', 'fine', 1),
        store.linkSnapshot('fine', '/tmp/ws', id, 1),
        // "x.lock" cannot be an id but can begin one ("x.lockstep"), so it is a fine prefix.
        ...(id === 'x.lock' ? [] : [store.findByPrefix(id)]),
      ];
      for (const call of calls) expect(await codeOf(call)).toBe('INVALID_ID');
      expect(readdirSync(home)).toEqual([]);
    },
  );
});

describe('list and findByPrefix', () => {
  beforeEach(async () => {
    await store.save(
      makeSnapshot({ runId: 'runB', iteration: 1, id: 'b1', afterSha: 'c0ffee'.padEnd(40, '0') }),
    );
    await store.save(makeSnapshot({ runId: 'runA', iteration: 2, id: 'a2' }));
    await store.save(makeSnapshot({ runId: 'runA', iteration: 10, id: 'a10' }));
    await store.save(makeSnapshot({ runId: 'runA', iteration: 1, id: 'a1-extra' }));
  });

  it('lists snapshots by run id, then iteration', async () => {
    const { snapshots, problems } = await store.list();
    expect(snapshots.map((s) => s.id)).toEqual(['a1-extra', 'a2', 'a10', 'b1']);
    expect(problems).toEqual([]);
  });

  it('an empty home lists nothing', async () => {
    expect(await new SnapshotStore(join(home, 'elsewhere')).list()).toEqual({ snapshots: [], problems: [] });
  });

  it('resolves id prefixes, after-SHA prefixes (any case) and prefers an exact id', async () => {
    expect((await store.findByPrefix('a1')).map((s) => s.id).sort()).toEqual(['a1-extra', 'a10']);
    expect((await store.findByPrefix('C0FFEE')).map((s) => s.id)).toEqual(['b1']);
    expect((await store.findByPrefix('a2')).map((s) => s.id)).toEqual(['a2']);
    expect((await store.findByPrefix(SHA_A.slice(0, 3))).map((s) => s.id)).toEqual([]);
    expect(await store.findByPrefix('zzz')).toEqual([]);
    await store.save(makeSnapshot({ runId: 'runA', iteration: 3, id: 'a1' }));
    expect((await store.findByPrefix('a1')).map((s) => s.id)).toEqual(['a1']);
  });
});
