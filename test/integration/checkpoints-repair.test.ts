/**
 * What every lock acquisition repairs (repairOnAcquire, src/checkpoints/upkeep.ts), now done side
 * by side: a dead process's temp files beside store.json, in the store's tmp/ and in the workspace
 * root are swept, a live process's are kept, and a stale index.lock is removed, all in one track.
 */
import { existsSync, mkdirSync, readFileSync, realpathSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { deadPid } from '../helpers/node-child.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

describe('repair on acquire', () => {
  it("one track sweeps a dead process's temp files in all three places, keeps a live one's, and removes a stale index.lock", async () => {
    const ws = repoWithCommit();
    const cp = await openCheckpoints(ws);
    await cp.track('first');
    const dead = await deadPid();
    const storeDir = dirname(cp.location.metaFile);
    mkdirSync(cp.location.tempDir, { recursive: true });
    const swept = [
      join(storeDir, `.store.json.${dead}.0123456789ab.tmp`),
      join(cp.location.tempDir, `.agentgate-${dead}-0123456789ab.tmp`),
      join(ws, `.agentgate-${dead}-0123456789ab.tmp`),
    ];
    const kept = join(ws, `.agentgate-${process.pid}-0123456789ab.tmp`);
    for (const file of [...swept, kept]) writeFileSync(file, 'partial');
    const lock = `${cp.location.indexFile}.lock`;
    writeFileSync(lock, '');
    const old = new Date(Date.now() - 24 * 3600 * 1000);
    utimesSync(lock, old, old);
    await cp.track('second');
    expect(swept.filter((f) => existsSync(f))).toEqual([]);
    expect([existsSync(kept), existsSync(lock)]).toEqual([true, false]);
  });
});

describe('a damaged store.json', () => {
  it('hides no checkpoint: list, status and restore still find them, and the next write makes the file again', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-home-');
    const cp = await openCheckpoints(ws, { home });
    const first = await cp.track('A');
    writeFileSync(cp.location.metaFile, '{bad');
    const again = await openCheckpoints(ws, { home });
    expect((await again.list()).map((e) => e.hash)).toEqual([first.hash]);
    expect((await again.status()).checkpoints).toBe(1);
    writeFileSync(join(ws, 'a.txt'), 'two\n');
    await again.track('B');
    expect(JSON.parse(readFileSync(cp.location.metaFile, 'utf8'))).toMatchObject({
      workspace: realpathSync(ws),
    });
    expect((await again.list()).map((e) => e.label)).toEqual(['B', 'A']);
    await again.restore(first.hash);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('one\n');
  });
});
