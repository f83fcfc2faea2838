/** The report's gates part: red and green per gate, escaping in CI output, Markdown and dotenv limits. */
import { describe, expect, it } from 'vitest';
import type { GateResult } from '../../types/gate.js';
import {
  gateAnnotations,
  gateDotenvVariables,
  gateMarkdownBlocks,
  gateReportOf,
} from '../../src/report/gates.js';
import { cell } from '../../src/report/markdown.js';

const HOSTILE = 'it works::error title=x::owned\r\n%0A 100% | <b>';

let n = 0;
function verdict(
  iteration: number,
  name: string,
  v: GateResult['verdict'],
  extra: Partial<GateResult> = {},
): GateResult {
  n += 1;
  return {
    id: `g${String(n).padStart(4, '0')}`,
    runId: 'run-1',
    iteration,
    name,
    attempt: 1,
    treeId: 'a'.repeat(40),
    afterSha: 'b'.repeat(40),
    command: ['npm', 'test'],
    observed: true,
    isolated: false,
    startedAt: new Date(Date.UTC(2026, 0, 1, iteration, n)).toISOString(),
    durationMs: 1500,
    exitCode: v === 'pass' ? 0 : 1,
    signal: null,
    timedOut: false,
    verdict: v,
    reason: v === 'pass' ? 'all tests passed' : '1 test failed',
    tests:
      v === 'pass'
        ? { total: 3, passed: 3, failed: 0, skipped: 0, errors: 0, failures: [] }
        : {
            total: 3,
            passed: 2,
            failed: 1,
            skipped: 0,
            errors: 0,
            failures: [{ suite: 'suite::a', name: HOSTILE, message: `expected 1\n::error::second line %` }],
          },
    log: null,
    replayOf: null,
    ...extra,
  };
}

describe('gateReportOf', () => {
  it('finds where each gate went red and green again, from the newest verdict per iteration', () => {
    const gates = gateReportOf([
      verdict(0, 'test', 'pass'),
      verdict(0, 'lint', 'pass'),
      verdict(1, 'test', 'fail'),
      verdict(1, 'lint', 'fail'),
      verdict(2, 'test', 'fail'),
      // A re-run on iteration 2 passes: it supersedes the failure before it.
      verdict(2, 'test', 'pass', { attempt: 2 }),
      verdict(3, 'test', 'error'),
    ]);
    expect(
      gates.iterations.map((i) => [i.iteration, i.verdicts.map((v) => `${v.name}:${v.verdict}`)]),
    ).toEqual([
      [0, ['test:pass', 'lint:pass']],
      [1, ['test:fail', 'lint:fail']],
      [2, ['test:fail', 'test:pass']],
      [3, ['test:error']],
    ]);
    expect(
      gates.summary.map((s) => [s.name, s.latest.verdict, s.iteration, s.firstRed, s.greenAgain]),
    ).toEqual([
      ['lint', 'fail', 1, 1, null],
      ['test', 'error', 3, 1, 2],
    ]);
  });
});

describe('gateReportOf after a restart', () => {
  // Iteration 2 failed and `before --restart-from 1` set it aside: the run's line is 1, then 3.
  const restarts = [{ from: 1, sha: 'c'.repeat(40), lastIteration: 2, at: '2026-01-01T05:00:00.000Z' }];

  it('sums up each gate on the accepted line only: a set-aside failure is no newest verdict, no red', () => {
    const results = [verdict(1, 'test', 'pass'), verdict(2, 'test', 'fail'), verdict(2, 'lint', 'fail')];
    const gates = gateReportOf(results, [], restarts);
    // Every verdict is still listed under its iteration.
    expect(gates.iterations.map((i) => i.iteration)).toEqual([1, 2]);
    expect(gates.summary.map((s) => [s.name, s.latest.verdict, s.iteration, s.firstRed])).toEqual([
      ['test', 'pass', 1, null],
    ]);
    expect(gateAnnotations(gates)).toEqual([]);
    const next = gateReportOf([...results, verdict(3, 'test', 'fail')], [], restarts);
    expect(next.summary.map((s) => [s.name, s.latest.verdict, s.iteration, s.firstRed])).toEqual([
      ['test', 'fail', 3, 3],
    ]);
  });
});

describe('CI output of failed gates', () => {
  it('one ::error per failed gate, hostile names and messages escaped into one command each', () => {
    const lines = gateAnnotations(gateReportOf([verdict(0, 'test', 'fail'), verdict(0, 'lint', 'pass')]));
    expect(lines).toHaveLength(1);
    const [line] = lines as [string];
    expect(line).not.toMatch(/[\r\n]/);
    expect(line.startsWith('::error title=agentgate gate test%3A fail::')).toBe(true);
    // Only the command's own two separators: every `::` of the data is after them, and `%` is escaped.
    const data = line.slice(line.indexOf('::', 2) + 2);
    expect(data).toContain('it works::error title=x::owned%0D%0A%250A 100%25');
    expect(data).toContain('expected 1');
    expect(data).not.toContain('second line');
  });

  it('at most 10 annotations', () => {
    const many = Array.from({ length: 15 }, (_, i) => verdict(0, `gate-${i}`, 'fail'));
    expect(gateAnnotations(gateReportOf(many))).toHaveLength(10);
  });
});

describe('Markdown and dotenv', () => {
  it('the Markdown cells are escaped', () => {
    const text = gateMarkdownBlocks(gateReportOf([verdict(0, 'test', 'fail')]), cell)
      .flatMap((b) => b.lines)
      .join('\n');
    expect(text).toContain('### Gates');
    expect(text).toContain('| test | :x: **fail** | 0 | 0 | - |');
    expect(text).not.toContain('<b>');
    expect(text).not.toMatch(/owned\r?\n/);
  });

  it('dotenv variables stay within the budget given', () => {
    const many = Array.from({ length: 80 }, (_, i) => verdict(0, `gate-${i}`, i % 2 ? 'pass' : 'fail'));
    const vars = gateDotenvVariables(gateReportOf(many), 34);
    expect(vars).toHaveLength(34);
    expect(vars.slice(0, 2)).toEqual([
      ['AGENTGATE_GATES', 80],
      ['AGENTGATE_GATES_FAILED', 40],
    ]);
    expect(vars).toContainEqual([
      'AGENTGATE_GATE_GATE_0',
      expect.stringMatching(/^fail iteration=0 passed=2 failed=1 first_red=0/) as string,
    ]);
  });

  it('gates whose names make one variable share it: the worst verdict, every name, a failure never hidden', () => {
    const vars = gateDotenvVariables(
      gateReportOf([
        verdict(1, 'unit-test', 'fail'),
        verdict(1, 'unit.test', 'pass'),
        verdict(1, 'lint', 'pass'),
      ]),
      50,
    );
    const gateVars = vars.filter(([k]) => k.startsWith('AGENTGATE_GATE_'));
    expect(gateVars.map(([k]) => k).sort()).toEqual(['AGENTGATE_GATE_LINT', 'AGENTGATE_GATE_UNIT_TEST']);
    expect(gateVars.find(([k]) => k === 'AGENTGATE_GATE_UNIT_TEST')?.[1]).toMatch(
      /^fail iteration=1 .* gates=(unit-test,unit\.test|unit\.test,unit-test)$/,
    );
    expect(gateVars.find(([k]) => k === 'AGENTGATE_GATE_LINT')?.[1]).not.toContain('gates=');
  });
});
