/**
 * `gate --isolated` killed with SIGKILL (no chance to clean up): its check is ended all the same
 * (it would go on editing what the next call sweeps); its temporary checkout and its half-written
 * log are left behind; the next gate, isolated or not, sweeps both, and the workspace never changed.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, recordedCliRun } from '../helpers/cli.js';
import { finished } from '../helpers/node-child.js';
import { isRunning } from '../helpers/gates.js';
import { tempDir, writeFiles } from '../helpers/repo.js';
import { fingerprint } from '../helpers/snapshotter.js';

/** A run r1 whose `gate --isolated` was killed with SIGKILL while its check ran, in a workspace left as `files` say. */
async function killedIsolatedGate(files: Record<string, string>) {
  const { dir, home, cli } = recordedCliRun({ 'a.txt': 'iteration one\n' });
  writeFiles(dir, files);
  const before = fingerprint(dir);

  const pidFile = join(tempDir(), 'check.pid');
  // The check replaces its shell with sleep: it leads its own process group, so its pid names the group.
  const child = spawn(
    process.execPath,
    [
      CLI,
      '-C',
      dir,
      '--home',
      home,
      'gate',
      '--run',
      'r1',
      '--name',
      'slow',
      '--isolated',
      '--',
      'sh',
      '-c',
      `echo $$ > '${pidFile}'; exec sleep 1000`,
    ],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const done = finished(child);
  await expect
    .poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n'), { timeout: 30_000 })
    .toBe(true);
  const checkouts = join(home, 'tmp', 'gates');
  const iterationDir = join(home, 'artifacts', 'r1', 'iteration-1');
  expect(readdirSync(checkouts).length).toBeGreaterThan(0);
  child.kill('SIGKILL');
  expect((await done).signal).toBe('SIGKILL');
  // The check, in a process group of its own, is no child of the killed call any more: it is ended.
  const check = Number(readFileSync(pidFile, 'utf8'));
  await expect.poll(() => isRunning(check), { timeout: 30_000 }).toBe(false);

  expect(readdirSync(checkouts).length).toBeGreaterThan(0);
  expect(readdirSync(iterationDir).some((n) => n.endsWith('.tmp'))).toBe(true);
  expect(fingerprint(dir)).toBe(before);
  return { dir, cli, before, checkouts, iterationDir };
}

describe('gate --isolated under SIGKILL', () => {
  it("leaves the workspace untouched; the next call removes the dead call's checkout and temp log", async () => {
    const { dir, cli, before, checkouts, iterationDir } = await killedIsolatedGate({
      'a.txt': 'the agent is still editing\n',
    });
    const next = cli('gate', '--run', 'r1', '--name', 'quick', '--isolated', '--json', '--', 'true');
    expect(next.status).toBe(0);
    expect(readdirSync(checkouts)).toEqual([]);
    expect(readdirSync(iterationDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect((cli('gate', 'list', '--json').json() as Array<{ name: string }>).map((r) => r.name)).toEqual([
      'quick',
    ]);
    expect(fingerprint(dir)).toBe(before);
  });

  it("a gate in the workspace removes the dead call's checkout too", async () => {
    const { cli, checkouts, iterationDir } = await killedIsolatedGate({});
    const next = cli('gate', '--run', 'r1', '--name', 'quick', '--json', '--', 'true');
    expect(next.status, next.stderr).toBe(0);
    expect(readdirSync(checkouts)).toEqual([]);
    expect(readdirSync(iterationDir).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });
});
