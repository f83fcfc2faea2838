import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CleanupResult, TrackResult } from '../../types/checkpoint.js';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { withLock } from '../../src/fs/lock.js';
import { openCheckpoints, storeTreePaths, treeState } from '../helpers/checkpoints.js';
import { deadPid } from '../helpers/node-child.js';
import { commitAll, git, initRepo, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const PROJECT = join(import.meta.dirname, '../..');
const CHILD = join(PROJECT, 'test/helpers/checkpoints-track-child.ts');

/** Starts a child that tracks; resolves `ready` once it has opened the store, `done` with its result. */
function trackInChild(
  ws: string,
  home: string,
  label: string,
): { ready: Promise<void>; done: Promise<TrackResult> } {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ws, home, label], {
    cwd: PROJECT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const ready = new Promise<void>((resolve) =>
    child.stderr.on('data', (c: Buffer) => ((stderr += c.toString()), stderr.includes('ready') && resolve())),
  );
  const done = new Promise<TrackResult>((resolve, reject) =>
    child.on('close', (code) =>
      code === 0
        ? resolve(TrackResult.parse(JSON.parse(stdout)))
        : reject(new Error(`child exited ${code}: ${stderr}`)),
    ),
  );
  return { ready, done };
}

describe('checkpoint store', () => {
  it('cleanup keeps the newest, the baseline and latest; kept checkpoints restore after a forced gc; no temporary packs remain', async () => {
    const ws = tempDir('agentgate-cp-gc-');
    writeFiles(ws, { 'a.txt': 'base\n', 'b.txt': 'stable\n' });
    const cp = await openCheckpoints(ws);
    const base = await cp.startSession('base');
    const baseState = treeState(ws);
    const tracked = [];
    for (let i = 2; i <= 5; i += 1) {
      writeFiles(ws, { 'a.txt': `state ${i}\n` });
      tracked.push(await cp.track(`t${i}`));
    }
    const planted = join(cp.location.gitDir, 'objects/pack/tmp_pack_planted');
    writeFileSync(planted, 'half-written pack');

    const res = await cp.cleanup({ keep: 2, pruneAge: 'now' });
    expect(CleanupResult.parse(res)).toEqual(res);
    expect(res).toMatchObject({ kept: 3, removed: 2, pruneAge: 'now' });
    expect(res.storeBytesBefore).toBeGreaterThan(0);
    expect(res.storeBytesAfter).toBeGreaterThan(0);
    expect((await cp.list()).map((e) => e.label)).toEqual(['t5', 't4', 'base']);
    expect(existsSync(planted)).toBe(false);

    git(ws, [`--git-dir=${cp.location.gitDir}`, 'gc', '--quiet', '--prune=now']);
    const packDir = join(cp.location.gitDir, 'objects/pack');
    expect(readdirSync(packDir).filter((n) => n.startsWith('tmp_') || n.startsWith('.tmp-'))).toEqual([]);

    await expect(cp.restore(tracked[0]?.hash ?? '')).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
    await cp.restore(base.hash);
    expect(treeState(ws)).toEqual(baseState);
    await expect(cp.cleanup({ keep: -1 })).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('serialises two processes tracking at once: both succeed with valid, distinct refs', async () => {
    const ws = tempDir('agentgate-cp-concurrent-');
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i += 1) files[`f${i}.txt`] = `${i}\n`;
    writeFiles(ws, files);
    const home = tempDir('agentgate-cp-home-');
    const cp = await Checkpoints.open(ws, { home });
    await cp.list(); // creates nothing
    // Hold the store lock until both children are waiting for it, so that they really contend.
    const [one, two] = await withLock(cp.location.lockPath, { purpose: 'test' }, async () => {
      const a = trackInChild(ws, home, 'child a');
      const b = trackInChild(ws, home, 'child b');
      await Promise.all([a.ready, b.ready]);
      await new Promise((r) => setTimeout(r, 200));
      return [a, b];
    });
    const results = await Promise.all([one?.done, two?.done]);
    const refs = results.map((r) => r?.ref);
    expect(new Set(refs).size).toBe(2);
    const list = await cp.list();
    expect(list.map((e) => e.ref).sort()).toEqual([...refs].sort());
    for (const r of results)
      expect(git(ws, [`--git-dir=${cp.location.gitDir}`, 'rev-parse', `${r?.ref}^{tree}`])).toBe(r?.hash);
    git(ws, [`--git-dir=${cp.location.gitDir}`, 'fsck', '--no-progress'], { stdio: 'pipe' });
  });

  it('gives up waiting for the store lock after lockTimeoutMs with LOCK_TIMEOUT', async () => {
    const ws = tempDir('agentgate-cp-lock-');
    writeFiles(ws, { 'a.txt': 'a' });
    const cp = await openCheckpoints(ws, { lockTimeoutMs: 200 });
    await withLock(cp.location.lockPath, { purpose: 'test' }, async () => {
      await expect(cp.track()).rejects.toMatchObject({ code: 'LOCK_TIMEOUT' });
    });
    await cp.track();
  });

  it('fails a capture that cannot stage (INDEX_LOCKED) and records nothing; recovers a provably stale index.lock', async () => {
    const ws = tempDir('agentgate-cp-fail-');
    writeFiles(ws, { 'a.txt': 'one' });
    const cp = await openCheckpoints(ws);
    const t = await cp.track();
    writeFiles(ws, { 'a.txt': 'two' });
    const indexLock = `${cp.location.indexFile}.lock`;
    writeFileSync(indexLock, '');
    await expect(cp.track()).rejects.toMatchObject({ code: 'INDEX_LOCKED' });
    await expect(cp.patch(t.hash)).rejects.toMatchObject({ code: 'INDEX_LOCKED' });
    expect((await cp.list()).map((e) => e.hash)).toEqual([t.hash]);

    // Older than any git call of ours may run: left by a killed process, so removed under the store lock.
    const past = new Date(Date.now() - 3_600_000);
    utimesSync(indexLock, past, past);
    const t2 = await cp.track();
    expect(t2.hash).not.toBe(t.hash);
    expect(existsSync(indexLock)).toBe(false);
  });

  it("after taking over a dead holder's store lock, removes the ref locks its killed update left", async () => {
    const ws = tempDir('agentgate-cp-reflock-');
    writeFiles(ws, { 'a.txt': 'one' });
    const cp = await openCheckpoints(ws);
    await cp.track();
    const refLocks = [
      join(cp.location.gitDir, 'refs', 'checkpoints-meta', 'latest.lock'),
      join(cp.location.gitDir, 'packed-refs.lock'),
    ];
    for (const lock of refLocks) writeFileSync(lock, '');
    const owner = {
      pid: await deadPid(),
      hostname: hostname(),
      createdAt: new Date().toISOString(),
      token: 'e'.repeat(24),
      purpose: 'checkpoint (killed)',
    };
    writeFileSync(cp.location.lockPath, JSON.stringify(owner));
    writeFiles(ws, { 'a.txt': 'two' });
    const t = await cp.track();
    expect((await cp.list())[0]?.hash).toBe(t.hash);
    for (const lock of refLocks) expect(existsSync(lock)).toBe(false);
  });

  it('keys stores by worktree under one project id; info/exclude of the common dir applies to each', async () => {
    const ws = repoWithCommit({ 'README.md': 'main\n' });
    const wt = join(tempDir('agentgate-cp-wt-'), 'second');
    git(ws, ['worktree', 'add', '-q', '-b', 'side', wt]);
    appendFileSync(join(ws, '.git/info/exclude'), 'local.txt\n');
    writeFiles(ws, { 'local.txt': 'l' });
    writeFiles(wt, { 'local.txt': 'l', 'only-here.txt': 'o' });
    const home = tempDir('agentgate-cp-home-');
    const main = await Checkpoints.open(ws, { home });
    const second = await Checkpoints.open(wt, { home });
    expect(second.location.projectId).toBe(main.location.projectId);
    expect(second.location.dir).not.toBe(main.location.dir);
    const a = await main.track();
    const b = await second.track();
    expect(storeTreePaths(main, a.hash)).toEqual(['README.md']);
    expect(storeTreePaths(second, b.hash)).toEqual(['README.md', 'only-here.txt']);
    expect((await main.list()).length).toBe(1);
    expect((await second.list()).length).toBe(1);
  });

  it('keeps the same store when a repository makes its first commit; never captures our home inside the workspace', async () => {
    const ws = initRepo();
    writeFiles(ws, { 'a.txt': 'first\n' });
    const home = join(ws, '.agentgate');
    const cp = await Checkpoints.open(ws, { home });
    expect(cp.location.projectId).toMatch(/^path-/);
    const t = await cp.track();
    expect(storeTreePaths(cp, t.hash)).toEqual(['a.txt']);
    commitAll(ws, 'first commit');

    const again = await Checkpoints.open(ws, { home });
    expect(again.location.dir).toBe(cp.location.dir);
    expect((await again.list()).map((e) => e.hash)).toEqual([t.hash]);
    await expect(again.revert(t.hash, [join(home, 'checkpoints')])).rejects.toMatchObject({
      code: 'PATH_OUTSIDE_WORKSPACE',
    });
    // A fresh home (no store yet) keys the new store by the root commit.
    const fresh = await Checkpoints.open(ws, { home: tempDir('agentgate-cp-home-') });
    expect(fresh.location.projectId).toBe(git(ws, ['rev-parse', 'HEAD']));
  });
});
