/**
 * Calls on one repository are serialised (in one process and across processes), wait a bounded
 * time (LOCK_TIMEOUT), and recover a stale lock whose owner is provably dead, together with the
 * index.lock that owner's git left behind, but never an index.lock that predates it.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { deadPid, finished, printed, spawnTs } from '../helpers/node-child.js';
import { git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { expectCode, fingerprint, newSnapshotter } from '../helpers/snapshotter.js';

/** The index holds exactly HEAD's tree and the work tree is clean: nothing was half-staged. */
function expectIntact(dir: string): void {
  expect(git(dir, ['diff-index', '--cached', 'HEAD'])).toBe('');
  expect(git(dir, ['status', '--porcelain', '--untracked-files=all'])).toBe('');
  expect(existsSync(join(dir, '.git', 'index.lock'))).toBe(false);
  expect(existsSync(join(dir, '.git', 'agentgate.lock'))).toBe(false);
}

describe('repository lock', () => {
  it('serialises two captureAfterState calls on the same repository in one process', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const [s1, s2] = [newSnapshotter(), newSnapshotter()];
    const [b1, b2] = [
      await s1.captureBeforeState(dir, { runId: 'one' }),
      await s2.captureBeforeState(dir, { runId: 'two' }),
    ];
    writeFiles(dir, { 'a.txt': 'changed\n', 'b.txt': 'b\n' });
    const [x, y] = await Promise.all([
      s1.captureAfterState(dir, b1, { runId: 'one', iteration: 1 }),
      s2.captureAfterState(dir, b2, { runId: 'two', iteration: 1 }),
    ]);
    // Whoever ran first committed the change; the second found nothing left and, HEAD being the
    // other run's commit, made a commit of its own on top of it, so that both records verify.
    const [first, second] = y.afterSha === head(dir) ? [x, y] : [y, x];
    expect(second.afterSha).toBe(head(dir));
    expect(git(dir, ['rev-parse', 'HEAD^'])).toBe(first.afterSha);
    expect(git(dir, ['rev-list', '--count', `${b1.sha}..HEAD`])).toBe('2');
    expect([x.filesChanged, y.filesChanged]).toEqual([2, 2]);
    expect((await s1.verify({ runId: 'one' })).ok).toBe(true);
    expect((await s2.verify({ runId: 'two' })).ok).toBe(true);
    expectIntact(dir);
  });

  it('serialises two CLI processes capturing the same repository at once', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const home = tempDir('agentgate-home-');
    const cli = (args: string[]) =>
      finished(
        spawn(process.execPath, [CLI, ...args, '-C', dir, '--home', home, '--json'], {
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      );
    for (const run of ['p1', 'p2']) expect((await cli(['before', '--run', run])).code).toBe(0);
    writeFiles(dir, { 'a.txt': 'changed\n', 'c.txt': 'c\n' });
    const results = await Promise.all(
      ['p1', 'p2'].map((run) => cli(['after', '--run', run, '--iteration', '1'])),
    );
    for (const r of results) expect(r.code, r.stdout + r.stderr).toBe(0);
    const afters = results.map((r) => (JSON.parse(r.stdout) as { afterSha: string }).afterSha);
    // The second made a commit of its own on the first's (see above).
    expect(afters.sort()).toEqual([head(dir), git(dir, ['rev-parse', 'HEAD^'])].sort());
    expect(git(dir, ['rev-list', '--count', 'HEAD'])).toBe('3');
    expectIntact(dir);
  });

  it('gives up with LOCK_TIMEOUT while another live process holds the lock, changing nothing', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter({ lockTimeoutMs: 50 });
    const before = await s.captureBeforeState(dir, { runId: 'busy' });
    writeFiles(dir, { 'x.txt': 'x\n' });
    const holder = spawnTs('lock-child.ts', ['hold', join(dir, '.git', 'agentgate.lock')]);
    const done = finished(holder);
    try {
      await printed(holder, 'held');
      const print = fingerprint(dir);
      await expectCode(s.captureAfterState(dir, before, { runId: 'busy', iteration: 1 }), 'LOCK_TIMEOUT');
      await expectCode(s.captureBeforeState(dir, { runId: 'busy' }), 'LOCK_TIMEOUT');
      expect(fingerprint(dir)).toBe(print);
    } finally {
      holder.kill('SIGKILL');
      await done;
    }
    // The holder died with the lock held: the next call takes it over.
    const snap = await s.captureAfterState(dir, before, { runId: 'busy', iteration: 1 });
    expect(snap.afterSha).toBe(head(dir));
    expectIntact(dir);
  });

  it("recovers a dead owner's lock together with the index.lock its git left behind", async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'stale' });
    writeFiles(dir, { 'x.txt': 'x\n' });
    await plantStaleLock(dir, Date.now() - 60_000);
    writeFileSync(join(dir, '.git', 'index.lock'), '');
    const snap = await s.captureAfterState(dir, before, { runId: 'stale', iteration: 1 });
    expect(snap.files.map((f) => f.path)).toEqual(['x.txt']);
    expect(head(dir)).toBe(snap.afterSha);
    expectIntact(dir);
  });

  it('recovers the ref locks a killed update-ref of the dead owner left behind', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'reflock' });
    writeFiles(dir, { 'x.txt': 'x\n' });
    await plantStaleLock(dir, Date.now() - 60_000);
    const refLocks = [
      join(dir, '.git', 'refs', 'heads', 'main.lock'),
      join(dir, '.git', 'refs', 'agentgate', 'runs', 'reflock', 'iteration-1.lock'),
    ];
    for (const lock of refLocks) {
      mkdirSync(dirname(lock), { recursive: true });
      writeFileSync(lock, '');
    }
    const snap = await s.captureAfterState(dir, before, { runId: 'reflock', iteration: 1 });
    expect(head(dir)).toBe(snap.afterSha);
    expect(git(dir, ['rev-parse', 'refs/agentgate/runs/reflock/iteration-1'])).toBe(snap.afterSha);
    for (const lock of refLocks) expect(existsSync(lock)).toBe(false);
    expectIntact(dir);
  });

  it('recovers the ref locks of a chain of killed calls: one killed before it mended what the one before left', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'chain' });
    writeFiles(dir, { 'x.txt': 'x\n' });
    // The first call left main.lock a minute ago; the second took its lock over now, and died too.
    const refLock = join(dir, '.git', 'refs', 'heads', 'main.lock');
    writeFileSync(refLock, '');
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(refLock, minuteAgo, minuteAgo);
    await plantStaleLock(dir, Date.now(), Date.now() - 90_000);
    const snap = await s.captureAfterState(dir, before, { runId: 'chain', iteration: 1 });
    expect(existsSync(refLock)).toBe(false);
    expect(head(dir)).toBe(snap.afterSha);
    expectIntact(dir);
  });

  it('leaves the index.lock of a git the dead owner left running (node killed alone) to that git', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter({ lockTimeoutMs: 1000 });
    const before = await s.captureBeforeState(dir, { runId: 'orphan' });
    writeFiles(dir, { 'x.txt': 'x\n' });
    await plantStaleLock(dir, Date.now() - 60_000);
    // The orphaned git: took index.lock during the dead owner's tenure and still holds it open.
    const indexLock = join(dir, '.git', 'index.lock');
    const orphan = spawn(process.execPath, ['-e', HOLD_UNTIL_STDIN_ENDS, indexLock], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const done = finished(orphan);
    try {
      await printed(orphan, 'held');
      const held = statSync(indexLock).ino;
      await expectCode(s.captureAfterState(dir, before, { runId: 'orphan', iteration: 1 }), 'INDEX_LOCKED');
      // Its lock file is untouched: git would otherwise rename another's lock file over the index.
      expect(statSync(indexLock).ino).toBe(held);
    } finally {
      orphan.stdin?.end();
      await done;
    }
    expect(existsSync(indexLock)).toBe(false);
    const snap = await s.captureAfterState(dir, before, { runId: 'orphan', iteration: 1 });
    expect(snap.files.map((f) => f.path)).toEqual(['x.txt']);
    expectIntact(dir);
  });

  it('recovers an index.lock no process holds, even one older than the dead owner (a git that died on its own)', async () => {
    const dir = repoWithCommit();
    const s = newSnapshotter();
    const before = await s.captureBeforeState(dir, { runId: 'foreign' });
    writeFiles(dir, { 'x.txt': 'x\n' });
    const indexLock = join(dir, '.git', 'index.lock');
    writeFileSync(indexLock, '');
    const old = new Date(Date.now() - 3_600_000);
    utimesSync(indexLock, old, old);
    await plantStaleLock(dir, Date.now());
    const snap = await s.captureAfterState(dir, before, { runId: 'foreign', iteration: 1 });
    expect(existsSync(indexLock)).toBe(false);
    expect(existsSync(join(dir, '.git', 'agentgate.lock'))).toBe(false);
    expect(head(dir)).toBe(snap.afterSha);
    expectIntact(dir);
  });
});

/** A child that creates the lock file named by its argument, holds it open, and removes it once its stdin ends. */
const HOLD_UNTIL_STDIN_ENDS = `
const fs = require('node:fs');
const path = process.argv[1];
const fd = fs.openSync(path, 'wx');
process.stdout.write('held\\n');
process.stdin.resume();
process.stdin.on('end', () => { fs.closeSync(fd); fs.rmSync(path, { force: true }); });
`;

/**
 * Writes agentgate.lock as a process that has since died would have left it, taken at `since`
 * (from a dead owner that held it from `heldSince`, when given).
 */
async function plantStaleLock(dir: string, since: number, heldSince?: number): Promise<void> {
  const owner = {
    pid: await deadPid(),
    hostname: hostname(),
    createdAt: new Date(since).toISOString(),
    token: 'f'.repeat(24),
    purpose: 'snapshot (killed)',
    ...(heldSince === undefined ? {} : { heldSince: new Date(heldSince).toISOString() }),
  };
  writeFileSync(join(dir, '.git', 'agentgate.lock'), JSON.stringify(owner));
}
