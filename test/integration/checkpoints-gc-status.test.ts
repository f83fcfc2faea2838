/**
 * One measure of a checkpoint store's size (issue 26 item 16): what `checkpoint gc` reports before
 * and after is what `checkpoint status` and the budget count, and status shows when gc packed.
 */
import { describe, expect, it } from 'vitest';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

describe('checkpoint gc and checkpoint status', () => {
  it('report the same store size, and status says gc packed the store just now', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const cp = await openCheckpoints(ws);
    for (let i = 0; i < 6; i++) {
      writeFiles(ws, { [`f${i}.txt`]: `${'content '.repeat(200)}${i}\n`, 'a.txt': `edit ${i}\n` });
      await cp.track(`turn ${i}`);
    }
    const before = await cp.status();
    expect(before.lastPackedAt).toBeNull();
    const startedAt = new Date().toISOString();
    const gc = await cp.gc({ keep: 2 });
    const after = await cp.status();
    expect(gc.storeBytesBefore).toBe(before.storeBytes);
    expect(gc.storeBytesAfter).toBe(after.storeBytes);
    expect(after.lastPackedAt).not.toBeNull();
    expect(after.lastPackedAt! >= startedAt).toBe(true);
    expect(after.packs).toBeGreaterThan(0);
  });

  it('a prune age git does not read as a date is refused before any checkpoint is dropped', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const cp = await openCheckpoints(ws);
    for (let i = 0; i < 4; i++) {
      writeFiles(ws, { 'a.txt': `edit ${i}\n` });
      await cp.track(`turn ${i}`);
    }
    await expect(cp.gc({ keep: 1, pruneAge: 'garbage' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    expect(await cp.list()).toHaveLength(4);
    await expect(cp.gc({ keep: 1, pruneAge: '1.day.ago' })).resolves.toMatchObject({
      pruneAge: '1.day.ago',
      removed: 2,
    });
  });

  it('a prune age is refused the same way when the workspace has no checkpoint store yet', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const cp = await openCheckpoints(ws);
    await expect(cp.gc({ pruneAge: 'garbage' })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
    await expect(cp.gc({ pruneAge: '1.day.ago' })).resolves.toMatchObject({ kept: 0, removed: 0 });
    const home = tempDir('agentgate-home-');
    const res = runCli(['checkpoint', 'gc', '--prune', 'garbage', '-C', ws, '--home', home, '--json']);
    expect([res.status, (res.json() as { error: { code: string } }).error.code]).toEqual([
      2,
      'INVALID_ARGUMENT',
    ]);
  });

  it('a budget, keep, size cap or timeout the config would refuse is INVALID_ARGUMENT when given to the library', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    for (const bad of [
      { maxStoreBytes: 0 },
      { maxStoreBytes: -1 },
      { keep: 0 },
      { keep: Number.NaN },
      { maxFileSizeBytes: -1 },
      { gitTimeoutMs: 0 },
      { lockTimeoutMs: 1.5 },
      { maxStoreBytes: 'abc' as unknown as number },
    ])
      await expect(openCheckpoints(ws, bad), JSON.stringify(bad)).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
  });
});
