/**
 * A workspace moved or renamed in the middle of a run (`mv project project2`, `git worktree move`):
 * `show`, `list`, `verify -C` and `push` already followed it (a recorded workspace that is not here
 * stands for the one given), but `before`, `after` and `iterate` refused the run for good with
 * RUN_WORKSPACE_MISMATCH, telling to start another run. A run whose recorded workspace is no longer
 * a directory, and whose commits this repository holds, now goes on where the repository is, and
 * its records name the new path (src/snapshotter/moved-run.ts). A copy is no move.
 */
import { cpSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { RunRecord } from '../../types/run.js';
import { Snapshot } from '../../types/snapshot.js';
import { cliIn, okIn, runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** A run `r` with iteration 1 recorded in a fresh workspace. */
function runWithOneIteration(): { ws: string; home: string; first: Snapshot } {
  const ws = repoWithCommit({ 'a.txt': 'one\n' });
  const home = tempDir('agentgate-moved-home-');
  okIn(ws, home, ['before', '--run', 'r']);
  writeFiles(ws, { 'a.txt': 'two\n' });
  const first = z.parse(Snapshot, okIn(ws, home, ['after', '--run', 'r', '--iteration', '1']));
  return { ws, home, first };
}

describe('a run whose workspace was moved', () => {
  it('goes on in the moved workspace: before, after and iterate, and every record names the new path', () => {
    const { ws, home, first } = runWithOneIteration();
    const moved = `${ws}-moved`;
    renameSync(ws, moved);

    okIn(moved, home, ['before', '--run', 'r']);
    writeFiles(moved, { 'a.txt': 'three\n' });
    const second = z.parse(Snapshot, okIn(moved, home, ['after', '--run', 'r', '--iteration', '2']));
    expect(second).toMatchObject({ beforeSha: first.afterSha, workspace: moved, filesChanged: 1 });
    const third = z.parse(
      Snapshot,
      okIn(moved, home, ['iterate', '--run', 'r', '--iteration', '3', '--', 'sh', '-c', 'echo 4 > a.txt']),
    );
    expect(third).toMatchObject({ beforeSha: second.afterSha, workspace: moved });

    // Read from elsewhere, with no -C: the records themselves name the new path.
    const elsewhere = tempDir('agentgate-moved-cwd-');
    const env = { AGENTGATE_HOME: home };
    const runs = z.parse(z.array(RunRecord), runCli(['runs', '--json'], { cwd: elsewhere, env }).json());
    expect(runs.map((r) => r.workspace)).toEqual([moved]);
    const list = z.parse(z.array(Snapshot), runCli(['list', '--json'], { cwd: elsewhere, env }).json());
    expect(list.map((s) => [s.iteration, s.workspace])).toEqual([
      [1, moved],
      [2, moved],
      [3, moved],
    ]);
    const verify = runCli(['verify', '--run', 'r', '--json'], { cwd: elsewhere, env });
    expect(verify.status, verify.stdout).toBe(0);
  });

  it('a copy is no move: while the recorded workspace is there, another is RUN_WORKSPACE_MISMATCH', () => {
    const { ws, home } = runWithOneIteration();
    const copy = `${ws}-copy`;
    cpSync(ws, copy, { recursive: true });
    const res = cliIn(copy, home, ['before', '--run', 'r']);
    expect(res.status).toBe(1);
    expect(res.json()).toMatchObject({ error: { code: 'RUN_WORKSPACE_MISMATCH' } });
  });

  it('a repository without the run’s commits does not take the run over, though its workspace is gone', () => {
    const { ws, home } = runWithOneIteration();
    renameSync(ws, `${ws}-gone`);
    const other = repoWithCommit({ 'b.txt': 'other\n' });
    for (const args of [
      ['before', '--run', 'r'],
      ['after', '--run', 'r', '--iteration', '2'],
    ]) {
      const res = cliIn(other, home, args);
      expect(res.status).toBe(1);
      expect(res.json()).toMatchObject({ error: { code: 'RUN_WORKSPACE_MISMATCH' } });
    }
    const stored = z.parse(RunRecord, JSON.parse(readFileSync(join(home, 'runs', 'r.json'), 'utf8')));
    expect(stored.workspace).toBe(ws);
  });
});
