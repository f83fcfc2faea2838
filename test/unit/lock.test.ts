import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isProvablyDead, processStartTime, withLock, type LockOwner } from '../../src/fs/lock.js';
import { deadPid, finished, printed, spawnTs, until } from '../helpers/node-child.js';
import { codeOf } from '../helpers/codes.js';

let dir: string;
let lockPath: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgate-lock-'));
  lockPath = join(dir, 'locks', 'test.lock');
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function staleOwner(pid: number, extra: Partial<LockOwner> = {}): LockOwner {
  return {
    pid,
    hostname: hostname(),
    createdAt: '2024-01-01T00:00:00.000Z',
    token: 'deadbeefdeadbeefdeadbeef',
    purpose: 'crashed',
    ...extra,
  };
}

function writeStale(owner: LockOwner | string): void {
  mkdirSync(dirname(lockPath), { recursive: true });
  writeFileSync(lockPath, typeof owner === 'string' ? owner : JSON.stringify(owner));
}

describe('withLock in one process', () => {
  it('runs fn, returns its value and removes the lock file', async () => {
    const value = await withLock(lockPath, {}, async (lock) => {
      expect(existsSync(lockPath)).toBe(true);
      expect(lock.recovered).toBeNull();
      expect(JSON.parse(readFileSync(lockPath, 'utf8')).pid).toBe(process.pid);
      return 42;
    });
    expect(value).toBe(42);
    expect(readdirSync(join(dir, 'locks'))).toEqual([]);
  });

  it('releases the lock when fn throws', async () => {
    await expect(withLock(lockPath, {}, async () => Promise.reject(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    expect(readdirSync(join(dir, 'locks'))).toEqual([]);
  });

  it('serialises concurrent callers in the same process', async () => {
    const events: string[] = [];
    const task = (name: string) =>
      withLock(lockPath, {}, async () => {
        events.push(`start ${name}`);
        await new Promise((resolve) => setTimeout(resolve, 5));
        events.push(`end ${name}`);
      });
    await Promise.all(['a', 'b', 'c'].map(task));
    for (let i = 0; i < events.length; i += 2) expect(events[i + 1]).toBe(events[i]?.replace('start', 'end'));
  });

  it('times out with LOCK_TIMEOUT while a same-process holder is alive (no self take-over)', async () => {
    await withLock(lockPath, {}, async () => {
      expect(await codeOf(withLock(lockPath, { timeoutMs: 50 }, async () => undefined))).toBe('LOCK_TIMEOUT');
    });
  });
});

describe('stale locks', () => {
  it('takes over a lock whose owner pid is dead and reports it as recovered', async () => {
    const pid = await deadPid();
    writeStale(staleOwner(pid));
    const recovered = await withLock(lockPath, { timeoutMs: 5_000 }, async (lock) => lock.recovered);
    expect(recovered?.pid).toBe(pid);
    expect(recovered?.token).toBe('deadbeefdeadbeefdeadbeef');
    expect(readdirSync(join(dir, 'locks'))).toEqual([]);
  });

  it("writes since when the lock has been held unreleased: the dead owner's heldSince, else its createdAt", async () => {
    const pid = await deadPid();
    const chained = { heldSince: '2023-06-01T00:00:00.000Z' };
    for (const [extra, since] of [
      [{}, '2024-01-01T00:00:00.000Z'],
      [chained, chained.heldSince],
      [{ heldSince: 'not a date' }, '2024-01-01T00:00:00.000Z'],
    ] as const) {
      writeStale(staleOwner(pid, extra));
      const written = await withLock(lockPath, { timeoutMs: 5_000 }, async () =>
        JSON.parse(readFileSync(lockPath, 'utf8')),
      );
      expect(written).toMatchObject({ pid: process.pid, heldSince: since });
    }
  });

  it('takes over at once (timeout 0) when the dead owner was killed while holding the take-over lock', async () => {
    // A process killed inside its own take-over: it owns the lock, and its ".break" lock is left too.
    const pid = await deadPid();
    writeStale(staleOwner(pid));
    writeFileSync(`${lockPath}.break`, JSON.stringify(staleOwner(pid)));
    const recovered = await withLock(lockPath, { timeoutMs: 0 }, async (lock) => lock.recovered);
    expect(recovered?.pid).toBe(pid);
    expect(readdirSync(join(dir, 'locks'))).toEqual([]);
  });

  it('takes over a lock left by an earlier process that had our pid', async () => {
    writeStale(staleOwner(process.pid));
    const recovered = await withLock(lockPath, { timeoutMs: 5_000 }, async (lock) => lock.recovered);
    expect(recovered?.pid).toBe(process.pid);
  });

  it('never takes over a lock from another host or with unreadable content', async () => {
    writeStale(staleOwner(await deadPid(), { hostname: `not-${hostname()}` }));
    expect(await codeOf(withLock(lockPath, { timeoutMs: 50 }, async () => undefined))).toBe('LOCK_TIMEOUT');
    writeStale('{"pid":');
    expect(await codeOf(withLock(lockPath, { timeoutMs: 50 }, async () => undefined))).toBe('LOCK_TIMEOUT');
  });

  it.runIf(processStartTime(process.pid) !== null)(
    'treats a live pid with another start time as reused (dead owner)',
    async () => {
      const live = process.ppid;
      expect(isProvablyDead(staleOwner(live, { startTime: 'not-a-start-time' }))).toBe(true);
      expect(isProvablyDead(staleOwner(live, { startTime: processStartTime(live) as string }))).toBe(false);
      expect(isProvablyDead(staleOwner(live))).toBe(false);
    },
  );
});

describe('across processes', () => {
  it('LOCK_TIMEOUT while a live process holds the lock; take-over once it is killed', async () => {
    const holder = spawnTs('lock-child.ts', ['hold', lockPath]);
    const done = finished(holder);
    await printed(holder, 'held');
    const error = await withLock(lockPath, { timeoutMs: 200 }, async () => undefined).catch(
      (e: unknown) => e,
    );
    expect((error as { code?: string }).code).toBe('LOCK_TIMEOUT');
    expect((error as { details: { owner: LockOwner } }).details.owner.pid).toBe(holder.pid);

    holder.kill('SIGKILL');
    await done;
    const recovered = await withLock(lockPath, { timeoutMs: 5_000 }, async (lock) => lock.recovered);
    expect(recovered?.pid).toBe(holder.pid);
    expect(recovered?.purpose).toBe('test holder');
  });

  it('excludes each other: no interleaving, and exactly one of the racers recovers a stale lock', async () => {
    const log = join(dir, 'log.txt');
    const go = join(dir, 'go');
    const stalePid = await deadPid();
    writeStale(staleOwner(stalePid));
    const names = ['p0', 'p1', 'p2', 'p3'];
    const children = names.map((name) => spawnTs('lock-child.ts', ['append', lockPath, log, name, '4', go]));
    const results = children.map(finished);
    await Promise.all(children.map((child) => printed(child, 'ready')));
    writeFileSync(go, '');
    for (const result of await Promise.all(results)) expect(result.code, result.stderr).toBe(0);

    const lines = readFileSync(log, 'utf8').trimEnd().split('\n');
    const sections = lines.filter((line) => !line.startsWith('recovered'));
    expect(sections).toHaveLength(names.length * 4 * 2);
    for (let i = 0; i < sections.length; i += 2) {
      const [, name, round] = (sections[i] as string).split(' ');
      expect(sections[i]).toBe(`start ${name} ${round}`);
      expect(sections[i + 1]).toBe(`end ${name} ${round}`);
    }
    const recoveries = lines.filter((line) => line.startsWith('recovered'));
    expect(recoveries).toHaveLength(1);
    expect(recoveries[0]).toMatch(new RegExp(` ${stalePid}$`));
    await until(() => !existsSync(lockPath));
    expect(readdirSync(join(dir, 'locks'))).toEqual([]);
  });
});

describe('a FIFO standing as the lock file', () => {
  it('is never read (it would wait for a writer): the lock is taken as held by another, LOCK_TIMEOUT', async () => {
    const lockPath = join(dir, 'fifo.lock');
    execFileSync('mkfifo', [lockPath]);
    expect(await codeOf(withLock(lockPath, { timeoutMs: 300 }, async () => 'ran'))).toBe('LOCK_TIMEOUT');
  });
});
