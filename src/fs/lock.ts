import { readFileSync } from 'node:fs';
import { link, rename, rm, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { timeoutProblem } from '../../types/duration.js';
import { InvalidArgumentError, LockTimeoutError, WriteFailedError } from '../errors.js';
import { errnoOf } from './atomic.js';
import { randomHex } from './random.js';
import { readRegularText } from './regular-file.js';
import { makeDirs } from './make-dirs.js';

export const DEFAULT_LOCK_TIMEOUT_MS = 30_000;

/** Who holds a lock. Written whole into the lock file before it becomes visible. */
export interface LockOwner {
  pid: number;
  hostname: string;
  createdAt: string;
  token: string;
  purpose: string;
  /** The owner's start time (Linux: /proc/<pid>/stat field 22), so that a reused pid is not mistaken for the owner. */
  startTime?: string;
  /**
   * Since when the lock has been held with no release between: set when the lock was taken over
   * from a dead owner (its own `heldSince`, else its `createdAt`), so that an owner killed in turn
   * before it had mended what the first left passes the whole stretch on to the next.
   */
  heldSince?: string;
}

export interface LockHandle {
  path: string;
  owner: LockOwner;
  /** The dead owner whose lock we took over, if any: its work may have been cut short. */
  recovered: LockOwner | null;
}

export interface LockOptions {
  timeoutMs?: number;
  purpose?: string;
}

/**
 * Tokens of the locks this process holds or is acquiring. Shared through globalThis so that two
 * copies of this module in one process (src and dist) agree on which same-pid locks are alive.
 */
const HELD: Set<string> = ((globalThis as Record<symbol, unknown>)[Symbol.for('agentgate.heldLocks')] ??=
  new Set<string>()) as Set<string>;

/**
 * Runs `fn` while holding the lock file at `path`, serialising processes across the machine.
 * Waits at most `timeoutMs` (LOCK_TIMEOUT after that). A lock whose owner is provably dead (same
 * host, process gone) is taken over, and reported to `fn` so that it can repair what the dead
 * owner left behind. Not re-entrant: a nested call on the same path waits for the outer one.
 */
export async function withLock<T>(
  path: string,
  opts: LockOptions,
  fn: (lock: LockHandle) => Promise<T>,
): Promise<T> {
  const handle = await acquire(path, opts);
  try {
    return await fn(handle);
  } finally {
    await release(handle);
  }
}

async function acquire(path: string, opts: LockOptions): Promise<LockHandle> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_LOCK_TIMEOUT_MS;
  // 0: try once, do not wait.
  const tooLong = timeoutProblem(timeoutMs, 'the lock timeout (lockTimeoutMs)', 0);
  if (tooLong !== null) throw new InvalidArgumentError(tooLong, { details: { lockTimeoutMs: timeoutMs } });
  const startTime = processStartTime(process.pid);
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    createdAt: new Date().toISOString(),
    token: randomHex(12),
    purpose: opts.purpose ?? 'agentgate',
    ...(startTime === null ? {} : { startTime }),
  };
  // Registered before the lock file can exist: a same-process waiter must never judge it dead.
  HELD.add(owner.token);
  try {
    return await waitFor(path, owner, timeoutMs);
  } catch (error) {
    HELD.delete(owner.token);
    throw error;
  }
}

async function waitFor(path: string, owner: LockOwner, timeoutMs: number): Promise<LockHandle> {
  const deadline = Date.now() + timeoutMs;
  let delay = 5;
  for (;;) {
    if (await tryCreate(path, owner)) return { path, owner, recovered: null };
    const current = await readOwner(path);
    if (current !== null && isProvablyDead(current) && (await takeOver(path, current, owner))) {
      return { path, owner, recovered: current };
    }
    if (Date.now() >= deadline) {
      const who = current
        ? `process ${current.pid} on ${current.hostname} (${current.purpose}, since ${current.createdAt})`
        : 'another process';
      throw new LockTimeoutError(
        `${path} is held by ${who}; waited ${timeoutMs} ms. Retry when it finishes, or delete the lock file if that process is gone`,
        { details: { path, owner: current, timeoutMs } },
      );
    }
    // Jitter keeps many waiters from retrying in lockstep.
    await sleep(Math.min(delay + Math.random() * delay, Math.max(1, deadline - Date.now())));
    delay = Math.min(delay * 2, 100);
  }
}

/**
 * Creates the lock with its content in one step: write a private file, then hard-link it into place.
 * Only the link's EEXIST means "held": the same errno from creating the directory (a file where the
 * locks directory goes) is a write failure, not a lock to wait for.
 */
async function tryCreate(path: string, owner: LockOwner): Promise<boolean> {
  const temp = `${path}.${owner.token}.tmp`;
  const failed = (cause: unknown) =>
    new WriteFailedError(
      `could not create lock ${path} (${errnoOf(cause)}); check permissions and free space`,
      { cause, details: { path } },
    );
  try {
    try {
      await makeDirs(dirname(path));
      await writeFile(temp, JSON.stringify(owner), { flag: 'wx' });
    } catch (cause) {
      throw failed(cause);
    }
    try {
      await link(temp, path);
      return true;
    } catch (cause) {
      if ((cause as NodeJS.ErrnoException).code === 'EEXIST') return false;
      throw failed(cause);
    }
  } finally {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}

/**
 * Replaces a dead owner's lock with ours. Check-then-replace is not atomic on its own, so it runs
 * under a short-lived "break" lock: while we hold it, nobody else removes or replaces the lock
 * file, and a dead owner cannot release it, so the file we re-read is the file we replace.
 * Replacing (rename over) rather than removing leaves no gap for a third process to slip into.
 */
async function takeOver(path: string, stale: LockOwner, owner: LockOwner): Promise<boolean> {
  const breaker = `${path}.break`;
  if (!(await tryCreate(breaker, owner))) {
    const other = await readOwner(breaker);
    // A breaker that died inside this short section (a take-over killed before its cleanup) would
    // block take-overs forever; once it is gone, ours goes on at once (a caller that does not wait
    // would otherwise fail on a lock nobody holds).
    if (other === null || !isProvablyDead(other)) return false;
    await removeIfStill(breaker, other);
    if (!(await tryCreate(breaker, owner))) return false;
  }
  const temp = `${path}.${owner.token}.tmp`;
  try {
    if ((await readOwner(path))?.token !== stale.token) return false;
    const taken: LockOwner = { ...owner, heldSince: heldSince(stale) };
    await writeFile(temp, JSON.stringify(taken), { flag: 'wx' });
    await rename(temp, path);
    return true;
  } catch (cause) {
    throw new WriteFailedError(
      `could not take over lock ${path} (${errnoOf(cause)}); check permissions and free space`,
      { cause, details: { path } },
    );
  } finally {
    await rm(temp, { force: true }).catch(() => undefined);
    await rm(breaker, { force: true }).catch(() => undefined);
  }
}

/** Since when `owner`'s lock has been held with no release between (LockOwner.heldSince). */
export function heldSince(owner: LockOwner): string {
  const since = owner.heldSince;
  return typeof since === 'string' && Number.isFinite(Date.parse(since)) ? since : owner.createdAt;
}

/** The owner written in a lock file, or null when it is gone or unreadable. */
export async function readOwner(path: string): Promise<LockOwner | null> {
  try {
    // A FIFO standing there is never read (it would wait for a writer): no owner to read.
    const parsed = JSON.parse((await readRegularText(path)) ?? '') as Partial<LockOwner>;
    if (
      typeof parsed.pid === 'number' &&
      typeof parsed.token === 'string' &&
      typeof parsed.hostname === 'string'
    ) {
      return { createdAt: '', purpose: 'unknown', ...parsed } as LockOwner;
    }
  } catch {
    // Gone since we looked, or not ours: treat as held by an unknown live owner.
  }
  return null;
}

/** True when no process with this pid exists on this host. */
export function isProcessGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (cause) {
    return (cause as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * Only an owner on this host whose process is gone is provably dead: its pid no longer exists, is a
 * zombie (killed, not yet reaped by a parent that is busy elsewhere: it holds its pid but will never
 * run again), now belongs to a process that started at another time (pid reuse), or is ours with a
 * token we do not hold (a previous process with our pid, common in containers).
 */
export function isProvablyDead(owner: LockOwner): boolean {
  if (owner.hostname !== hostname()) return false;
  if (owner.pid === process.pid) return !HELD.has(owner.token);
  if (isProcessGone(owner.pid)) return true;
  const now = processStat(owner.pid);
  if (now === null) return false;
  if (now.state === 'Z' || now.state === 'X') return true;
  return owner.startTime !== undefined && now.startTime !== owner.startTime;
}

/** The kernel's start time of `pid` in clock ticks since boot, or null where /proc is unavailable. */
export function processStartTime(pid: number): string | null {
  return processStat(pid)?.startTime ?? null;
}

/** State (field 3) and start time (field 22) from /proc/<pid>/stat, or null where /proc is unavailable. */
function processStat(pid: number): { state: string; startTime: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const [state, startTime] = [fields[0], fields[19]];
    return state === undefined || startTime === undefined ? null : { state, startTime };
  } catch {
    return null;
  }
}

/**
 * Removes a stale lock only if it is still the one we judged stale: renaming first makes the
 * removal atomic, and a live lock moved by mistake is put back.
 */
async function removeIfStill(path: string, stale: LockOwner): Promise<boolean> {
  const grave = `${path}.${randomHex(6)}.stale`;
  try {
    await rename(path, grave);
  } catch {
    return false;
  }
  const moved = await readOwner(grave);
  if (moved?.token !== stale.token) {
    await link(grave, path).catch(() => undefined);
    await rm(grave, { force: true });
    return false;
  }
  await rm(grave, { force: true });
  return true;
}

async function release(handle: LockHandle): Promise<void> {
  try {
    const current = await readOwner(handle.path);
    if (current?.token === handle.owner.token) await rm(handle.path, { force: true });
  } finally {
    HELD.delete(handle.owner.token);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
