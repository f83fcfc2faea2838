import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { isProcessGone } from '../../src/fs/lock.js';
import { OUTLIVED_GRACE_MS, runUserCommand } from '../../src/process/user-command.js';
import { isRunning } from '../helpers/gates.js';
import { tempDir } from '../helpers/repo.js';

/** A Writable that keeps what it is given. */
function collector(): Writable & { text: () => string } {
  const chunks: Buffer[] = [];
  const w = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  return Object.assign(w, { text: () => Buffer.concat(chunks).toString('utf8') });
}

/** A Writable that hashes what it is given and keeps nothing. */
function hasher(): Writable & { digest: () => { sha256: string; bytes: number } } {
  const hash = createHash('sha256');
  let bytes = 0;
  const w = new Writable({
    write(chunk: Buffer, _enc, done) {
      hash.update(chunk);
      bytes += chunk.length;
      done();
    },
  });
  return Object.assign(w, { digest: () => ({ sha256: hash.digest('hex'), bytes }) });
}

const node = (script: string) => [process.execPath, '-e', script];

describe('runUserCommand', () => {
  it('tee: echoes each stream to its target and logs both whole, in the order they arrived', async () => {
    const log = collector();
    const echo = { stdout: collector(), stderr: collector() };
    const result = await runUserCommand({
      argv: node(
        `const w = (s, t) => new Promise((r) => s.write(t, () => setTimeout(r, 50)));
         (async () => { await w(process.stdout, 'out1 '); await w(process.stderr, 'err1 '); await w(process.stdout, 'out2'); process.exit(4); })();`,
      ),
      cwd: tempDir(),
      stdio: 'tee',
      log,
      echo,
    });
    expect(result).toMatchObject({ exitCode: 4, signal: null, timedOut: false, spawnError: null });
    expect(log.text()).toBe('out1 err1 out2');
    expect(echo.stdout.text()).toBe('out1 out2');
    expect(echo.stderr.text()).toBe('err1 ');
  });

  it("tee with stdoutToStderr: the command's stdout goes to our stderr, our stdout gets nothing", async () => {
    const echo = { stdout: collector(), stderr: collector() };
    await runUserCommand({
      argv: node(`process.stdout.write('a'); process.stderr.write('b');`),
      cwd: tempDir(),
      stdio: 'tee',
      stdoutToStderr: true,
      echo,
    });
    expect(echo.stdout.text()).toBe('');
    expect(echo.stderr.text().split('').sort().join('')).toBe('ab');
  });

  it('a timeout kills the whole process group, a background grandchild included', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'grandchild.pid');
    const result = await runUserCommand({
      argv: ['sh', '-c', `sleep 1000 & echo $! > '${pidFile}'; wait`],
      cwd: dir,
      stdio: 'tee',
      echo: { stdout: collector(), stderr: collector() },
      group: true,
      timeoutMs: 500,
    });
    expect(result.timedOut).toBe(true);
    expect(result.exitCode).toBeNull();
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => isProcessGone(grandchild), { timeout: 10_000 }).toBe(true);
  });

  it('a grandchild left running by a command that exits is ended with it', async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'bg.pid');
    const result = await runUserCommand({
      argv: ['sh', '-c', `sleep 1000 >/dev/null 2>&1 & echo $! > '${pidFile}'; exit 0`],
      cwd: dir,
      stdio: 'tee',
      echo: { stdout: collector(), stderr: collector() },
      group: true,
    });
    expect(result.exitCode).toBe(0);
    const bg = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => isProcessGone(bg), { timeout: 10_000 }).toBe(true);
  });

  it('a background job that keeps the output pipes open does not keep the caller waiting', async () => {
    const log = collector();
    const result = await runUserCommand({
      argv: ['sh', '-c', 'echo started; sleep 1000 & exit 0'],
      cwd: tempDir(),
      stdio: 'tee',
      log,
      echo: { stdout: collector(), stderr: collector() },
      group: true,
    });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    expect(log.text()).toBe('started\n');
  });

  it("a process that outlived the command (setsid) is not counted in the command's duration", async () => {
    const dir = tempDir();
    const pidFile = join(dir, 'daemon.pid');
    const started = performance.now();
    const result = await runUserCommand({
      // The leader waits until the daemon is in a session of its own, then exits 0.
      argv: [
        'sh',
        '-c',
        `setsid sh -c 'echo $$ > "${pidFile}.tmp"; mv "${pidFile}.tmp" "${pidFile}"; exec sleep 600' &
         while [ ! -s '${pidFile}' ]; do sleep 0.05; done; exit 0`,
      ],
      cwd: dir,
      stdio: 'tee',
      echo: { stdout: collector(), stderr: collector() },
      group: true,
    });
    const elapsed = performance.now() - started;
    try {
      expect(result).toMatchObject({ exitCode: 0, timedOut: false, outlived: true });
      // The grace after the command's exit, waited for the process it left, is not its own time
      // (2 ms of slack: a timer may fire a millisecond early, and both sides are rounded).
      expect(result.durationMs).toBeLessThanOrEqual(elapsed - OUTLIVED_GRACE_MS + 2);
    } finally {
      // A process of the group's command is ended with it, wherever it went (escapees.ts).
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
      const running = pid > 0 && isRunning(pid);
      if (running) process.kill(pid, 'SIGKILL');
      expect(running).toBe(false);
    }
  });

  it('a command that is not there: spawnError ENOENT, no exit code, nothing thrown', async () => {
    const result = await runUserCommand({
      argv: ['agentgate-no-such-command-here'],
      cwd: tempDir(),
      stdio: 'tee',
      echo: { stdout: collector(), stderr: collector() },
      group: true,
    });
    expect(result.spawnError?.code).toBe('ENOENT');
    expect(result.exitCode).toBeNull();
    expect((await runUserCommand({ argv: [], cwd: tempDir(), stdio: 'inherit' })).spawnError?.code).toBe(
      'ENOENT',
    );
  });

  it('100 MB of output is logged whole (sha256 and size match, hashed as it streams)', async () => {
    const mb = 100;
    // 1 MiB of a fixed pattern, written 100 times.
    const script = `const b = Buffer.alloc(1 << 20, 'abcdefghijklmnopqrstuvwxyz0123456789\\n');
      let i = 0; const next = () => { while (i < ${mb}) { i++; if (!process.stdout.write(b)) return process.stdout.once('drain', next); } };
      next();`;
    const expected = createHash('sha256');
    const chunk = Buffer.alloc(1 << 20, 'abcdefghijklmnopqrstuvwxyz0123456789\n');
    for (let i = 0; i < mb; i++) expected.update(chunk);
    const log = hasher();
    const echo = { stdout: new PassThrough().resume(), stderr: collector() };
    const result = await runUserCommand({ argv: node(script), cwd: tempDir(), stdio: 'tee', log, echo });
    expect(result.exitCode).toBe(0);
    expect(log.digest()).toEqual({ sha256: expected.digest('hex'), bytes: mb * (1 << 20) });
  });
});
