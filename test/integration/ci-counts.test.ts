/**
 * What one CI step shows must agree (issue 26, item 14): the step summary's check count is
 * `verify`'s count, and the `task` output carries the task without its file's final line break.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { VerifyReport } from '../../types/verify.js';
import { recordVerdict } from '../helpers/gates.js';
import { git, writeFiles } from '../helpers/repo.js';
import { machineCli, runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

/** The CLI on `m` with the CI variables this file is about cleared (`env` may set them). */
function cli(m: Machine, args: string[], env: NodeJS.ProcessEnv = {}) {
  return machineCli(m, args, { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '', GITHUB_OUTPUT: '', ...env });
}

/** The `task` step output of an iteration whose task file holds `task` (`after --ci github`). */
function taskOutput(task: string): string {
  w = world();
  const a = w.machine('a');
  const outputs = join(w.root, 'outputs');
  writeFileSync(outputs, '');
  const taskFile = join(w.root, 'task.md');
  writeFileSync(taskFile, task);
  expect(cli(a, ['before', '--run', 'r']).status).toBe(0);
  writeFiles(a.dir, { 'x.txt': 'x\n' });
  const after = ['after', '--run', 'r', '--iteration', '1', '--task-file', taskFile, '--ci', 'github'];
  const res = cli(a, after, { GITHUB_OUTPUT: outputs });
  expect(res.status, res.stderr).toBe(0);
  return /task<<(\S+)\n([\s\S]*?)\n\1\n/.exec(readFileSync(outputs, 'utf8'))?.[2] ?? '';
}

describe('one CI step, one story', () => {
  it('the step summary counts the checks verify prints (gate verdicts included)', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 2);
    await recordVerdict(a, 'run-1', 0, 'test', { verdict: 'fail' });
    await recordVerdict(a, 'run-1', 1, 'test');
    const verified = cli(a, ['verify', '--run', 'run-1', '--json']);
    expect(verified.status, verified.stderr).toBe(0);
    const checks = VerifyReport.parse(verified.json()).checks.length;
    expect(cli(a, ['verify', '--run', 'run-1']).stdout).toContain(`All ${checks} checks passed.`);
    const summary = join(w.root, 'summary.md');
    writeFileSync(summary, '');
    const res = cli(a, ['report', '--run', 'run-1', '--format', 'md', '--ci', 'github'], {
      GITHUB_STEP_SUMMARY: summary,
    });
    expect(res.status, res.stderr).toBe(0);
    expect(readFileSync(summary, 'utf8')).toContain(`passed (${checks} checks)`);
  });

  it('the task output ends with the task, not with a blank line', () => {
    expect(taskOutput('Fix the parser\n\nand its tests\n')).toBe('Fix the parser\n\nand its tests');
  });

  it('a task longer than the task output keeps is cut between characters, never inside one', () => {
    // 65,537 UTF-16 units: the 64 Ki-unit cut falls between the two halves of an emoji.
    const task = `x${'\u{1F600}'.repeat(40_000)}`;
    const value = taskOutput(task);
    expect(value).not.toContain('\uFFFD');
    expect(value.length).toBe(64 * 1024 - 1);
    expect(task.startsWith(value)).toBe(true);
  });

  it('an output file that cannot be appended to is WRITE_FAILED before anything is recorded', () => {
    w = world();
    const a = w.machine('a');
    const head = () => git(a.dir, ['rev-parse', 'HEAD']).trim();
    const unwritable = { GITHUB_OUTPUT: join(w.root, 'no-such-dir', 'outputs') };
    expect(cli(a, ['before', '--run', 'r']).status).toBe(0);
    writeFiles(a.dir, { 'x.txt': 'x\n' });
    const start = head();
    for (const args of [
      ['after', '--run', 'r', '--iteration', '1', '--ci', 'github', '--json'],
      ['iterate', '--run', 'r', '--iteration', '1', '--ci', 'github', '--json', '--', 'true'],
    ]) {
      const res = cli(a, args, unwritable);
      expect(res.status).toBe(1);
      expect(res.json()).toMatchObject({ error: { code: 'WRITE_FAILED' } });
      expect(head()).toBe(start);
    }
    // Nothing was recorded: the same capture with a file it can write succeeds.
    const outputs = join(w.root, 'outputs');
    const res = cli(a, ['after', '--run', 'r', '--iteration', '1', '--ci', 'github', '--json'], {
      GITHUB_OUTPUT: outputs,
    });
    expect(res.status, res.stderr).toBe(0);
    expect(readFileSync(outputs, 'utf8')).toContain('snapshot-id<<');
  });
});
