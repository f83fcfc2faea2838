/**
 * The bounded checkpoint store: checkpoints.maxStoreBytes prunes the oldest unprotected checkpoints
 * and packs, loose objects are packed automatically, and `checkpoint status` reports it.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { StoreStatus } from '../../types/checkpoint.js';
import { LOOSE_OBJECTS_LIMIT } from '../../src/checkpoints/upkeep.js';
import { openCheckpoints, treeState } from '../helpers/checkpoints.js';
import { runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

describe('bounded checkpoint store', () => {
  it('many large changes under a small budget: the store stays under it, baseline and latest survive and restore, status says what was pruned', async () => {
    const ws = repoWithCommit({ 'README.md': 'hello\n' });
    const budget = 600 * 1024;
    const cp = await openCheckpoints(ws, { maxStoreBytes: budget });
    writeFiles(ws, { 'big.bin': randomBytes(100 * 1024).toString('base64') });
    const baseline = await cp.startSession('baseline');
    const baselineState = treeState(ws);
    let latestState = baselineState;
    for (let i = 0; i < 25; i += 1) {
      // About 130 KiB of incompressible content per checkpoint: 25 of them are over 3 MiB.
      writeFiles(ws, { 'big.bin': randomBytes(100 * 1024).toString('base64'), 'step.txt': `${i}\n` });
      latestState = treeState(ws);
      const t = await cp.track(`step ${i}`, { session: 's', event: 'PostToolUse' });
      expect(t.upkeepError).toBeUndefined();
      expect((await cp.status()).storeBytes).toBeLessThanOrEqual(budget);
    }
    const status = await cp.status();
    expect(StoreStatus.parse(status)).toEqual(status);
    expect(status.budgetBytes).toBe(budget);
    expect(status.checkpoints).toBeLessThan(26);
    const removed = status.pruned.flatMap((p) => p.removed.map((e) => e.label));
    // Pruning goes below the budget, so it does not run at every checkpoint.
    expect(status.pruned.length).toBeGreaterThan(0);
    expect(status.pruned.length).toBeLessThan(12);
    expect(removed.length + status.checkpoints).toBe(26);
    // The oldest go first; the baseline is never among them.
    expect(removed).toContain('step 0');
    expect(removed).not.toContain('baseline');
    for (const p of status.pruned) expect(p.storeBytesAfter).toBeLessThan(p.storeBytesBefore);
    const left = await cp.list();
    expect(left.map((e) => e.hash)).toContain(baseline.hash);
    expect(left[0]?.label).toBe('step 24');

    await cp.restore(baseline.hash);
    expect(treeState(ws)).toEqual(baselineState);
    await cp.restore(left[0]?.hash ?? '');
    expect(treeState(ws)).toEqual(latestState);
  });

  it('the budget counts the checkpoint just made: a new commit alone that crosses the budget is packed back under it', async () => {
    const ws = repoWithCommit({ 'README.md': 'hello\n' });
    const home = tempDir('agentgate-cp-home-');
    const roomy = await openCheckpoints(ws, { home });
    await roomy.startSession('baseline');
    writeFiles(ws, { 'a.txt': randomBytes(20 * 1024).toString('base64') });
    await roomy.track('a');
    writeFiles(ws, { 'a.txt': randomBytes(20 * 1024).toString('base64') });
    await roomy.track('b');
    const before = (await roomy.status()).storeBytes;
    // The next checkpoint of the same state writes a commit and nothing else: that commit alone
    // takes the store over a budget just above its size now (the count of the upkeep runs beside
    // commit-tree, so the commit must be added to it).
    const budget = before + 64;
    const tight = await openCheckpoints(ws, { home, maxStoreBytes: budget });
    const t = await tight.track('same state');
    expect(t.upkeepError).toBeUndefined();
    const status = await tight.status();
    expect(status.storeBytes).toBeLessThanOrEqual(budget);
    expect(status.lastPackedAt).not.toBeNull();
  });

  it('over the budget, loose objects are packed first (a new version of a file becomes a delta): no checkpoint goes when that is enough', async () => {
    const ws = repoWithCommit({ 'README.md': 'hello\n' });
    const budget = 200_000;
    const cp = await openCheckpoints(ws, { maxStoreBytes: budget });
    const big = randomBytes(120 * 1024).toString('base64');
    writeFiles(ws, { 'big.txt': big });
    await cp.track('one');
    for (let i = 0; i < 3; i += 1) {
      writeFiles(ws, { 'big.txt': `${big}more ${i}\n` });
      expect((await cp.track(`more ${i}`)).upkeepError).toBeUndefined();
      const status = await cp.status();
      // Two versions of the file as loose objects are over 200 KB; packed, one is a delta.
      expect(status.storeBytes).toBeLessThanOrEqual(budget);
      expect(status.lastPackedAt).not.toBeNull();
      expect(status.pruned).toEqual([]);
      expect(status.checkpoints).toBe(i + 2);
    }
  });

  it('when only protected checkpoints are left over the budget, upkeep packs them for real and records no empty prune', async () => {
    const ws = repoWithCommit({ 'README.md': 'hello\n' });
    const budget = 100_000;
    const cp = await openCheckpoints(ws, { maxStoreBytes: budget });
    // Incompressible and over the budget alone: the baseline cannot go.
    writeFiles(ws, { 'big.bin': randomBytes(150 * 1024) });
    await cp.startSession('baseline');
    const first = await cp.status();
    expect(first.storeBytes).toBeGreaterThan(budget);
    expect(first.looseObjects).toBe(0);
    expect(first.lastPackedAt).not.toBeNull();
    expect(first.pruned).toEqual([]);
    for (let i = 0; i < 3; i += 1) {
      writeFiles(ws, { 'step.txt': `${i}\n` });
      expect((await cp.track(`step ${i}`)).upkeepError).toBeUndefined();
    }
    const status = await cp.status();
    expect(status.looseObjects).toBe(0);
    for (const p of status.pruned) expect(p.removed.length).toBeGreaterThan(0);
    expect((await cp.list()).map((e) => e.label)).toContain('baseline');
  });

  it('packs loose objects once they pile up, without a manual gc', async () => {
    const ws = repoWithCommit();
    const files = Object.fromEntries(
      Array.from({ length: LOOSE_OBJECTS_LIMIT + 100 }, (_, i) => [`d${i % 50}/f${i}.txt`, `${i}\n`]),
    );
    writeFiles(ws, files);
    const cp = await openCheckpoints(ws);
    await cp.track('many files');
    const status = await cp.status();
    expect(status.looseObjects).toBeLessThan(LOOSE_OBJECTS_LIMIT);
    expect(status.packs).toBeGreaterThanOrEqual(1);
    expect(status.lastPackedAt).not.toBeNull();
    expect(status.pruned).toEqual([]);
  });

  it('checkpoint status through the CLI: size, count and budget (from checkpoints.maxStoreBytes)', () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-status-home-');
    const env = { AGENTGATE_HOME: home };
    const empty = runCli(['checkpoint', 'status', '--json', '-C', ws], { env });
    expect(empty.status).toBe(0);
    expect(StoreStatus.parse(empty.json())).toMatchObject({
      storeBytes: 0,
      checkpoints: 0,
      budgetBytes: 2 * 1024 ** 3,
    });
    expect(runCli(['checkpoint', 'track', '-C', ws], { env }).status).toBe(0);
    const human = runCli(['checkpoint', 'status', '-C', ws], { env });
    expect(human.stdout).toMatch(/: \d+ of 2147483648 bytes, 1 checkpoints/);
    expect(human.stdout).toMatch(/nothing pruned/);
  });
});
