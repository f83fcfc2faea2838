/**
 * The budget's count left out (src/checkpoints/budget-count.ts): after a track that counted, the
 * next tracks carry a bound of what they added instead of running `git count-objects`, until the
 * bound could reach a limit, COUNT_EVERY tracks have passed, the capture staged the whole tree, a
 * track failed, or any other operation took the store lock.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COUNT_EVERY } from '../../src/checkpoints/budget-count.js';
import type { Checkpoints } from '../../src/checkpoints/index.js';
import { gitCallCount } from '../../src/git/runner.js';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { deadPid } from '../helpers/node-child.js';
import { git, repoWithCommit, writeFiles } from '../helpers/repo.js';

/** What the latest checkpoint's message says about the count, and budget.json's commit. */
function countState(ws: string, cp: Checkpoints): { uncounted: unknown; latest: string; countedAt: unknown } {
  const gitDir = cp.location.gitDir;
  const body = git(ws, [`--git-dir=${gitDir}`, 'log', '-1', '--format=%B', 'refs/checkpoints-meta/latest']);
  const meta = JSON.parse(
    body
      .trim()
      .split('\n')
      .reverse()
      .find((l) => l.startsWith('{')) ?? '{}',
  ) as {
    uncounted?: unknown;
  };
  const latest = git(ws, [`--git-dir=${gitDir}`, 'rev-parse', 'refs/checkpoints-meta/latest']).trim();
  const file = join(dirname(cp.location.metaFile), 'budget.json');
  const countedAt = existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { countedAt: string }).countedAt
    : null;
  return { uncounted: meta.uncounted, latest, countedAt };
}

/** One tool's change and its track; returns how many git processes the track ran. */
async function step(ws: string, cp: Checkpoints, i: number): Promise<number> {
  writeFiles(ws, { [`src/f${i}.txt`]: `${i}\n`, 'README.md': `hello ${i}\n` });
  const before = gitCallCount();
  await cp.track(`step ${i}`, { session: 's', event: 'PostToolUse' });
  return gitCallCount() - before;
}

describe('budget count left out', () => {
  it('counted once, then left out for COUNT_EVERY - 1 tracks, each carrying the growing bound; then counted again', async () => {
    const ws = repoWithCommit();
    const cp = await openCheckpoints(ws);
    await cp.startSession('baseline');
    const first = countState(ws, cp);
    expect(first.uncounted).toBeUndefined();
    expect(first.countedAt).toBe(first.latest);
    const processes: number[] = [];
    let lastBytes = 0;
    for (let i = 1; i < COUNT_EVERY; i += 1) {
      processes.push(await step(ws, cp, i));
      const s = countState(ws, cp);
      expect(s.uncounted).toEqual({
        since: first.latest,
        events: i,
        loose: expect.any(Number),
        bytes: expect.any(Number),
      });
      const bytes = (s.uncounted as { bytes: number }).bytes;
      expect(bytes).toBeGreaterThan(lastBytes);
      lastBytes = bytes;
      expect(s.countedAt).toBe(first.latest);
    }
    // The COUNT_EVERY-th track since the count counts again: one git process more.
    const counted = await step(ws, cp, COUNT_EVERY);
    const again = countState(ws, cp);
    expect(again.uncounted).toBeUndefined();
    expect(again.countedAt).toBe(again.latest);
    expect(counted).toBe((processes[0] as number) + 1);
    expect(new Set(processes).size).toBe(1);
  });

  it('the bound holds (big files, a path taken out of the index deep down, a long label): the store as counted plus the bound is never below what count-objects says', async () => {
    const ws = repoWithCommit();
    const cp = await openCheckpoints(ws);
    await cp.startSession('baseline');
    const file = join(dirname(cp.location.metaFile), 'budget.json');
    const counted = JSON.parse(readFileSync(file, 'utf8')) as {
      counts: { loose: number; looseBytes: number };
    };
    // Deep files the next .gitignore takes out of the index: their directories get new trees too.
    writeFiles(ws, { 'deep/a/b/c/gone.log': 'log\n', 'deep/a/b/c/kept.txt': 'kept\n' });
    await cp.track('deep');
    expect(countState(ws, cp).uncounted).toBeDefined();
    for (let i = 1; i < 6; i += 1) {
      writeFiles(ws, { [`d${i}/e${i}/big.txt`]: 'x'.repeat(10_000 * i), 'README.md': `hello ${i}\n` });
      if (i === 2) writeFiles(ws, { '.gitignore': '*.log\n' });
      // A label of control characters, each six bytes in the message's JSON.
      await cp.track(i === 3 ? '\u0001'.repeat(20_000) : `step ${i}`);
      expect(countState(ws, cp).uncounted).toBeDefined();
      const bound = countState(ws, cp).uncounted as { loose: number; bytes: number };
      const now = git(ws, [`--git-dir=${cp.location.gitDir}`, 'count-objects', '-v']);
      const value = (key: string) => Number(new RegExp(`^${key}: (\\d+)$`, 'm').exec(now)?.[1]);
      expect(counted.counts.loose + bound.loose).toBeGreaterThanOrEqual(value('count'));
      expect(counted.counts.looseBytes + bound.bytes).toBeGreaterThanOrEqual(value('size') * 1024);
    }
  });

  it('any other operation on the store, a failed track, and a capture of the whole tree: the next track counts', async () => {
    const ws = repoWithCommit();
    const cp = await openCheckpoints(ws);
    const base = await cp.startSession('baseline');
    await step(ws, cp, 1);
    expect(countState(ws, cp).uncounted).toBeDefined();
    // Another operation that takes the lock (a diff captures, and so writes objects).
    await cp.diff(base.hash);
    expect(countState(ws, cp).countedAt).toBeNull();
    await step(ws, cp, 2);
    expect(countState(ws, cp)).toMatchObject({ uncounted: undefined });
    expect(countState(ws, cp).countedAt).toBe(countState(ws, cp).latest);
    // A track that fails (the store's index is locked by a live git): the count is dropped.
    await step(ws, cp, 3);
    const lock = `${cp.location.indexFile}.lock`;
    writeFileSync(lock, '');
    writeFiles(ws, { 'README.md': 'locked\n' });
    await expect(cp.track('fails')).rejects.toMatchObject({ code: 'INDEX_LOCKED' });
    rmSync(lock);
    expect(countState(ws, cp).countedAt).toBeNull();
    await step(ws, cp, 4);
    expect(countState(ws, cp).uncounted).toBeUndefined();
    // A capture that staged the whole tree (a file became a directory) has no bound: it counts.
    await step(ws, cp, 5);
    expect(countState(ws, cp).uncounted).toBeDefined();
    rmSync(join(ws, 'src', 'f5.txt'));
    mkdirSync(join(ws, 'src', 'f5.txt'));
    writeFileSync(join(ws, 'src', 'f5.txt', 'inner.txt'), 'inner\n');
    await cp.track('shape');
    expect(countState(ws, cp).uncounted).toBeUndefined();
  });

  it("a track that takes over a dead holder's lock counts (the dead one may have written anything)", async () => {
    const ws = repoWithCommit();
    const cp = await openCheckpoints(ws);
    await cp.startSession('baseline');
    await step(ws, cp, 1);
    expect(countState(ws, cp).uncounted).toBeDefined();
    const owner = {
      pid: await deadPid(),
      hostname: hostname(),
      createdAt: new Date().toISOString(),
      token: 'e'.repeat(24),
      purpose: 'checkpoint track',
    };
    writeFileSync(cp.location.lockPath, JSON.stringify(owner));
    await step(ws, cp, 2);
    const s = countState(ws, cp);
    expect(s.uncounted).toBeUndefined();
    expect(s.countedAt).toBe(s.latest);
  });

  // One tool's bound alone (two blobs, two trees, the commit, in whole blocks) is over 40 KiB.
  it('a budget the bound could reach: every track counts (and prunes as before)', async () => {
    const ws = repoWithCommit();
    const cp = await openCheckpoints(ws, { maxStoreBytes: 40 * 1024 });
    await cp.startSession('baseline');
    for (let i = 1; i < 4; i += 1) {
      await step(ws, cp, i);
      expect(countState(ws, cp).uncounted).toBeUndefined();
    }
  });
});
