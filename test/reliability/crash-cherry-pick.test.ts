/**
 * `cherry-pick --onto BRANCH` SIGKILLed while its temporary worktree exists (no chance to clean
 * up): the worktree stays registered in the repository and its checkout in the temp directory; the
 * next cherry-pick removes both, and the workspace never changed.
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { finished } from '../helpers/node-child.js';
import { git, tempDir, writeFiles } from '../helpers/repo.js';
import { fingerprint } from '../helpers/snapshotter.js';
import { byStress, cliAsync, makeLargeRepo, okJson } from './support.js';

/** Our pick worktrees registered in the repository. */
function pickRegistrations(ws: string): string[] {
  const admin = join(ws, '.git', 'worktrees');
  return existsSync(admin) ? readdirSync(admin).filter((n) => n.startsWith('agentgate-pick-')) : [];
}

function pickTemps(): string[] {
  return readdirSync(tmpdir()).filter((n) => n.startsWith('agentgate-pick-'));
}

/** Starts the pick in a process group of its own; kills the group once its worktree is registered. */
async function pickKilledInWorktree(ws: string, home: string, id: string): Promise<boolean> {
  const child = spawn(
    process.execPath,
    [CLI, '--home', home, 'cherry-pick', id, '--onto', 'side', '--json'],
    {
      cwd: ws,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    },
  );
  const done = finished(child);
  let exited = false;
  void done.then(() => (exited = true));
  while (!exited && pickRegistrations(ws).length === 0) await new Promise((r) => setImmediate(r));
  if (!exited) process.kill(-(child.pid as number), 'SIGKILL');
  const result = await done;
  return result.signal === 'SIGKILL';
}

describe('cherry-pick --onto under SIGKILL', () => {
  it('the next cherry-pick removes the worktree a killed one left, its checkout and registration', async () => {
    const root = tempDir('agentgate-crash-pick-');
    const ws = join(root, 'ws');
    makeLargeRepo(ws, { files: byStress(1500, 3000), lines: 40, binaries: 4, binaryBytes: 16 * 1024 });
    const home = join(root, 'home');
    const run = (args: string[]) => cliAsync(['--home', home, ...args, '--json'], { cwd: ws });
    git(ws, ['branch', 'side']);
    okJson(await run(['before', '--run', 'p']), 'before');
    writeFiles(ws, { 'picked.txt': 'the change\n' });
    const { id } = okJson<{ id: string }>(await run(['after', '--run', 'p', '--iteration', '1']), 'after');
    const side = git(ws, ['rev-parse', 'side']);
    const print = fingerprint(ws);

    // A pick that outran the watcher (or removed its worktree just before the kill) is undone, and
    // the kill tried again.
    let killed = false;
    for (let attempt = 0; attempt < 20 && !killed; attempt++) {
      killed = (await pickKilledInWorktree(ws, home, id)) && pickRegistrations(ws).length > 0;
      if (!killed) git(ws, ['branch', '-f', 'side', side]);
    }
    expect(killed).toBe(true);
    expect(pickRegistrations(ws)).toHaveLength(1);
    expect(pickTemps().length).toBeGreaterThan(0);
    expect(git(ws, ['rev-parse', 'side'])).toBe(side);

    const picked = okJson<{ sha: string }>(await run(['cherry-pick', id, '--onto', 'side']), 'cherry-pick');
    expect(git(ws, ['rev-parse', 'side'])).toBe(picked.sha);
    expect(pickRegistrations(ws)).toEqual([]);
    expect(pickTemps()).toEqual([]);
    expect(git(ws, ['worktree', 'list', '--porcelain']).match(/^worktree /gm)).toHaveLength(1);
    expect(fingerprint(ws).replace(side, picked.sha)).toBe(print.replace(side, picked.sha));
  });
});
