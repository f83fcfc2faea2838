/**
 * Write failures met by the CLI for real: a file-size limit (`ulimit -f`, with SIGXFSZ ignored, so
 * writes past it fail with EFBIG exactly like a full disk fails with ENOSPC) and paths of the wrong
 * kind where the store, the locks, the artifacts or an output file go. Each is WRITE_FAILED with
 * exit status 1 and a message without a stack trace; every file that existed before is
 * byte-identical afterwards, no temporary file is left, and the same call succeeds once the fault is gone.
 * (An artifacts directory that is a file is refused before any work: INVALID_ARGUMENT.)
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../types/snapshot.js';
import { CLI, runCli } from '../helpers/cli.js';
import { commitAll, git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { changedSince, fileHashes, leftoverTemps, report, STACK_LINE, type CliRun } from './support.js';

const handled: string[] = [];

/** The CLI with writes limited to `kib` KiB per file (bash counts ulimit -f in 1024-byte blocks). */
function limitedCli(kib: number, args: string[], env: NodeJS.ProcessEnv): CliRun {
  const res = spawnSync(
    'bash',
    ['-c', `ulimit -f ${kib}; trap '' XFSZ; exec "$0" "$@"`, process.execPath, CLI, ...args],
    {
      env: { ...process.env, NO_COLOR: '1', ...env },
      encoding: 'utf8',
    },
  );
  return { status: res.status, signal: res.signal, stdout: res.stdout, stderr: res.stderr };
}

function cli(args: string[], env: NodeJS.ProcessEnv): CliRun {
  const res = runCli(args, { env });
  return { status: res.status, signal: null, stdout: res.stdout, stderr: res.stderr };
}

/** A workspace with one completed iteration (so that there are previous files to keep) and its own home. */
function started(): { ws: string; home: string; env: NodeJS.ProcessEnv } {
  const ws = repoWithCommit({ 'a.txt': 'one\n' });
  const home = tempDir('agentgate-wfc-home-');
  const env = { AGENTGATE_HOME: home };
  expect(cli(['before', '--run', 'r1', '-C', ws], env).status).toBe(0);
  writeFiles(ws, { 'a.txt': 'two\n' });
  expect(cli(['after', '--run', 'r1', '--iteration', '1', '-C', ws], env).status).toBe(0);
  expect(cli(['before', '--run', 'r1', '-C', ws], env).status).toBe(0);
  return { ws, home, env };
}

/** The failure is WRITE_FAILED, exit 1, a one-line message naming the problem; earlier files are untouched, no temp files remain. */
function expectWriteFailed(name: string, run: CliRun, home: string, previous: Map<string, string>): void {
  expect(run.status, `${name}: ${run.stdout}${run.stderr}`).toBe(1);
  const error = (JSON.parse(run.stdout) as { error: { code: string; message: string } }).error;
  expect(error.code, `${name}: ${error.message}`).toBe('WRITE_FAILED');
  expect(error.message.length).toBeGreaterThan(0);
  expect(run.stderr).not.toMatch(STACK_LINE);
  expect(changedSince(previous, home), `${name}: files changed`).toEqual([]);
  expect(leftoverTemps(home), `${name}: temp files`).toEqual([]);
  handled.push(name);
}

describe('a full disk (EFBIG under ulimit -f) through the CLI', () => {
  it('while writing the patch artifact: WRITE_FAILED, never a truncated patch stored as a success', async () => {
    const { ws, home, env } = started();
    writeFiles(ws, { 'big.txt': 'a line of the big file\n'.repeat(20_000) });
    const previous = fileHashes(home);
    const run = limitedCli(64, ['after', '--run', 'r1', '--iteration', '2', '-C', ws, '--json'], env);
    expectWriteFailed('patch artifact EFBIG', run, home, previous);
    expect(cli(['list', '--run', 'r1', '--json'], env).stdout).not.toContain('"iteration": 2');

    const retry = cli(['after', '--run', 'r1', '--iteration', '2', '-C', ws, '--json'], env);
    expect(retry.status, retry.stdout).toBe(0);
    expect((JSON.parse(retry.stdout) as Snapshot).filesChanged).toBe(1);
    expect(cli(['verify', '--all'], env).status).toBe(0);
  });

  it('while writing the snapshot metadata: WRITE_FAILED, the run record unchanged', async () => {
    const { ws, home, env } = started();
    // 400 mode changes: a small patch, and a snapshot file several times its size.
    const files = Object.fromEntries(Array.from({ length: 400 }, (_, i) => [`m${i}`, `${i}\n`]));
    writeFiles(ws, files);
    commitAll(ws, 'many files');
    expect(cli(['before', '--run', 'r1', '-C', ws], env).status).toBe(0);
    for (const name of Object.keys(files)) chmodSync(join(ws, name), 0o755);
    const previous = fileHashes(home);
    const run = limitedCli(40, ['after', '--run', 'r1', '--iteration', '2', '-C', ws, '--json'], env);
    expectWriteFailed('snapshot metadata EFBIG', run, home, previous);

    const retry = cli(['after', '--run', 'r1', '--iteration', '2', '-C', ws, '--json'], env);
    expect(retry.status, retry.stdout).toBe(0);
    expect((JSON.parse(retry.stdout) as Snapshot).filesChanged).toBe(400);
    expect(cli(['verify', '--all'], env).status).toBe(0);
  });
});

describe('the wrong kind of file where we write', () => {
  it('an artifacts directory that is a file, a locks directory that is a file, an output path that is a directory', async () => {
    const { ws, home, env } = started();
    writeFiles(ws, { 'b.txt': 'bee\n' });

    const notADir = join(tempDir('agentgate-wfc-'), 'artifacts');
    writeFileSync(notADir, 'a file, not a directory\n');
    let previous = fileHashes(home);
    const head = git(ws, ['rev-parse', 'HEAD']);
    const refused = cli(
      ['after', '--run', 'r1', '--iteration', '2', '-C', ws, '--artifacts-dir', notADir, '--json'],
      env,
    );
    expect(refused.status).toBe(2);
    expect((JSON.parse(refused.stdout) as { error: { code: string } }).error.code).toBe('INVALID_ARGUMENT');
    expect(changedSince(previous, home)).toEqual([]);
    expect(git(ws, ['rev-parse', 'HEAD'])).toBe(head);

    const list = JSON.parse(cli(['list', '--json'], env).stdout) as Snapshot[];
    const out = join(tempDir('agentgate-wfc-out-'), 'patch.diff');
    mkdirSync(out);
    previous = fileHashes(home);
    expectWriteFailed(
      'patch -o onto a directory',
      cli(['patch', list[0]!.id, '-o', out, '--json'], env),
      home,
      previous,
    );

    rmSync(join(home, 'locks'), { recursive: true, force: true });
    writeFileSync(join(home, 'locks'), 'a file, not a directory\n');
    previous = fileHashes(home);
    expectWriteFailed(
      'locks dir is a file',
      cli(['after', '--run', 'r1', '--iteration', '2', '-C', ws, '--json'], env),
      home,
      previous,
    );
    rmSync(join(home, 'locks'));

    writeFileSync(join(home, 'checkpoints'), 'a file, not a directory\n');
    previous = fileHashes(home);
    expectWriteFailed(
      'checkpoints dir is a file',
      cli(['checkpoint', 'track', '-C', ws, '--json'], env),
      home,
      previous,
    );
    rmSync(join(home, 'checkpoints'));

    const retry = cli(['after', '--run', 'r1', '--iteration', '2', '-C', ws, '--json'], env);
    expect(retry.status, retry.stdout).toBe(0);
    expect(cli(['checkpoint', 'track', '-C', ws], env).status).toBe(0);
    expect(cli(['verify', '--all'], env).status).toBe(0);
    report('write-failures', { layer: 'cli', faults: handled.length, cases: handled });
  });
});
