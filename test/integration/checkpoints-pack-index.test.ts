/**
 * A pack of the checkpoint store whose `.idx` is gone (deleted, lost in a copy, a packing killed
 * between its renames) still holds every object: git does not read it, but the checkpoints in it
 * are not lost. Its index is written again from it (src/git/pack-index.ts), and every command finds
 * them; a pack that cannot be indexed (cut short) is damage as before.
 */
import { readdirSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Checkpoints } from '../../src/checkpoints/index.js';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { expectCode } from '../helpers/codes.js';
import { okIn } from '../helpers/cli.js';
import { tempDir, writeFiles } from '../helpers/repo.js';

/** A store of two checkpoints (`one`, `two`), packed; the workspace's `a.txt` changed since. */
async function packedStore(): Promise<{ ws: string; home: string; cp: Checkpoints }> {
  const ws = tempDir('agentgate-cp-packidx-');
  const home = tempDir('agentgate-cp-home-');
  writeFiles(ws, { 'a.txt': 'one\n', 'b.txt': 'b\n' });
  const cp = await openCheckpoints(ws, { home });
  await cp.track('one');
  writeFiles(ws, { 'a.txt': 'two\n' });
  await cp.track('two');
  await cp.gc();
  writeFiles(ws, { 'a.txt': 'now\n' });
  return { ws, home, cp };
}

/** Removes every pack index of the store; returns the packs' paths. */
function dropIndexes(cp: Checkpoints): string[] {
  const dir = join(cp.location.gitDir, 'objects', 'pack');
  const names = readdirSync(dir);
  expect(names.filter((n) => n.endsWith('.pack'))).toHaveLength(1);
  for (const n of names) if (n.endsWith('.idx')) rmSync(join(dir, n));
  return names.filter((n) => n.endsWith('.pack')).map((n) => join(dir, n));
}

describe('a pack whose index is gone', () => {
  it('keeps its checkpoints: list, restore and track find them, and track warns of nothing', async () => {
    const { ws, home, cp } = await packedStore();
    dropIndexes(cp);
    const listed = okIn<Array<{ label: string }>>(ws, home, ['checkpoint', 'list', '--json']);
    expect(listed.map((c) => c.label)).toEqual(['two', 'one']);

    dropIndexes(cp);
    await cp.restore('one');
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');

    dropIndexes(cp);
    writeFiles(ws, { 'b.txt': 'b2\n' });
    const tracked = await cp.track('three');
    expect(tracked).not.toHaveProperty('recovered');
    const labels = (await cp.list()).map((c) => c.label);
    expect(labels.filter((l) => l !== null && l !== undefined && !l.startsWith('safety'))).toEqual([
      'three',
      'two',
      'one',
    ]);
    await cp.restore('two');
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('two\n');
  });

  it('cut short as well: the store is STORE_CORRUPT to read, as before', async () => {
    const { cp } = await packedStore();
    const [pack] = dropIndexes(cp);
    truncateSync(pack as string, 100);
    await expectCode(cp.list(), 'STORE_CORRUPT');
  });
});
