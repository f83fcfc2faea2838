/**
 * Choosing what a gate command works on: `gate replay --id` when two machines both recorded attempt
 * K (an ambiguous --attempt is AMBIGUOUS_ID), `gate list --iteration` of an iteration the run never
 * had, and one rule for an option's range (--timeout, --duration-ms).
 */
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../types/gate.js';
import { GateStore } from '../../src/store/gate-store.js';
import { runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** A workspace with run r1 (one iteration), its home, and the CLI on both. */
function cliRun(): { home: string; cli: (...args: string[]) => ReturnType<typeof runCli> } {
  const dir = repoWithCommit({ 'README.md': 'hello\n' });
  const home = tempDir('agentgate-home-');
  const cli = (...args: string[]) => runCli(['-C', dir, '--home', home, ...args], { cwd: dir });
  expect(cli('before', '--run', 'r1').status).toBe(0);
  writeFiles(dir, { 'a.txt': 'a\n' });
  expect(cli('after', '--run', 'r1', '--iteration', '1').status).toBe(0);
  return { home, cli };
}

const codeOf = (res: ReturnType<typeof runCli>) => (res.json() as { error?: { code: string } }).error?.code;

describe('gate replay in a matrix: two verdicts numbered attempt 1', () => {
  it('--attempt 1 is AMBIGUOUS_ID listing both ids; --id picks one', async () => {
    const { home, cli } = cliRun();
    const ours = cli('gate', '--run', 'r1', '--name', 't', '--isolated', '--json', '--', 'true');
    expect(ours.status, ours.stderr).toBe(0);
    const mine = ours.json() as GateResult;
    // Another runner's attempt 1, given to `gate record` there, as a fetch stores it.
    const theirs: GateResult = {
      ...mine,
      id: 'otherrunnerverdict01',
      command: null,
      observed: false,
      isolated: false,
      log: null,
    };
    await new GateStore(home).receive(theirs);

    const replay = (...args: string[]) => cli('gate', 'replay', '--run', 'r1', ...args, '--yes', '--json');
    const ambiguous = replay('--iteration', '1', '--name', 't', '--attempt', '1');
    expect(ambiguous.status).toBe(1);
    const error = (ambiguous.json() as { error: { code: string; details: { candidates: unknown[] } } }).error;
    expect(error.code).toBe('AMBIGUOUS_ID');
    expect(error.details.candidates).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: mine.id, replayable: true }),
        expect.objectContaining({ id: theirs.id, replayable: false }),
      ]),
    );

    const byId = replay('--id', mine.id);
    expect(byId.status, byId.stderr).toBe(0);
    expect(byId.json()).toMatchObject({ reproduced: true, original: { id: mine.id } });
    expect(codeOf(replay('--id', theirs.id))).toBe('GATE_NOT_REPLAYABLE');
    expect(codeOf(replay('--id', 'nosuchverdict'))).toBe('GATE_NOT_FOUND');
    expect(codeOf(replay('--id', mine.id, '--name', 'other'))).toBe('GATE_NOT_FOUND');
    expect(codeOf(replay('--id', mine.id, '--attempt', '1'))).toBe('USAGE');
    expect(codeOf(replay('--name', 't'))).toBe('USAGE');
    // The default (no --attempt) is still the newest verdict with a command.
    expect(replay('--iteration', '1', '--name', 't').status).toBe(0);
  });
});

describe('gate list --iteration', () => {
  it('of an iteration the run never had is ITERATION_NOT_FOUND, as for gate; of one without verdicts, []', () => {
    const { cli } = cliRun();
    const missing = cli('gate', 'list', '--run', 'r1', '--iteration', '99', '--json');
    expect(missing.status).toBe(1);
    expect(codeOf(missing)).toBe('ITERATION_NOT_FOUND');
    expect(
      codeOf(cli('gate', '--run', 'r1', '--iteration', '99', '--name', 't', '--json', '--', 'true')),
    ).toBe('ITERATION_NOT_FOUND');
    expect(cli('gate', 'list', '--run', 'r1', '--iteration', '1', '--json').json()).toEqual([]);
  });
});

describe('an option out of its range', () => {
  it('--timeout and --duration-ms: one code (INVALID_ARGUMENT, exit 2) whatever the wrong value', () => {
    const { cli } = cliRun();
    for (const value of ['abc', '0', '2147484', '99999999999']) {
      const res = cli('gate', '--run', 'r1', '--name', 't', '--timeout', value, '--json', '--', 'true');
      expect(res.status, value).toBe(2);
      expect(codeOf(res), value).toBe('INVALID_ARGUMENT');
    }
    for (const value of ['-1', '2147483648']) {
      const res = cli(
        'gate',
        'record',
        '--run',
        'r1',
        '--name',
        't',
        '--exit-code',
        '0',
        `--duration-ms=${value}`,
        '--json',
      );
      expect(res.status, value).toBe(2);
      expect(codeOf(res), value).toBe('INVALID_ARGUMENT');
    }
    expect(cli('gate', 'list', '--run', 'r1', '--json').json()).toEqual([]);
  });
});
