import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CLI, okIn } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

interface Result {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The CLI in `ws` with `home`, not blocking the test's own process: a call that blocks on a FIFO
 * fails the test by its timeout, and the child is killed when the test ends, whatever its outcome.
 */
function cli(ws: string, home: string, args: string[]): Promise<Result> {
  const abort = new AbortController();
  onTestFinished(() => abort.abort());
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, '-C', ws, '--home', home, '--json', ...args], {
      cwd: ws,
      env: { ...process.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      signal: abort.signal,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** The files named by the STORE_CORRUPT warnings a listing printed on stderr. */
function warnedFiles(res: Result): string[] {
  const { warnings } = JSON.parse(res.stderr) as { warnings: { code: string; file: string }[] };
  expect(warnings.every((w) => w.code === 'STORE_CORRUPT')).toBe(true);
  return warnings.map((w) => w.file).sort();
}

function errorOf(res: Result): { code: string; details: Record<string, unknown> } {
  return (JSON.parse(res.stdout) as { error: { code: string; details: Record<string, unknown> } }).error;
}

/** A home with one run `r` of one snapshot (n.txt edited), and the snapshot's id and patch. */
function recordedRun(): { ws: string; home: string; id: string; patchPath: string } {
  const ws = repoWithCommit({ 'n.txt': '1\n2\n3\n' });
  const home = join(tempDir(), 'home');
  mkdirSync(home);
  okIn(ws, home, ['before', '--run', 'r']);
  writeFiles(ws, { 'n.txt': '1\nAGENT\n3\n' });
  const snap = okIn<{ id: string; patchPath: string }>(ws, home, ['after', '--run', 'r', '--iteration', '1']);
  return { ws, home, id: snap.id, patchPath: snap.patchPath };
}

describe('a FIFO, a device or a socket in the store is a damaged file, never read', () => {
  it('listings warn and go on; show, delete, report and trace stop with STORE_CORRUPT naming it; verify fails its check', async () => {
    const { ws, home, id } = recordedRun();
    const fifo = join(home, 'snapshots', 'snap-fifo.json');
    const runFifo = join(home, 'runs', 'zz.json');
    const device = join(home, 'snapshots', 'snap-zero.json');
    execFileSync('mkfifo', [fifo, runFifo]);
    symlinkSync('/dev/zero', device);
    const socket = join(home, 'snapshots', 'snap-sock.json');
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(socket, resolve));
    onTestFinished(() => void server.close());

    const list = await cli(ws, home, ['list']);
    expect(list.status).toBe(0);
    expect((JSON.parse(list.stdout) as { id: string }[]).map((s) => s.id)).toEqual([id]);
    expect(warnedFiles(list)).toEqual([fifo, socket, device].sort());

    const runs = await cli(ws, home, ['runs']);
    expect(runs.status).toBe(0);
    expect((JSON.parse(runs.stdout) as { runId: string }[]).map((r) => r.runId)).toEqual(['r']);
    expect(warnedFiles(runs)).toEqual([runFifo]);

    const verify = await cli(ws, home, ['verify', '--all']);
    expect(verify.status).toBe(3);
    const checks = (JSON.parse(verify.stdout) as { checks: { check: string; ok: boolean; detail: string }[] })
      .checks;
    const failed = checks.filter((c) => c.check === 'store-file' && !c.ok).map((c) => c.detail);
    for (const path of [fifo, socket, device, runFifo])
      expect(failed.some((d) => d.includes(path))).toBe(true);

    for (const [args, path] of [
      [['show', 'snap-fifo'], fifo],
      [['show', 'snap-zero'], device],
      [['delete', 'snap-fifo'], fifo],
      [['report', '--run', 'zz'], runFifo],
      [['trace', 'n.txt'], fifo],
    ] as const) {
      const res = await cli(ws, home, [...args]);
      expect(res.status, args.join(' ')).toBe(1);
      expect(errorOf(res), args.join(' ')).toMatchObject({ code: 'STORE_CORRUPT', details: { path } });
    }
  });

  it('a FIFO in place of a patch artifact: patch and report regenerate the diff from git', async () => {
    const { ws, home, id, patchPath } = recordedRun();
    const expected = (await cli(ws, home, ['patch', id])).stdout;
    rmSync(patchPath);
    execFileSync('mkfifo', [patchPath]);
    const patch = await cli(ws, home, ['patch', id]);
    expect(patch.status).toBe(0);
    expect(patch.stdout).toBe(expected);
    const report = await cli(ws, home, ['report', '--run', 'r', '--format', 'json']);
    expect(report.status).toBe(0);
    expect(git(ws, ['status', '--porcelain'])).toBe('');
  });

  it("a FIFO at the home's config.yaml: every command CONFIG_INVALID, an agent hook exits 0 at once; --config still reads a pipe", async () => {
    const { ws, home } = recordedRun();
    const config = join(home, 'config.yaml');
    execFileSync('mkfifo', [config]);
    for (const args of [['runs'], ['before', '--run', 'r2'], ['checkpoint', 'track']]) {
      const res = await cli(ws, home, args);
      expect(res.status, args.join(' ')).toBe(1);
      expect(errorOf(res), args.join(' ')).toMatchObject({
        code: 'CONFIG_INVALID',
        details: { path: config },
      });
    }
    // An agent's hook never waits on it: it says why on stderr and exits 0.
    const event = JSON.stringify({ hook_event_name: 'SessionStart', session_id: 's', cwd: ws });
    const hook = await new Promise<Result>((resolve, reject) => {
      const abort = new AbortController();
      onTestFinished(() => abort.abort());
      const child = spawn(process.execPath, [CLI, 'hook', 'claude-code', '--home', home], {
        cwd: ws,
        stdio: ['pipe', 'pipe', 'pipe'],
        signal: abort.signal,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (status) => resolve({ status, stdout, stderr }));
      child.stdin.end(event);
    });
    expect([hook.status, hook.stdout]).toEqual([0, '']);
    expect(hook.stderr).toContain('CONFIG_INVALID');
    // A config given with --config may be a pipe (`--config <(...)`): read as given.
    const piped = spawnSync(
      'bash',
      [
        '-c',
        '"$0" "$1" -C "$2" --home "$3" --config <(echo "onDirty: error") --json runs',
        process.execPath,
        CLI,
        ws,
        home,
      ],
      { encoding: 'utf8' },
    );
    expect(piped.status, piped.stdout).toBe(0);
  });
});
