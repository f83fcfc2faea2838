/**
 * `report` carries the run's gate verdicts in every format (json, md, dotenv) and, on GitHub, a
 * failed gate is an `::error` whose hostile test names and messages stay inside one command.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { RunReport } from '../../types/report.js';
import { recordVerdict } from '../helpers/gates.js';
import { machineCli, runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

const HOSTILE = 'adds::error::pwned\n%0A 100% <script>x</script>';

/** The CLI on `m` with the CI variables this file is about cleared (`env` may set them). */
function cli(m: Machine, args: string[], env: NodeJS.ProcessEnv = {}) {
  return machineCli(m, args, { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '', ...env });
}

const failing = {
  verdict: 'fail' as const,
  tests: {
    total: 2,
    passed: 1,
    failed: 1,
    skipped: 0,
    errors: 0,
    failures: [{ suite: 'math::suite', name: HOSTILE, message: 'expected 2\nreceived 3 %' }],
  },
};

describe('report with gate verdicts', () => {
  it('json, md and dotenv carry the verdicts, red and green; GitHub gets one ::error per failed gate', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 3);
    const at = (h: number) => ({ startedAt: new Date(Date.UTC(2026, 0, 1, h)).toISOString() });
    await recordVerdict(a, 'run-1', 0, 'test', { ...at(1) });
    await recordVerdict(a, 'run-1', 1, 'test', { ...failing, ...at(2) });
    await recordVerdict(a, 'run-1', 2, 'test', { ...at(3), durationMs: 4200 });
    await recordVerdict(a, 'run-1', 2, 'lint', { ...failing, ...at(4) });

    const json = cli(a, ['report', '--run', 'run-1', '--format', 'json', '--json']);
    expect(json.status, json.stderr).toBe(0);
    const report = json.json() as RunReport;
    expect(report.gates?.summary.map((s) => [s.name, s.latest.verdict, s.firstRed, s.greenAgain])).toEqual([
      ['lint', 'fail', 2, null],
      ['test', 'pass', 1, 2],
    ]);
    expect(report.gates?.iterations[1]?.verdicts[0]?.failures[0]?.name).toBe(HOSTILE);

    const md = (cli(a, ['report', '--run', 'run-1', '--format', 'md', '--json']).json() as { text: string })
      .text;
    expect(md).toContain('### Gates');
    expect(md).toContain('| test | :white_check_mark: pass | 2 | 1 | 2 |');
    expect(md).toContain('| 2 | test | 1 | :white_check_mark: pass | - | - | 4.2 s |');
    expect(md).not.toContain('<script>');

    const dotenv = cli(a, ['report', '--run', 'run-1', '--format', 'dotenv']).stdout;
    const lines = dotenv.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(50);
    expect(Buffer.byteLength(dotenv)).toBeLessThanOrEqual(5 * 1024);
    expect(lines).toContain('AGENTGATE_GATES=2');
    expect(lines).toContain('AGENTGATE_GATES_FAILED=1');
    expect(lines).toContain('AGENTGATE_GATES_FAILED_NAMES=lint');
    expect(lines).toContain(
      'AGENTGATE_GATE_TEST=pass iteration=2 passed=- failed=- first_red=1 green_again=2',
    );

    // On GitHub: the report is written and the failed gate is annotated (on stderr with --json).
    const out = join(w.root, 'report.html');
    const gh = cli(a, ['report', '--run', 'run-1', '-o', out, '--json'], { GITHUB_ACTIONS: 'true' });
    expect(gh.status, gh.stderr).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('id="gates"');
    const errors = gh.stderr.split('\n').filter((l) => l.startsWith('::'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(/^::error title=agentgate gate lint%3A fail::iteration 2, attempt 1: /);
    expect(errors[0]).toContain('adds::error::pwned%0A%250A 100%25');
    expect(cli(a, ['report', '--run', 'run-1', '-o', out, '--ci', 'none']).stdout).not.toContain('::error');
    expect(cli(a, ['report', '--run', 'run-1', '-o', out, '--ci', 'github']).stdout).toContain('::error');
  });
});

describe('report printed on GitHub without -o', () => {
  it('stdout is the document alone (json, html, dotenv, md): the ::error goes to stderr; the step summary holds only Markdown', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 1);
    await recordVerdict(a, 'run-1', 0, 'lint', failing);
    const gh = { GITHUB_ACTIONS: 'true' };
    const annotated = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('::error'));
    for (const format of ['json', 'html', 'dotenv', 'md']) {
      const res = cli(a, ['report', '--run', 'run-1', '--format', format], gh);
      expect(res.status, res.stderr).toBe(0);
      expect(res.stdout).not.toMatch(/^::/m);
      expect(annotated(res.stderr), format).toHaveLength(1);
    }
    const json = cli(a, ['report', '--run', 'run-1', '--format', 'json'], gh);
    expect((JSON.parse(json.stdout) as RunReport).run.runId).toBe('run-1');
    expect(cli(a, ['report', '--run', 'run-1', '--format', 'html'], gh).stdout).toMatch(/<\/html>\n$/);

    const summary = join(w.root, 'summary.md');
    writeFileSync(summary, '');
    const md = cli(a, ['report', '--run', 'run-1', '--format', 'md'], {
      ...gh,
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(md.status, md.stderr).toBe(0);
    expect(readFileSync(summary, 'utf8')).toContain('### Gates');
    expect(readFileSync(summary, 'utf8')).not.toMatch(/^::/m);
    // stdout carries one line for people there, and GitHub reads the annotation after it.
    expect(md.stdout.split('\n').filter((l) => l.startsWith('::error'))).toHaveLength(1);
  });
});
