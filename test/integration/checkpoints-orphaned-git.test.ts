/**
 * A checkpoint call killed alone (node, not its git children) leaves its git running in the store:
 * the call that takes its lock over waits for that git before removing the lock files it holds
 * (src/checkpoints/upkeep.ts repairOnAcquire, src/fs/git-locks.ts gitsEnded), as `before` and
 * `after` wait for theirs; one still running at the lock timeout is INDEX_LOCKED, its files untouched.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { Checkpoints } from '../../src/checkpoints/index.js';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { expectCode } from '../helpers/codes.js';
import { deadPid, until } from '../helpers/node-child.js';
import { tempDir, writeFiles } from '../helpers/repo.js';

/** The store lock as a killed holder left it. */
async function deadHolder(cp: Checkpoints): Promise<void> {
  const owner = {
    pid: await deadPid(),
    hostname: hostname(),
    createdAt: new Date().toISOString(),
    token: 'e'.repeat(24),
    purpose: 'checkpoint track (killed)',
  };
  writeFileSync(cp.location.lockPath, JSON.stringify(owner));
}

describe('a git that a killed checkpoint call left running in the store', () => {
  it('is waited for: INDEX_LOCKED at the lock timeout with its lock untouched, then the track once it ended', async () => {
    const ws = tempDir('agentgate-cp-orphan-');
    writeFiles(ws, { 'a.txt': 'one' });
    const cp = await openCheckpoints(ws, { lockTimeoutMs: 1_000 });
    const first = await cp.track();
    // The orphan: a git of the store (named by --git-dir, as ours are), still at work, and its index lock.
    const orphan = spawn('git', [`--git-dir=${cp.location.gitDir}`, 'hash-object', '--stdin'], {
      stdio: ['pipe', 'ignore', 'ignore'],
    });
    const exited = new Promise((resolve) => orphan.on('close', resolve));
    await until(() => orphan.pid !== undefined);
    const indexLock = `${cp.location.indexFile}.lock`;
    writeFileSync(indexLock, '');
    await deadHolder(cp);
    writeFiles(ws, { 'a.txt': 'two' });
    try {
      await expectCode(cp.track(), 'INDEX_LOCKED');
      expect(existsSync(indexLock)).toBe(true);
    } finally {
      orphan.stdin.end();
      await exited;
    }
    // Ended (a git killed with its caller leaves its lock behind): the next take-over removes it.
    await deadHolder(cp);
    const next = await cp.track();
    expect(next.hash).not.toBe(first.hash);
    expect(existsSync(indexLock)).toBe(false);
  });
});
