import { spawnSync } from 'node:child_process';
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GateResult } from '../../types/gate.js';
import { GateStore } from '../../src/store/gate-store.js';
import { CLI, recordedCliRun, runCli } from '../helpers/cli.js';
import { nodeTestCommand, nodeTests } from '../helpers/gates.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** A workspace with run r1 recorded through the CLI (one iteration adding a Node test file), and its own home. */
function cliRun(): { dir: string; cli: (...args: string[]) => ReturnType<typeof runCli> } {
  const dir = repoWithCommit({ 'README.md': 'hello\n', '.gitignore': 'junit*.xml\n' });
  const home = tempDir('agentgate-home-');
  const cli = (...args: string[]) => runCli(['-C', dir, '--home', home, ...args], { cwd: dir });
  expect(cli('before', '--run', 'r1').status).toBe(0);
  writeFiles(dir, { 't.test.mjs': nodeTests(2) });
  expect(cli('after', '--run', 'r1', '--iteration', '1').status).toBe(0);
  return { dir, cli };
}

/** `gate` of run r1 named test, reading junit.xml; the command follows `--`. */
const TEST_GATE = ['gate', '--run', 'r1', '--name', 'test', '--junit', 'junit.xml'];

describe('agentgate-snapshot gate (the built CLI)', () => {
  it("--json: stdout is one GateResult, the check's stdout goes to stderr; exit 0 on pass", () => {
    const { cli } = cliRun();
    const res = cli(...TEST_GATE, '--json', '--', ...nodeTestCommand('t.test.mjs'));
    expect(res.status).toBe(0);
    const result = GateResult.parse(res.json());
    expect(result).toMatchObject({ verdict: 'pass', tests: { total: 2, passed: 2 }, observed: true });
    const echoed = cli(
      'gate',
      '--run',
      'r1',
      '--name',
      'echo',
      '--json',
      '--',
      'sh',
      '-c',
      'echo from-the-check',
    );
    expect(echoed.stderr).toContain('from-the-check');
    expect(GateResult.parse(echoed.json()).log?.bytes).toBe('from-the-check\n'.length);
  });

  it('exit 3 on fail, 1 on error (with the verdict recorded and printed), 2 on usage', () => {
    const { cli } = cliRun();
    expect(cli('gate', '--run', 'r1', '--name', 'f', '--', 'false').status).toBe(3);
    const error = cli('gate', '--run', 'r1', '--name', 'e', '--json', '--', 'agentgate-no-such-tool');
    expect(error.status).toBe(1);
    expect((error.json() as GateResult).reason).toMatch(/^GATE_COMMAND_NOT_FOUND: /);
    const timeout = cli(
      'gate',
      '--run',
      'r1',
      '--name',
      't',
      '--timeout',
      '1',
      '--json',
      '--',
      'sleep',
      '100',
    );
    expect(timeout.status).toBe(1);
    expect((timeout.json() as GateResult).reason).toMatch(/^GATE_TIMEOUT: /);
    expect(cli('gate', '--run', 'r1', '--name', 'u').status).toBe(2);
    const unsafe = cli('gate', '--run', 'r1', '--name', 'a/b', '--json', '--', 'true');
    expect(unsafe.status).toBe(1);
    expect(unsafe.json()).toMatchObject({ error: { code: 'INVALID_ID' } });
    expect(
      cli('gate', '--run', 'r1', '--iteration', '9', '--name', 'x', '--json', '--', 'true').json(),
    ).toMatchObject({
      error: { code: 'ITERATION_NOT_FOUND' },
    });
    const list = cli('gate', 'list', '--run', 'r1', '--json');
    expect((list.json() as GateResult[]).map((r) => [r.name, r.verdict])).toEqual([
      ['f', 'fail'],
      ['e', 'error'],
      ['t', 'error'],
    ]);
    // The key is there in a run with no deleted snapshot too: one shape for every listing.
    expect((list.json() as Array<{ superseded: unknown }>).map((r) => r.superseded)).toEqual([
      null,
      null,
      null,
    ]);
  });

  it('a mistyped script (npm run tset): the reason says first that the command exited 1, then that the JUnit file was not written', () => {
    const dir = repoWithCommit({
      'package.json': JSON.stringify({ name: 'app', private: true, scripts: { test: 'node --test' } }),
      '.gitignore': 'junit*.xml\n',
    });
    const home = tempDir('agentgate-home-');
    const cli = (...args: string[]) => runCli(['-C', dir, '--home', home, ...args], { cwd: dir });
    expect(cli('before', '--run', 'r1').status).toBe(0);
    writeFiles(dir, { 't.test.mjs': nodeTests(1) });
    expect(cli('after', '--run', 'r1', '--iteration', '1').status).toBe(0);
    const res = cli(...TEST_GATE, '--', 'npm', 'run', 'tset');
    expect(res.status).toBe(1);
    const line = res.stdout.split('\n').find((l) => l.startsWith('ERROR')) ?? '';
    expect(line).toMatch(/JUNIT_INVALID: the command exited with 1, then "junit\.xml" was not written/);
  });

  it('GATE_TREE_MISMATCH on a dirty workspace; --isolated runs anyway', () => {
    const { dir, cli } = cliRun();
    writeFiles(dir, { 'stray.txt': 'x\n' });
    const refused = cli('gate', '--run', 'r1', '--name', 'test', '--json', '--', 'true');
    expect(refused.status).toBe(1);
    expect(refused.json()).toMatchObject({ error: { code: 'GATE_TREE_MISMATCH' } });
    const isolated = cli(
      'gate',
      '--run',
      'r1',
      '--name',
      'test',
      '--isolated',
      '--junit',
      'junit.xml',
      '--min-tests',
      '2',
      '--',
      ...nodeTestCommand('t.test.mjs'),
    );
    expect(isolated.status).toBe(0);
    expect(isolated.stdout).toMatch(/^PASS gate test attempt 1/);
  });

  it('gate record and gate list, with repeatable --junit', () => {
    const { cli } = cliRun();
    const fixture = (name: string) => fileURLToPath(new URL(`../../fixtures/junit/${name}`, import.meta.url));
    const rec = cli(
      'gate',
      'record',
      '--run',
      'r1',
      '--name',
      'ci',
      '--exit-code',
      '0',
      '--junit',
      fixture('vitest.xml'),
      '--junit',
      fixture('jest-junit.xml'),
      '--json',
    );
    expect(rec.status).toBe(3);
    expect(rec.json()).toMatchObject({
      observed: false,
      command: null,
      tests: { total: 9, failed: 2, skipped: 3 },
    });
    expect(cli('gate', 'list', '--iteration', '1').stdout).toContain('recorded');
  });

  it('hostile test names and messages cannot start a line of their own in the output for people', () => {
    const { cli } = cliRun();
    const junit = join(tempDir(), 'hostile.xml');
    writeFileSync(
      junit,
      '<testsuite name="s&#10;::error::suite"><testcase name="t&#10;::error file=x::pwned&#13;"><failure message="m&#10;::warning::w"/></testcase></testsuite>',
    );
    const res = cli('gate', 'record', '--run', 'r1', '--name', 'ci', '--exit-code', '1', '--junit', junit);
    expect(res.status).toBe(3);
    expect(res.stdout).toContain('::error file=x::pwned');
    expect(res.stdout.split('\n').filter((line) => line.startsWith('::'))).toEqual([]);
    const listed = cli('gate', 'list', '--run', 'r1', '--json');
    expect((listed.json() as GateResult[])[0]?.tests?.failures[0]?.name).toBe('t\n::error file=x::pwned\r');
  });

  it('a fetched command and reason with bidi controls and U+2028 are shown escaped (gate replay, gate list)', async () => {
    const { home, cli } = recordedCliRun({ 'a.txt': 'one\n' });
    const ran = GateResult.parse(cli('gate', '--run', 'r1', '--name', 'test', '--json', '--', 'true').json());
    // What a hostile publisher can send: "rm -rf ~ #" shown as harmless by a right-to-left override.
    // The store gives the new verdict its own id and attempt.
    const stored = await new GateStore(home).append({
      ...ran,
      command: ['sh', '-c', 'echo safe \u202e# ; rm -rf ~ \u2066', '\u2028next'],
      reason: 'the command exited with 0 \u202egnissap\u2029',
    });
    const refused = cli(
      'gate',
      'replay',
      '--run',
      'r1',
      '--iteration',
      '1',
      '--name',
      'test',
      '--attempt',
      String(stored.attempt),
    );
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('REPLAY_NOT_CONFIRMED');
    expect(refused.stderr).toContain('\\u202e# ; rm -rf ~ \\u2066');
    expect(refused.stderr).toContain('\\u2028next');
    const listed = cli('gate', 'list', '--run', 'r1');
    expect(listed.stdout).toContain('\\u202egnissap\\u2029');
    for (const out of [refused.stderr, listed.stdout])
      expect(out).not.toMatch(/[\u2028\u2029\u202a-\u202e\u2066-\u2069]/);
  });

  it('gate replay: refused without --yes (printing the command), then reproduces', () => {
    const { cli } = cliRun();
    cli(...TEST_GATE, '--', ...nodeTestCommand('t.test.mjs'));
    const refused = cli('gate', 'replay', '--run', 'r1', '--iteration', '1', '--name', 'test');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('REPLAY_NOT_CONFIRMED');
    expect(refused.stderr).toContain('--test-reporter=junit');
    // An attempt is 1 up to the highest a verdict may hold (a received one included).
    const replayAttempt = (k: string) =>
      cli(
        'gate',
        'replay',
        '--run',
        'r1',
        '--iteration',
        '1',
        '--name',
        'test',
        '--attempt',
        k,
        '--yes',
        '--json',
      );
    for (const [k, code] of [
      ['0', 'INVALID_ARGUMENT'],
      ['2147483648', 'INVALID_ARGUMENT'],
      ['2147483647', 'GATE_NOT_FOUND'],
    ])
      expect((replayAttempt(k).json() as { error: { code: string } }).error.code).toBe(code);
    const replayed = cli(
      'gate',
      'replay',
      '--run',
      'r1',
      '--iteration',
      '1',
      '--name',
      'test',
      '--yes',
      '--json',
    );
    expect(replayed.status).toBe(0);
    expect(replayed.json()).toMatchObject({
      reproduced: true,
      original: { attempt: 1 },
      replay: { attempt: 2, replayOf: 1 },
    });
  });

  it('verify --require-gate exits 3 until the newest verdict is an observed pass', () => {
    const { cli } = cliRun();
    expect(cli('verify', '--run', 'r1', '--require-gate', 'test').status).toBe(3);
    cli('gate', '--run', 'r1', '--name', 'test', '--', 'false');
    expect(cli('verify', '--run', 'r1', '--require-gate', 'test').status).toBe(3);
    cli('gate', '--run', 'r1', '--name', 'test', '--', 'true');
    const ok = cli('verify', '--run', 'r1', '--require-gate', 'test', '--each-iteration', '--json');
    expect(ok.status).toBe(0);
    expect((ok.json() as { checks: Array<{ check: string }> }).checks.map((c) => c.check)).toContain(
      'require-gate',
    );
    expect(cli('verify', '--run', 'r1', '--require-gate', 'test', '--require-gate', 'lint').status).toBe(3);
    expect(cli('verify', '--require-gate', 'test').status).toBe(2);
    // A name no gate can have is a typo, not a gate that did not pass.
    for (const name of ['', 'a b/../c']) {
      const typo = cli('verify', '--run', 'r1', '--require-gate', name, '--json');
      expect(typo.status).toBe(1);
      expect(typo.json()).toMatchObject({ error: { code: 'INVALID_ID' } });
    }
  });

  it('a reader that goes away (2>&1 | head) does not end the gate: the verdict is recorded, the log whole', () => {
    const { dir, home, cli } = recordedCliRun({ 'a.txt': 'a\n' });
    // Both outputs of the check into one pipe that closes after one byte, with and without --json.
    for (const [name, json] of [
      ['people', []],
      ['json', ['--json']],
    ] as const) {
      const args = ['-C', dir, '--home', home, 'gate', '--run', 'r1', '--name', name, ...json];
      const piped = spawnSync(
        'bash',
        [
          '-c',
          '"$0" "$@" 2>&1 | head -c 1 >/dev/null; exit "${PIPESTATUS[0]}"',
          process.execPath,
          CLI,
          ...args,
          '--',
          'sh',
          '-c',
          'seq 1 100000; seq 1 100000 >&2',
        ],
        { cwd: dir },
      );
      expect(piped.status).toBe(0);
    }
    const listed = cli('gate', 'list', '--run', 'r1', '--json').json() as GateResult[];
    expect(listed.map((r) => [r.name, r.verdict, r.log?.bytes])).toEqual([
      ['people', 'pass', 2 * 588_895],
      ['json', 'pass', 2 * 588_895],
    ]);
  });

  it('gate --help and gate list with nothing recorded', () => {
    const home = tempDir('agentgate-home-');
    expect(runCli(['gate', '--help']).stdout).toContain('gate record, gate list, gate replay');
    expect(runCli(['--home', home, 'gate', 'list', '--json']).json()).toEqual([]);
    expect(readdirSync(home)).not.toContain('tmp');
  });
});
