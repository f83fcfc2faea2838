/**
 * The conventions docs/cli.md states (generated from scripts/cli-reference.ts) hold for the built
 * CLI: which code and exit status an unknown option, a value of the wrong form and an id of the
 * wrong form get; and `stats` with one argument that cannot be a snapshot id says its forms.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_REFERENCE_PATH } from '../../scripts/cli-reference.js';
import { CLI, runCli } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir } from '../helpers/repo.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function failure(args: string[]): [number | null, string, string] {
  const dir = repoWithCommit();
  const home = tempDir('agentgate-home-');
  made.push(dir, home);
  const res = runCli(['-C', dir, '--home', home, '--json', ...args]);
  const { code, message } = (res.json() as { error: { code: string; message: string } }).error;
  return [res.status, code, message];
}

describe('docs/cli.md conventions', () => {
  it('name the code and exit status the CLI gives a bad option, a bad value and a bad id', () => {
    const page = readFileSync(CLI_REFERENCE_PATH, 'utf8');
    const cases: Array<[string, number, string[][]]> = [
      ['USAGE', 2, [['before', '--no-such-option']]],
      ['INVALID_ARGUMENT', 2, [['after', '--run', 'r1', '--iteration', 'x']]],
      [
        'INVALID_ID',
        1,
        [
          ['after', '--run', 'bad id', '--iteration', '1'],
          ['gate', '--run', 'r1', '--name', 'bad name', '--', 'true'],
        ],
      ],
    ];
    for (const [code, exit, commands] of cases) {
      expect(page, code).toContain(`\`${code}\` (exit ${exit})`);
      for (const args of commands) expect(failure(args).slice(0, 2), args.join(' ')).toEqual([exit, code]);
    }
  });

  it('stats with one argument that is no snapshot id is INVALID_ID saying its forms', () => {
    const [status, code, message] = failure(['stats', 'HEAD~1']);
    expect([status, code]).toEqual([1, 'INVALID_ID']);
    // The message is the fix here: it names the two-revision form that was meant.
    expect(message).toMatch(/FROM TO/);
  });

  it('stats of a range suggests the two revisions that work', () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-home-');
    made.push(dir, home);
    git(dir, ['commit', '-q', '--allow-empty', '-m', 'second']);
    for (const range of ['HEAD~1..HEAD', 'HEAD~1..']) {
      const res = runCli(['-C', dir, '--home', home, '--json', 'stats', range]);
      const { code, message } = (res.json() as { error: { code: string; message: string } }).error;
      expect(code).toBe('INVALID_ID');
      const suggested = /\("stats ([^"]+)"\)/.exec(message)?.[1]?.split(' ') ?? [];
      expect(suggested).toEqual(['HEAD~1', 'HEAD']);
      expect(runCli(['-C', dir, '--home', home, '--json', 'stats', ...suggested]).status).toBe(0);
    }
  });

  it('a command started in a directory since deleted is WORKSPACE_NOT_FOUND, not INTERNAL', () => {
    const root = tempDir('agentgate-gone-');
    made.push(root);
    const gone = join(root, 'gone');
    mkdirSync(gone);
    const res = spawnSync(
      'sh',
      [
        '-c',
        'cd "$1" && rmdir "$1" && exec "$2" "$3" runs --json --home "$4"',
        'sh',
        gone,
        process.execPath,
        CLI,
        root,
      ],
      {
        encoding: 'utf8',
      },
    );
    expect([res.status, (JSON.parse(res.stdout) as { error: { code: string } }).error.code]).toEqual([
      1,
      'WORKSPACE_NOT_FOUND',
    ]);
  });
});
