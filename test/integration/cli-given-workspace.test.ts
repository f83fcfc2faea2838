/**
 * A mistyped `-C` on the commands that read stored snapshots. `list`, `runs`, `gate list` and
 * `report` refused a -C that names no directory (WORKSPACE_NOT_FOUND), but `show`, `patch`,
 * `stats SNAPSHOT`, `delete` and `verify` went on without it: `show` printed the snapshot as if -C
 * had been right (with -C as its `workspace` where the recorded one is gone), `delete` deleted,
 * and `verify --run` failed every snapshot's `workspace` check (exit 3: a tampered run, to a gate)
 * instead of saying it could not run (exit 1). Each is WORKSPACE_NOT_FOUND now, changing nothing.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordedCliRun, type CliResult } from '../helpers/cli.js';
import { git, remove, tempDir } from '../helpers/repo.js';

let run: { dir: string; home: string; cli: (...args: string[]) => CliResult };
let id: string;
let elsewhere: string;

beforeAll(() => {
  run = recordedCliRun({ 'a.txt': 'one\n' });
  id = (JSON.parse(run.cli('list', '--json').stdout) as Array<{ id: string }>)[0]?.id as string;
  elsewhere = tempDir('agentgate-not-a-workspace-');
  writeFileSync(join(elsewhere, 'file.txt'), 'x\n');
});

afterAll(() => {
  remove(run.dir);
  remove(run.home);
  remove(elsewhere);
});

describe('a -C that names no directory', () => {
  const commands = () => [
    ['show', id],
    ['patch', id],
    ['patch', id, '-o', join(elsewhere, 'out.diff')],
    ['stats', id],
    ['stats', '--run', 'r1'],
    ['verify', id],
    ['verify', '--run', 'r1'],
    ['verify', '--all'],
    ['delete', id],
  ];
  for (const missing of ['missing', 'file.txt']) {
    it(`is WORKSPACE_NOT_FOUND for every read of the store (${missing})`, () => {
      const some = (args: string[]) => ['show', 'verify'].includes(args[0] as string) && args[1] !== '--all';
      for (const args of missing === 'missing' ? commands() : commands().filter(some)) {
        const res = run.cli('-C', join(elsewhere, missing), ...args, '--json');
        expect(res.status, `${args.join(' ')}: ${res.stdout}`).toBe(1);
        expect((res.json() as { error: { code: string } }).error.code, args.join(' ')).toBe(
          'WORKSPACE_NOT_FOUND',
        );
      }
      // Nothing was deleted or written.
      expect(run.cli('show', id, '--json').status).toBe(0);
      expect(run.cli('-C', elsewhere, 'list', '--json').status).toBe(0);
    });
  }
});

describe('a -C that names a directory but no work tree', () => {
  // `verify ID` and `verify --run` check every snapshot in the workspace -C names: there they cannot
  // run at all (exit 1), which is no failed `workspace` check of every snapshot (exit 3, a tampered
  // run to a gate). The whole store (`--all`) uses -C only for workspaces that are not here.
  it('is NOT_A_REPOSITORY (exit 1) for verify ID and verify --run', () => {
    for (const args of [
      ['verify', id],
      ['verify', '--run', 'r1'],
    ]) {
      const res = run.cli('-C', elsewhere, ...args, '--json');
      expect(res.status, `${args.join(' ')}: ${res.stdout}`).toBe(1);
      expect((res.json() as { error: { code: string } }).error.code).toBe('NOT_A_REPOSITORY');
    }
    expect(run.cli('-C', elsewhere, 'verify', '--all', '--json').status).toBe(0);
  });

  it('is UNSAFE_WORKSPACE (exit 1) for a bare repository holding the run', () => {
    const bare = join(elsewhere, 'bare.git');
    git(run.dir, ['clone', '-q', '--bare', run.dir, bare]);
    for (const args of [
      ['verify', id],
      ['verify', '--run', 'r1'],
    ]) {
      const res = run.cli('-C', bare, ...args, '--json');
      expect(res.status, `${args.join(' ')}: ${res.stdout}`).toBe(1);
      expect((res.json() as { error: { code: string } }).error.code).toBe('UNSAFE_WORKSPACE');
    }
  });
});
