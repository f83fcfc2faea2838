import { describe, expect, it } from 'vitest';
import type { TestCounts } from '../../types/gate.js';
import {
  decideVerdict,
  oneLine,
  recomputeVerdict,
  verdictContradiction,
  type VerdictInput,
} from '../../src/gates/verdict.js';

const counts = (over: Partial<TestCounts> = {}): TestCounts => ({
  total: 3,
  passed: 3,
  failed: 0,
  skipped: 0,
  errors: 0,
  failures: [],
  ...over,
});

const ran = (over: Partial<VerdictInput> = {}): VerdictInput => ({
  exitCode: 0,
  signal: null,
  timedOut: false,
  timeoutMs: null,
  spawnError: null,
  command: ['npm', 'test'],
  junit: null,
  minTests: null,
  ...over,
});

describe("decideVerdict (the contract's rules)", () => {
  it('pass: exit 0 and no JUnit', () => {
    expect(decideVerdict(ran()).verdict).toBe('pass');
  });

  it('pass: exit 0, no failure or error, at least one test ran', () => {
    expect(decideVerdict(ran({ junit: { counts: counts() } }))).toEqual({
      verdict: 'pass',
      reason: 'the command exited with 0; 3 of 3 tests passed',
    });
  });

  it('fail: a non-zero exit, whatever the JUnit says', () => {
    expect(decideVerdict(ran({ exitCode: 1, junit: { counts: counts() } })).verdict).toBe('fail');
    expect(decideVerdict(ran({ exitCode: null, signal: 'SIGSEGV' })).reason).toContain('SIGSEGV');
  });

  it('fail: exit 0 but a failure or an error in the JUnit', () => {
    expect(decideVerdict(ran({ junit: { counts: counts({ passed: 2, failed: 1 }) } })).verdict).toBe('fail');
    expect(decideVerdict(ran({ junit: { counts: counts({ passed: 2, errors: 1 }) } })).verdict).toBe('fail');
  });

  it('fail: --junit and no --min-tests with zero tests run is "no tests ran" (skipped ones do not count)', () => {
    const none = decideVerdict(ran({ junit: { counts: counts({ total: 0, passed: 0 }) } }));
    expect(none.verdict).toBe('fail');
    expect(none.reason).toContain('no tests ran');
    const skipped = decideVerdict(ran({ junit: { counts: counts({ total: 2, passed: 0, skipped: 2 }) } }));
    expect(skipped.reason).toContain('no tests ran');
  });

  it('--min-tests K: fewer than K is a fail, --min-tests 0 accepts none', () => {
    expect(decideVerdict(ran({ junit: { counts: counts() }, minTests: 4 })).verdict).toBe('fail');
    expect(decideVerdict(ran({ junit: { counts: counts() }, minTests: 3 })).verdict).toBe('pass');
    expect(
      decideVerdict(ran({ junit: { counts: counts({ total: 0, passed: 0 }) }, minTests: 0 })).verdict,
    ).toBe('pass');
  });

  it('error with a coded reason: cannot start, timeout, JUnit unusable', () => {
    expect(decideVerdict(ran({ exitCode: null, spawnError: 'ENOENT' }))).toMatchObject({
      verdict: 'error',
      reason: expect.stringMatching(/^GATE_COMMAND_NOT_FOUND: /),
    });
    expect(decideVerdict(ran({ exitCode: null, spawnError: 'EACCES' })).reason).toMatch(
      /^GATE_COMMAND_NOT_FOUND: .*EACCES/,
    );
    expect(
      decideVerdict(ran({ exitCode: null, signal: 'SIGTERM', timedOut: true, timeoutMs: 2000 })).reason,
    ).toMatch(/^GATE_TIMEOUT: .*2 s/);
    expect(decideVerdict(ran({ junit: { problem: '"x.xml" was not written' } })).reason).toBe(
      'JUNIT_INVALID: "x.xml" was not written',
    );
    expect(decideVerdict(ran({ exitCode: 1, junit: { problem: '"x.xml" was not written' } })).reason).toBe(
      'JUNIT_INVALID: the command exited with 1, then "x.xml" was not written',
    );
  });

  it('the reason is always one bounded line', () => {
    const r = decideVerdict(
      ran({ exitCode: null, spawnError: 'ENOENT', command: ['a\nb\u001b[31m'.repeat(500)] }),
    );
    expect(r.reason).toMatch(/^[^\r\n]*$/);
    expect(r.reason.length).toBeLessThanOrEqual(1000);
    expect(oneLine('a\r\n\u2028b')).toBe('a b');
  });
});

describe('recomputeVerdict: a record decides its verdict again from its own facts', () => {
  it('agrees with decideVerdict on every combination of exit, signal, timeout, JUnit and --min-tests', () => {
    const junits: VerdictInput['junit'][] = [
      null,
      { problem: '"junit.xml" was not written' },
      { counts: counts() },
      { counts: counts({ total: 0, passed: 0 }) },
      { counts: counts({ passed: 2, failed: 1 }) },
      { counts: counts({ passed: 2, errors: 1 }) },
      { counts: counts({ total: 3, passed: 0, skipped: 3 }) },
    ];
    for (const exitCode of [0, 1, null])
      for (const signal of [null, 'SIGKILL'])
        for (const timedOut of [false, true])
          for (const spawnError of [null, 'ENOENT'])
            for (const junit of junits)
              for (const minTests of [null, 0, 3, 4]) {
                if (spawnError !== null && (exitCode !== null || signal !== null || timedOut)) continue;
                if (exitCode !== null && signal !== null) continue;
                if (exitCode === null && signal === null && spawnError === null) continue;
                if (minTests !== null && junit === null) continue;
                const decided = decideVerdict(
                  ran({ exitCode, signal, timedOut, spawnError, junit, minTests }),
                );
                const tests = junit !== null && 'counts' in junit ? junit.counts : null;
                const facts = {
                  exitCode,
                  signal,
                  timedOut,
                  tests,
                  minTests,
                  junit: junit ? ['junit.xml'] : [],
                };
                expect(recomputeVerdict(facts), JSON.stringify({ facts, decided })).toBe(decided.verdict);
              }
  });

  it('names the contradiction of an edited record: a fail turned into "pass", counts that do not add up', () => {
    const failed = counts({ passed: 2, failed: 1, failures: [{ suite: 's', name: 't', message: 'm' }] });
    const ran = { observed: true, command: ['npm', 'test'], log: { sha256: '0'.repeat(64), bytes: 0 } };
    const edited = { ...ran, exitCode: 1, signal: null, timedOut: false, tests: failed, junit: ['j.xml'] };
    expect(verdictContradiction({ ...edited, verdict: 'pass' })).toContain('make it fail');
    expect(verdictContradiction({ ...edited, verdict: 'fail' })).toBeNull();
    const hidden = { ...edited, exitCode: 0, tests: counts({ passed: 3, failures: failed.failures }) };
    expect(verdictContradiction({ ...hidden, verdict: 'pass' })).toContain('lists 1 failed tests');
    const short = { ...edited, exitCode: 0, tests: counts({ total: 9 }) };
    expect(verdictContradiction({ ...short, verdict: 'pass' })).toContain('do not add up');
    // No process exits with a negative code: a record that says so is refused whatever its verdict.
    expect(verdictContradiction({ ...edited, exitCode: -1, verdict: 'fail' })).not.toBeNull();
  });

  it('names facts that cannot all be true: an exit code and a signal, no signal name, an observed run without command or log', () => {
    const ran = { observed: true, command: ['npm', 'test'], log: { sha256: '0'.repeat(64), bytes: 0 } };
    const facts = {
      ...ran,
      exitCode: 0,
      signal: null,
      timedOut: false,
      tests: null,
      verdict: 'pass' as const,
    };
    expect(verdictContradiction(facts)).toBeNull();
    const killed = { ...facts, exitCode: null, signal: 'SIGKILL', verdict: 'fail' as const };
    expect(verdictContradiction(killed)).toBeNull();
    const cases = [
      { ...facts, signal: 'SIGKILL' },
      { ...killed, signal: 'x' },
      { ...facts, command: null },
      { ...facts, log: null },
      // What `gate record` writes has an exit code alone.
      { ...facts, observed: false, signal: 'SIGKILL', exitCode: null, verdict: 'fail' as const },
      { ...facts, observed: false },
      { ...facts, observed: false, command: null, exitCode: null, verdict: 'error' as const },
    ];
    for (const g of cases) expect(verdictContradiction(g), JSON.stringify(g)).not.toBeNull();
    expect(verdictContradiction({ ...facts, observed: false, command: null, log: null })).toBeNull();
  });
});
