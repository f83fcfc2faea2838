import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mayHoldString } from '../../src/store/snapshot-scan.js';
import { SnapshotStore } from '../../src/store/snapshot-store.js';
import { makeSnapshot, tempHome } from '../helpers/store-fixtures.js';

describe('mayHoldString', () => {
  const doc = (value: unknown) => JSON.stringify({ files: [{ path: value }] }, null, 2);

  it('finds a string by its JSON literal, and not a longer or shorter name', () => {
    expect(mayHoldString(doc('src/a.txt'), ['src/a.txt'])).toBe(true);
    expect(mayHoldString(doc('src/a.txt'), ['a.txt'])).toBe(false);
    expect(mayHoldString(doc('src/a.txt'), ['src/a.txt.bak'])).toBe(false);
    expect(mayHoldString(doc('src/a.txt'), ['x', 'src/a.txt'])).toBe(true);
    expect(mayHoldString(doc('src/a.txt'), [])).toBe(false);
  });

  it('finds names JSON escapes: quotes, backslashes, line breaks, non-ASCII', () => {
    for (const name of ['a"b.txt', 'a\\b.txt', 'line\nbreak.txt', 'tab\t.txt', 'é ü 中.txt'])
      expect(mayHoldString(doc(name), [name])).toBe(true);
  });

  it('is always a maybe when the text may spell a string another way (\\u, \\/)', () => {
    const spelled = '{"files":[{"path":"src\\u002fa.txt"}]}';
    expect(JSON.parse(spelled).files[0].path).toBe('src/a.txt');
    expect(mayHoldString(spelled, ['src/a.txt'])).toBe(true);
    expect(mayHoldString('{"path":"src\\/a.txt"}', ['src/a.txt'])).toBe(true);
    expect(mayHoldString(doc('\u0001.txt'), ['other.txt'])).toBe(true);
  });
});

describe('SnapshotStore.scan', () => {
  let home: string;
  let store: SnapshotStore;
  beforeEach(() => {
    home = tempHome();
    store = new SnapshotStore(home);
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('parses only the files that may name a string, and keeps what it picked', async () => {
    const a = makeSnapshot({ id: 'snap-a', runId: 'run-a', files: [file('a.txt')] });
    const b = makeSnapshot({ id: 'snap-b', runId: 'run-b', files: [file('b.txt')] });
    await store.save(a);
    await store.save(b);
    // JSON that holds none of the strings cannot name them, whatever else it is: never parsed.
    writeFileSync(join(home, 'snapshots', 'notes.json'), '{"unrelated":true}');
    const scan = await store.scan();
    expect(scan.pick(['a.txt']).map((s) => s.id)).toEqual(['snap-a']);
    expect(scan.pick(['run-b']).map((s) => s.id)).toEqual(['snap-a', 'snap-b']);
    expect(scan.pick(['nothing']).map((s) => s.id)).toEqual(['snap-a', 'snap-b']);
  });

  it('a file that is not JSON, cannot be named, or is picked and is no snapshot stops every pick: STORE_CORRUPT', async () => {
    await store.save(makeSnapshot({ id: 'snap-a', runId: 'run-a', files: [file('a.txt')] }));
    const code = async (name: string, text: string, pick: string) => {
      writeFileSync(join(home, 'snapshots', name), text);
      try {
        (await store.scan()).pick([pick]);
        return 'none';
      } catch (error) {
        return (error as { code: string }).code;
      } finally {
        rmSync(join(home, 'snapshots', name));
      }
    };
    // Truncated before it said which path or run: it may have named any.
    expect(await code('snap-x.json', '{"id":"snap-x","files":[', 'a.txt')).toBe('STORE_CORRUPT');
    expect(await code('bad name.json', '{}', 'a.txt')).toBe('STORE_CORRUPT');
    expect(await code('other-id.json', '{"files":[{"path":"a.txt"}]}', 'a.txt')).toBe('STORE_CORRUPT');
    expect(await code('snap-x.json', '{"files":[{"path":"b.txt"}]}', 'a.txt')).toBe('none');
  });

  it('an empty or missing store scans to nothing', async () => {
    expect((await store.scan()).pick(['a.txt'])).toEqual([]);
  });
});

function file(path: string) {
  return { path, oldPath: null, status: 'modified' as const, insertions: 1, deletions: 0, binary: false };
}
