import { createHash } from 'node:crypto';
import {
  existsSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GateResult } from '../../types/gate.js';
import { isProcessGone } from '../../src/fs/lock.js';
import { layout } from '../../src/store/paths.js';
import { expectCode } from '../helpers/codes.js';
import { gatedRun, isRunning, nodeTestCommand, nodeTests, quiet } from '../helpers/gates.js';
import { commitAll, git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { fingerprint } from '../helpers/snapshotter.js';

const TEST_FILE = { 't.test.mjs': nodeTests(3) };

/** Gate "test" of run r1: Node's test runner on t.test.mjs, its JUnit report read, its output swallowed. */
const nodeTestGate = () => ({
  runId: 'r1',
  name: 'test',
  command: nodeTestCommand('t.test.mjs'),
  junit: ['junit.xml'],
  echo: quiet(),
});

describe('gate: run a check on the after tree and record what it observed', () => {
  it("passes with Node's real JUnit reporter: counts, tree, log artifact with its digest", async () => {
    const { dir, gates, snapshots } = await gatedRun([TEST_FILE]);
    const result = await gates.run(dir, nodeTestGate());
    expect(GateResult.parse(result)).toEqual(result);
    expect(result).toMatchObject({
      runId: 'r1',
      iteration: 1,
      attempt: 1,
      verdict: 'pass',
      observed: true,
      isolated: false,
      exitCode: 0,
      timedOut: false,
      afterSha: snapshots[0]?.afterSha,
      treeId: git(dir, ['rev-parse', 'HEAD^{tree}']),
      tests: { total: 3, passed: 3, failed: 0, skipped: 0, errors: 0, failures: [] },
      replayOf: null,
    });
    const log = result.log;
    expect(log?.path).toMatch(/artifacts\/r1\/iteration-1\/gate-test-1\.log$/);
    const bytes = readFileSync(log?.path as string);
    expect({ sha256: createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length }).toEqual({
      sha256: log?.sha256,
      bytes: log?.bytes,
    });
  });

  it('fails when a test fails, keeping the failed tests; attempts are append-only', async () => {
    const { dir, gates } = await gatedRun([{ 't.test.mjs': nodeTests(2, 1) }]);
    const run = () => gates.run(dir, nodeTestGate());
    const first = await run();
    const second = await run();
    expect(first).toMatchObject({ verdict: 'fail', exitCode: 1, tests: { total: 3, passed: 2, failed: 1 } });
    expect(first.tests?.failures[0]).toMatchObject({ name: 'fails 0' });
    expect(second.attempt).toBe(2);
    const { results } = await gates.list({ runId: 'r1' });
    expect(results.map((r) => [r.id, r.attempt])).toEqual([
      [first.id, 1],
      [second.id, 2],
    ]);
    expect(existsSync(first.log?.path as string) && existsSync(second.log?.path as string)).toBe(true);
  });

  it("a damaged verdict file does not free its attempt number: the next attempt never replaces that attempt's log", async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const opts = (word: string) => ({ runId: 'r1', name: 'det', command: ['echo', word], echo: quiet() });
    const first = await gates.run(dir, opts('FIRST'));
    const file = gates.store.path('r1', first.id);
    writeFileSync(file, readFileSync(file, 'utf8').slice(0, 100));
    const second = await gates.run(dir, opts('SECOND'));
    expect(second.attempt).toBe(2);
    expect(readFileSync(first.log?.path as string, 'utf8')).toBe('FIRST\n');
    expect(readFileSync(second.log?.path as string, 'utf8')).toBe('SECOND\n');
  });

  it('--junit with zero tests is a fail: "no tests ran"', async () => {
    const skipped = "import { test } from 'node:test';\ntest('later', { skip: true }, () => {});\n";
    const { dir, gates } = await gatedRun([{ 't.test.mjs': skipped }]);
    const result = await gates.run(dir, nodeTestGate());
    expect(result.verdict).toBe('fail');
    expect(result.reason).toContain('no tests ran (1 skipped)');
  });

  it('refuses a dirty workspace or one not at the after commit (GATE_TREE_MISMATCH), recording nothing', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const opts = { runId: 'r1', name: 'test', command: ['true'], echo: quiet() };
    writeFiles(dir, { 'stray.txt': 'agent left this\n' });
    await expectCode(gates.run(dir, opts), 'GATE_TREE_MISMATCH');
    commitAll(dir, 'moved on');
    await expectCode(gates.run(dir, opts), 'GATE_TREE_MISMATCH');
    // A repository that lacks the after commit (a fresh runner's checkout) is not at it either.
    await expectCode(gates.run(repoWithCommit({ 'other.txt': 'x\n' }), opts), 'GATE_TREE_MISMATCH');
    expect((await gates.list({ runId: 'r1' })).results).toEqual([]);
  });

  it('refuses a workspace where a file is marked assume-unchanged or skip-worktree: git would not see what it holds', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    git(dir, ['update-index', '--assume-unchanged', 'README.md']);
    writeFiles(dir, { 'README.md': 'not the after tree\n' });
    const opts = { runId: 'r1', name: 'au', command: ['true'], echo: quiet() };
    await expectCode(gates.run(dir, opts), 'GATE_TREE_MISMATCH');
    expect((await gates.list({ runId: 'r1' })).results).toEqual([]);
    git(dir, ['update-index', '--no-assume-unchanged', 'README.md']);
    git(dir, ['checkout', '--', 'README.md']);
    expect((await gates.run(dir, opts)).verdict).toBe('pass');
    // skip-worktree hides a file from status the same way.
    git(dir, ['update-index', '--skip-worktree', 'README.md']);
    writeFiles(dir, { 'README.md': 'not the after tree either\n' });
    await expectCode(gates.run(dir, opts), 'GATE_TREE_MISMATCH');
  });

  it('--isolated runs on exactly the after tree; workspace, index, HEAD and branches untouched, nothing left', async () => {
    const { dir, gates, snapshots } = await gatedRun([TEST_FILE, { 'b.txt': 'iteration two\n' }]);
    writeFiles(dir, { 'README.md': 'edited, not committed\n', 'stray.txt': 'x\n' });
    git(dir, ['add', 'stray.txt']);
    const before = fingerprint(dir);
    const out = join(tempDir(), 'seen.txt');
    const result = await gates.run(dir, {
      runId: 'r1',
      iteration: 1,
      name: 'look',
      command: ['sh', '-c', `ls -a > '${out}'; cat README.md >> '${out}'`],
      isolated: true,
      echo: quiet(),
    });
    expect(result).toMatchObject({ verdict: 'pass', isolated: true, afterSha: snapshots[0]?.afterSha });
    // Iteration 1's files, not iteration 2's, not the uncommitted edit; no .git.
    expect(readFileSync(out, 'utf8')).toBe('.\n..\n.gitignore\nREADME.md\nt.test.mjs\nhello\n');
    expect(fingerprint(dir)).toBe(before);
    const home = gates.snapshotter.options.home;
    expect(readdirSync(layout(home).gateCheckouts)).toEqual([]);
  });

  it('--timeout kills the whole process group and records an error GATE_TIMEOUT', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const pidFile = join(tempDir(), 'bg.pid');
    const result = await gates.run(dir, {
      runId: 'r1',
      name: 'slow',
      command: ['sh', '-c', `sleep 1000 & echo $! > '${pidFile}'; wait`],
      timeoutMs: 500,
      echo: quiet(),
    });
    expect(result).toMatchObject({ verdict: 'error', timedOut: true, exitCode: null });
    expect(result.reason).toMatch(/^GATE_TIMEOUT: /);
    const bg = Number(readFileSync(pidFile, 'utf8'));
    await expect.poll(() => isProcessGone(bg), { timeout: 10_000 }).toBe(true);
  });

  it('a setsid background process holding stdout does not hold the gate: the exit is recorded as it was', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const pidFile = join(tempDir(), 'daemon.pid');
    try {
      const result = await gates.run(dir, {
        runId: 'r1',
        name: 'daemon',
        // The leader waits until the daemon is in its own session, then exits 0.
        command: [
          'sh',
          '-c',
          `setsid sh -c 'echo $$ > "${pidFile}.tmp"; mv "${pidFile}.tmp" "${pidFile}"; exec sleep 600' &
           while [ ! -s '${pidFile}' ]; do sleep 0.05; done; echo started`,
        ],
        // Far beyond the test's own timeout: only the grace after the command's exit can end the gate.
        timeoutMs: 3_600_000,
        echo: quiet(),
      });
      expect(result).toMatchObject({ verdict: 'pass', exitCode: 0, signal: null, timedOut: false });
      expect(result.reason).toContain('outlived the check');
      expect(readFileSync(result.log?.path as string, 'utf8')).toContain('started');
    } finally {
      // Ended with the check (it carried the check's mark); killed here should that have failed.
      const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, 'utf8')) : 0;
      const running = pid > 0 && isRunning(pid);
      if (running) process.kill(pid, 'SIGKILL');
      expect(running).toBe(false);
    }
  });

  it('a command that cannot start is recorded as an error GATE_COMMAND_NOT_FOUND', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const result = await gates.run(dir, {
      runId: 'r1',
      name: 'missing',
      command: ['agentgate-no-such-tool', '--flag'],
      echo: quiet(),
    });
    expect(result).toMatchObject({ verdict: 'error', exitCode: null });
    expect(result.reason).toMatch(/^GATE_COMMAND_NOT_FOUND: /);
    expect((await gates.list({ runId: 'r1' })).results).toHaveLength(1);
  });

  it("a retry is not refused for the earlier attempt's report, wherever it is named (a new directory, ./x, absolute)", async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const report = '<testsuite><testcase name="a"/></testsuite>';
    const write = (path: string) => [
      'sh',
      '-c',
      `mkdir -p "$(dirname "${path}")" && echo '${report}' > "${path}"`,
    ];
    const cases = [
      ['out/report.xml', 'out'],
      ['./j.xml', 'j.xml'],
      [join(dir, 'abs', 'j.xml'), 'abs'],
    ] as const;
    for (const [junit, made] of cases) {
      for (const attempt of [1, 2]) {
        const result = await gates.run(dir, {
          runId: 'r1',
          name: 'j',
          command: write(junit),
          junit: [junit],
          echo: quiet(),
        });
        expect([result.verdict, result.tests?.total], `${junit} attempt ${attempt}`).toEqual(['pass', 1]);
      }
      rmSync(join(dir, made), { recursive: true });
    }
    // Anything else beside a report still makes the workspace dirty.
    writeFiles(dir, { 'out/report.xml': report, 'out/stray.txt': 'not a report\n' });
    await expectCode(
      gates.run(dir, {
        runId: 'r1',
        name: 'j',
        command: ['true'],
        junit: ['reports/junit.xml'],
        echo: quiet(),
      }),
      'GATE_TREE_MISMATCH',
    );
  });

  it('a missing, malformed or stale JUnit file is an error JUNIT_INVALID', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const reasonOf = async (command: string[]) =>
      (await gates.run(dir, { runId: 'r1', name: 'junit', command, junit: ['junit.xml'], echo: quiet() }))
        .reason;
    expect(await reasonOf(['true'])).toBe('JUNIT_INVALID: "junit.xml" was not written');
    expect(await reasonOf(['sh', '-c', 'echo "<testsuite><testcase" > junit.xml'])).toMatch(
      /^JUNIT_INVALID: "junit.xml": not well-formed XML/,
    );
    writeFileSync(join(dir, 'junit.xml'), '<testsuite><testcase name="old"/></testsuite>');
    utimesSync(join(dir, 'junit.xml'), new Date(2020, 0, 1), new Date(2020, 0, 1));
    expect(await reasonOf(['true'])).toMatch(/^JUNIT_INVALID: "junit.xml" is older than this run/);
    // Written by the gate before, a moment ago: still not this run's.
    expect(
      await reasonOf(['sh', '-c', 'echo "<testsuite><testcase name=\\"a\\"/></testsuite>" > junit.xml']),
    ).toBe('the command exited with 0; 1 of 1 tests passed');
    expect(await reasonOf(['true'])).toMatch(/^JUNIT_INVALID: "junit.xml" is older than this run/);
  });

  it('a report named twice, or by two names, counts once', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const result = await gates.run(dir, {
      runId: 'r1',
      name: 'twice',
      command: ['sh', '-c', 'echo "<testsuite><testcase name=\\"a\\"/></testsuite>" > junit.xml'],
      junit: ['junit.xml', 'junit.xml', './junit.xml', join(dir, 'junit.xml')],
      minTests: 2,
      echo: quiet(),
    });
    expect(result.tests?.total).toBe(1);
    expect(result.verdict).toBe('fail');
  });

  it('--isolated: a JUnit report committed in the tree does not stand in for one the check did not write', async () => {
    const report = '<testsuite><testcase name="committed"/></testsuite>';
    const { dir, gates } = await gatedRun([{ 'reports/results.xml': report }]);
    const result = await gates.run(dir, {
      runId: 'r1',
      name: 'test',
      command: ['true'],
      junit: ['reports/results.xml'],
      isolated: true,
      echo: quiet(),
    });
    expect(result.reason).toBe('JUNIT_INVALID: "reports/results.xml" was not written');
  });

  it('--isolated never removes a report path outside the checkout, through .. or a committed symbolic link', async () => {
    const outside = tempDir();
    writeFileSync(join(outside, 'victim.xml'), 'keep me');
    const { dir, gates } = await gatedRun([{ 'a.txt': 'x\n' }]);
    symlinkSync(outside, join(dir, 'link'));
    commitAll(dir, 'a link out of the tree');
    await gates.snapshotter.captureBeforeState(dir, { runId: 'r1' });
    await gates.snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 2 });
    const result = await gates.run(dir, {
      runId: 'r1',
      name: 'test',
      command: ['true'],
      junit: ['link/victim.xml', `../../../..${outside}/victim.xml`],
      isolated: true,
      echo: quiet(),
    });
    expect(result.verdict).toBe('error');
    expect(readFileSync(join(outside, 'victim.xml'), 'utf8')).toBe('keep me');
  });

  it('hostile text in test names and messages is stored as is; the reason stays one line', async () => {
    const hostile =
      "test('x\\n::error::pwned \\u001b[31m<script>', () => { throw new Error('a\\n::warning::b'); });";
    const { dir, gates } = await gatedRun([
      { 't.test.mjs': `import { test } from 'node:test';\n${hostile}\n` },
    ]);
    const result = await gates.run(dir, nodeTestGate());
    expect(result.verdict).toBe('fail');
    // Node's reporter writes the escape character raw and the newline as &#10; (Node 20 dropped the
    // newline); we keep what it wrote.
    expect(result.tests?.failures[0]?.name).toBe('x\n::error::pwned \u001b[31m<script>');
    expect(result.tests?.failures[0]?.message).toContain('::warning::b');
    expect(result.reason).toMatch(/^[^\n\r]*$/);
  });

  it('refuses bad input before running anything: unknown run or iteration, unsafe name, --min-tests without --junit', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const base = { runId: 'r1', name: 'test', command: ['true'], echo: quiet() };
    await expectCode(gates.run(dir, { ...base, iteration: 7 }), 'ITERATION_NOT_FOUND');
    await expectCode(gates.run(dir, { ...base, runId: 'nope' }), 'RUN_NOT_FOUND');
    await expectCode(gates.run(dir, { ...base, name: '../etc' }), 'INVALID_ID');
    await expectCode(gates.run(dir, { ...base, minTests: 3 }), 'INVALID_ARGUMENT');
    await expectCode(gates.run(dir, { ...base, command: [] }), 'INVALID_ARGUMENT');
    // A minTests the verdict could not hold, or an empty report name: refused before the command runs.
    const marks = ['sh', '-c', 'touch MARK'];
    for (const bad of [{ minTests: -1 }, { minTests: 1.5 }, { junit: [''] }])
      await expectCode(
        gates.run(dir, { ...base, command: marks, junit: ['j.xml'], ...bad }),
        'INVALID_ARGUMENT',
      );
    expect(existsSync(join(dir, 'MARK'))).toBe(false);
    expect((await gates.list({ runId: 'r1' })).results).toEqual([]);
  });

  it('a ~50 MB log is streamed into the artifact whole (sha256 matches)', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const script =
      "const b = Buffer.alloc(1 << 20, 'log line\\n'); let i = 0; const go = () => { while (i < 50) { i++; if (!process.stdout.write(b)) return process.stdout.once('drain', go); } }; go();";
    const result = await gates.run(dir, {
      runId: 'r1',
      name: 'loud',
      command: [process.execPath, '-e', script],
      echo: quiet(),
    });
    const expected = createHash('sha256');
    for (let i = 0; i < 50; i++) expected.update(Buffer.alloc(1 << 20, 'log line\n'));
    expect(result.log).toMatchObject({ sha256: expected.digest('hex'), bytes: 50 << 20 });
  });
});

describe('gate record, replay and verify', () => {
  it('record: observed false, the log copied with its digest, the same verdict rules', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const logFile = join(tempDir(), 'ci.log');
    writeFileSync(logFile, 'ran in a container\n');
    const junit = join(tempDir(), 'junit.xml');
    writeFileSync(junit, readFileSync(new URL('../../fixtures/junit/pytest.xml', import.meta.url)));
    const result = await gates.record(dir, {
      runId: 'r1',
      name: 'container',
      exitCode: 0,
      junit: [junit],
      logFile,
      durationMs: 1234,
    });
    expect(result).toMatchObject({ observed: false, command: null, verdict: 'fail', durationMs: 1234 });
    expect(result.tests).toMatchObject({ total: 5, failed: 1, errors: 1 });
    expect(readFileSync(result.log?.path as string, 'utf8')).toBe('ran in a container\n');
    await expectCode(
      gates.record(dir, { runId: 'r1', name: 'x', exitCode: 0, logFile: '/no/such/log' }),
      'PATH_NOT_FOUND',
    );
  });

  it('replay: refused without confirmation; with it, a new isolated attempt that reproduces', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const original = await gates.run(dir, nodeTestGate());
    const opts = { runId: 'r1', iteration: 1, name: 'test', echo: quiet() };
    await expectCode(gates.replay(dir, { ...opts, confirmed: false }), 'REPLAY_NOT_CONFIRMED');
    // The workspace has moved on: replay runs in isolation on the recorded tree anyway.
    writeFiles(dir, { 't.test.mjs': nodeTests(0, 1) });
    const out = await gates.replay(dir, { ...opts, confirmed: true });
    expect(out.reproduced).toBe(true);
    expect(out.original.id).toBe(original.id);
    expect(out.replay).toMatchObject({ attempt: 2, replayOf: 1, isolated: true, verdict: 'pass' });
    await gates.record(dir, { runId: 'r1', name: 'rec', exitCode: 0 });
    await expectCode(
      gates.replay(dir, { ...opts, name: 'rec', attempt: 1, confirmed: true }),
      'GATE_NOT_REPLAYABLE',
    );
    // Without --attempt too: the verdict is there, it has no command.
    await expectCode(gates.replay(dir, { ...opts, name: 'rec', confirmed: true }), 'GATE_NOT_REPLAYABLE');
    await expectCode(gates.replay(dir, { ...opts, name: 'nothing', confirmed: true }), 'GATE_NOT_FOUND');
  });

  it('replay says when the verdict does not reproduce', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const flag = join(tempDir(), 'flag');
    await gates.run(dir, {
      runId: 'r1',
      name: 'flaky',
      command: ['sh', '-c', `test ! -e '${flag}'`],
      echo: quiet(),
    });
    writeFileSync(flag, '');
    const out = await gates.replay(dir, {
      runId: 'r1',
      iteration: 1,
      name: 'flaky',
      confirmed: true,
      echo: quiet(),
    });
    expect(out.reproduced).toBe(false);
    expect([out.original.verdict, out.replay.verdict]).toEqual(['pass', 'fail']);
  });

  it('verify --require-gate: the newest verdict on the last iteration must be an observed pass', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE, { 'b.txt': 'two\n' }]);
    const require = (names: string[], eachIteration = false) =>
      gates.verify({ runId: 'r1' }, { requireGates: names, eachIteration });
    const failing = (r: Awaited<ReturnType<typeof require>>) =>
      r.checks.filter((c) => !c.ok).map((c) => c.check);
    expect(failing(await require(['test']))).toEqual(['require-gate']);
    await gates.run(dir, { runId: 'r1', name: 'test', command: ['false'], echo: quiet() });
    expect(failing(await require(['test']))).toEqual(['require-gate']);
    await gates.run(dir, { runId: 'r1', name: 'test', command: ['true'], echo: quiet() });
    expect((await require(['test'])).ok).toBe(true);
    await gates.record(dir, { runId: 'r1', name: 'lint', exitCode: 0 });
    expect(failing(await require(['test', 'lint']))).toEqual(['require-gate']);
    // Iteration 1 has no verdict of test.
    expect(failing(await require(['test'], true))).toEqual(['require-gate']);
  });

  it("verify of one snapshot checks its iteration's verdicts; verify --all every run's", async () => {
    const { dir, gates, snapshots } = await gatedRun([TEST_FILE, { 'b.txt': 'two\n' }]);
    await gates.run(dir, { runId: 'r1', name: 'test', command: ['true'], echo: quiet() });
    const gateChecks = (r: Awaited<ReturnType<typeof gates.verify>>) =>
      r.checks.filter((c) => c.check.startsWith('gate-')).map((c) => c.snapshotId);
    expect(gateChecks(await gates.verify({ id: snapshots[0]?.id as string }))).toEqual([]);
    expect(gateChecks(await gates.verify({ id: snapshots[1]?.id as string }))).toHaveLength(4);
    const all = await gates.verify({ all: true });
    expect(all.ok).toBe(true);
    expect(gateChecks(all)).toEqual(Array(4).fill(snapshots[1]?.id));
  });

  it('verify fails a tampered verdict, a tampered log and a missing attempt', async () => {
    const { dir, gates } = await gatedRun([TEST_FILE]);
    const opts = { runId: 'r1', name: 'test', command: ['sh', '-c', 'echo checked'], echo: quiet() };
    const first = await gates.run(dir, opts);
    const second = await gates.run(dir, opts);
    expect((await gates.verify({ runId: 'r1' })).ok).toBe(true);
    const failing = async () =>
      (await gates.verify({ runId: 'r1' })).checks.filter((c) => !c.ok).map((c) => c.check);

    writeFileSync(second.log?.path as string, 'something else\n');
    expect(await failing()).toEqual(['gate-log']);

    const file = gates.store.path('r1', first.id);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as GateResult;
    writeFileSync(file, JSON.stringify({ ...stored, treeId: '0'.repeat(40) }));
    expect(await failing()).toEqual(['gate-tree', 'gate-log']);

    rmSync(file);
    // Attempt 2 has no attempt 1 beside it, and attempt 1's log has no verdict.
    expect(await failing()).toEqual(['gate-log', 'gate-attempts', 'gate-attempts']);
  });
});
