/**
 * The built CLI: `report` in every format, `after` step outputs and `verify` annotations under
 * GitHub Actions (detected or forced with --ci), and the step summary.
 */
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  openSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RunReport } from '../../types/report.js';
import { Snapshot } from '../../types/snapshot.js';
import { runCli, runCliAsync } from '../helpers/cli.js';
import { parseGithubFile } from '../helpers/github-files.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const cleanup: string[] = [];
afterEach(() => {
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dir = repoWithCommit({ 'a.txt': 'a\n' });
  const home = tempDir('agentgate-home-');
  const gh = tempDir('agentgate-gh-');
  cleanup.push(dir, home, gh);
  const files = { GITHUB_OUTPUT: join(gh, 'output'), GITHUB_STEP_SUMMARY: join(gh, 'summary') };
  for (const f of Object.values(files)) writeFileSync(f, '');
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runCli(['-C', dir, ...args], { env: { AGENTGATE_HOME: home, GITHUB_ACTIONS: '', ...env } });
  return { dir, home, files, run };
}

const TASK = 'Make it work\nsecond line: a=b\n\n== done ==';

describe('CLI report and GitHub Actions', () => {
  it('after writes its step outputs under GITHUB_ACTIONS=true, read back exactly by GitHub rules', () => {
    const { dir, files, run } = setup();
    expect(run(['before', '--run', 'gh-run']).status).toBe(0);
    writeFiles(dir, { 'b.txt': 'b\n' });
    const res = run(['after', '--run', 'gh-run', '--iteration', '1', '--task', TASK, '--json'], {
      GITHUB_ACTIONS: 'true',
      ...files,
    });
    expect(res.status, res.stderr).toBe(0);
    const snapshot = Snapshot.parse(res.json());
    expect(parseGithubFile(readFileSync(files.GITHUB_OUTPUT, 'utf8'))).toEqual({
      'snapshot-id': snapshot.id,
      'after-sha': snapshot.afterSha,
      'patch-path': snapshot.patchPath,
      'files-changed': '1',
      insertions: '1',
      deletions: '0',
      'run-id': 'gh-run',
      iteration: '1',
      task: TASK,
    });
  });

  it('--ci none turns it off; --ci github without $GITHUB_OUTPUT fails before capturing', () => {
    const { dir, files, run } = setup();
    run(['before', '--run', 'r']);
    writeFiles(dir, { 'b.txt': 'b\n' });
    const missing = run(['after', '--run', 'r', '--iteration', '1', '--ci', 'github', '--json'], {
      GITHUB_OUTPUT: '',
    });
    expect(missing.status).toBe(1);
    expect(missing.json()).toMatchObject({ error: { code: 'CI_ENV_MISSING' } });
    expect(run(['list', '--run', 'r', '--json']).json()).toEqual([]);
    expect(
      run(['after', '--run', 'r', '--iteration', '1', '--ci', 'none'], { GITHUB_ACTIONS: 'true', ...files })
        .status,
    ).toBe(0);
    expect(readFileSync(files.GITHUB_OUTPUT, 'utf8')).toBe('');
    expect(run(['after', '--run', 'r', '--iteration', '2', '--ci', 'gitlab', '--json']).json()).toMatchObject(
      { error: { code: 'INVALID_ARGUMENT' } },
    );
  });

  it('report: html to a file, json of its schema, dotenv, and md appended to the step summary', () => {
    const { dir, home, files, run } = setup();
    run(['before', '--run', 'rep']);
    writeFiles(dir, { 'b.txt': 'b\n' });
    run(['after', '--run', 'rep', '--iteration', '1', '--task', TASK, '--gate', 'npm test']);
    const out = join(home, 'out', 'report.html');

    const written = run(['report', '-o', out, '--json']);
    expect(written.status, written.stderr).toBe(0);
    expect(written.json()).toMatchObject({ file: out, format: 'html', runId: 'rep' });
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('Make it work');

    const json = run(['report', '--format', 'json', '--json']);
    const doc = RunReport.parse(json.json());
    expect(doc.snapshots[0]).toMatchObject({ iteration: 1, task: TASK, gate: 'npm test' });
    expect(doc.verification.ok).toBe(true);
    expect(RunReport.parse(JSON.parse(run(['report', '--format', 'json']).stdout))).toEqual({
      ...doc,
      generatedAt: expect.any(String),
    });

    const dotenv = run(['report', '--format', 'dotenv']);
    expect(dotenv.stdout).toContain('AGENTGATE_RUN_ID=rep\n');

    const printed = run(['report', '--format', 'md']);
    expect(printed.stdout).toContain('## agentgate run `rep`');
    const summary = run(['report', '--format', 'md'], { GITHUB_ACTIONS: 'true', ...files });
    expect(summary.status, summary.stderr).toBe(0);
    expect(readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8')).toContain('## agentgate run `rep`');
    expect(run(['report', '--format', 'pdf', '--json']).json()).toMatchObject({
      error: { code: 'INVALID_ARGUMENT' },
    });
    expect(run(['report', '--run', 'nope', '--json']).json()).toMatchObject({
      error: { code: 'RUN_NOT_FOUND' },
    });
  });

  it('html on stdout is the page -o writes: a task line that reads as a workflow command is not rewritten', () => {
    const { dir, home, run } = setup();
    run(['before', '--run', 'cmd']);
    writeFiles(dir, { 'b.txt': 'b\n' });
    const task = 'step one\n::error::forged\n  ::add-mask::x\r::warning::y';
    run(['after', '--run', 'cmd', '--iteration', '1', '--task', task, '--gate', 'g\n::notice::z']);
    const out = join(home, 'report.html');
    expect(run(['report', '-o', out]).status).toBe(0);
    const printed = run(['report', '--format', 'html'], { GITHUB_ACTIONS: 'true' });
    expect(printed.status, printed.stderr).toBe(0);
    const generated = (page: string) => page.replace(/<dt>Generated<\/dt><dd>[^<]*<\/dd>/, '');
    expect(generated(printed.stdout)).toBe(generated(readFileSync(out, 'utf8')));
    for (const line of printed.stdout.split(/\r\n|\r|\n/)) expect(line).not.toMatch(/^\s*::/);
  });

  it('md to the step summary takes only the room the file has left (1 MiB in all): cut with its note, a one-line note, or nothing', () => {
    const { dir, files, run } = setup();
    run(['before', '--run', 'big']);
    writeFiles(
      dir,
      Object.fromEntries(Array.from({ length: 300 }, (_, i) => [`src/file-${i}.txt`, `${i}\n`])),
    );
    expect(run(['after', '--run', 'big', '--iteration', '1']).status).toBe(0);
    const MiB = 1024 * 1024;
    const summary = files.GITHUB_STEP_SUMMARY;
    const report = () => {
      const res = run(['report', '--format', 'md', '--json'], { GITHUB_ACTIONS: 'true', ...files });
      expect(res.status, res.stderr).toBe(0);
      return (res.json() as { appended: string }).appended;
    };
    expect(report()).toBe('whole');
    const whole = statSync(summary).size;
    expect(whole).toBeGreaterThan(10_000);
    // Earlier sections left room for a few rows only: the section is cut to it.
    writeFileSync(summary, `${'x'.repeat(MiB - 5000)}\n`);
    expect(report()).toBe('cut');
    expect(statSync(summary).size).toBeLessThanOrEqual(MiB);
    expect(readFileSync(summary, 'utf8')).toMatch(/was cut to stay within GitHub's 1 MiB step summary limit/);
    // Room for no section, but for one line.
    writeFileSync(summary, `${'x'.repeat(MiB - 400)}\n`);
    expect(report()).toBe('note');
    const text = readFileSync(summary, 'utf8');
    expect(
      text
        .slice(MiB - 399)
        .split('\n')
        .filter((l) => l !== ''),
    ).toHaveLength(1);
    expect(statSync(summary).size).toBeLessThanOrEqual(MiB);
    // Full: nothing is appended.
    writeFileSync(summary, 'x'.repeat(MiB - 10));
    expect(report()).toBe('nothing');
    expect(statSync(summary).size).toBe(MiB - 10);
    // The text for people says so, rather than "Appended".
    const told = run(['report', '--format', 'md'], { GITHUB_ACTIONS: 'true', ...files });
    expect(told.stdout).toMatch(/is full: the run big summary was not appended/);
    expect(told.stdout).not.toMatch(/Appended/);
  });

  it('md larger than 1 MiB into an empty step summary, of a run or an anchor: rows dropped, and appended says cut', () => {
    const { dir, files, run } = setup();
    const summary = files.GITHUB_STEP_SUMMARY;
    const toSummary = (args: string[]) => {
      writeFileSync(summary, '');
      const res = run([...args, '--format', 'md', '--json'], { GITHUB_ACTIONS: 'true', ...files });
      expect(res.status, res.stderr).toBe(0);
      expect(statSync(summary).size).toBeLessThanOrEqual(1024 * 1024);
      expect(statSync(summary).size).toBeGreaterThan(1000 * 1024);
      return (res.json() as { appended: string }).appended;
    };
    run(['before', '--run', 'huge']);
    // About 600 bytes per file row: 2000 rows pass 1 MiB.
    const long = `d-${'x'.repeat(190)}`;
    const path = (i: number) => `${long}/${long}/${long}/f-${i}.txt`;
    writeFiles(dir, Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [path(i), '\n'])));
    expect(run(['after', '--run', 'huge', '--iteration', '1']).status).toBe(0);
    expect(toSummary(['report'])).toBe('cut');
    expect(toSummary(['report', '--anchor', 'HEAD'])).toBe('cut');
  });

  it('report -C DIR without --run reports the most recent run of DIR, not a newer run of another project in the home', () => {
    const { dir, home, run } = setup();
    const other = repoWithCommit({ 'x.txt': 'x\n' });
    cleanup.push(other);
    run(['before', '--run', 'mine']);
    writeFiles(dir, { 'b.txt': 'b\n' });
    run(['after', '--run', 'mine', '--iteration', '1']);
    const elsewhere = (args: string[]) => runCli(['-C', other, ...args], { env: { AGENTGATE_HOME: home } });
    elsewhere(['before', '--run', 'theirs']);
    writeFiles(other, { 'y.txt': 'y\n' });
    expect(elsewhere(['after', '--run', 'theirs', '--iteration', '1']).status).toBe(0);

    const res = run(['report', '--format', 'json']);
    expect(res.status, res.stderr).toBe(0);
    const report = RunReport.parse(res.json());
    expect([report.run.runId, report.verification.ok]).toEqual(['mine', true]);
    // A -C where no run was recorded still takes the most recent of all.
    const fresh = repoWithCommit({ 'z.txt': 'z\n' });
    cleanup.push(fresh);
    const latest = runCli(['-C', fresh, 'report', '--format', 'json'], { env: { AGENTGATE_HOME: home } });
    expect(RunReport.parse(latest.json()).run.runId).toBe('theirs');
  });

  it('report without -C reports the most recent run of the current directory (or one holding it), as -C . does', () => {
    const { dir, home, run } = setup();
    const other = repoWithCommit({ 'x.txt': 'x\n' });
    cleanup.push(other);
    run(['before', '--run', 'mine']);
    writeFiles(dir, { 'b.txt': 'b\n', 'sub/c.txt': 'c\n' });
    run(['after', '--run', 'mine', '--iteration', '1']);
    const elsewhere = (args: string[]) => runCli(['-C', other, ...args], { env: { AGENTGATE_HOME: home } });
    elsewhere(['before', '--run', 'theirs']);
    writeFiles(other, { 'y.txt': 'y\n' });
    expect(elsewhere(['after', '--run', 'theirs', '--iteration', '1']).status).toBe(0);

    const here = (cwd: string) => {
      const res = runCli(['report', '--format', 'json'], { cwd, env: { AGENTGATE_HOME: home } });
      expect(res.status, res.stderr).toBe(0);
      return RunReport.parse(res.json()).run.runId;
    };
    expect([here(dir), here(join(dir, 'sub')), here(other)]).toEqual(['mine', 'mine', 'theirs']);
    // A directory where no run was recorded still takes the most recent of all.
    const fresh = repoWithCommit({ 'z.txt': 'z\n' });
    cleanup.push(fresh);
    expect(here(fresh)).toBe('theirs');
  });

  it('md to a step summary that is a FIFO: WRITE_FAILED at once with no reader, appended with one', async () => {
    const { dir, home, run } = setup();
    run(['before', '--run', 'pipe']);
    writeFiles(dir, { 'b.txt': 'b\n' });
    expect(run(['after', '--run', 'pipe', '--iteration', '1']).status).toBe(0);
    const fifo = join(home, 'summary.fifo');
    execFileSync('mkfifo', [fifo]);
    const args = ['-C', dir, 'report', '--format', 'md', '--ci', 'github', '--json'];
    const env = { AGENTGATE_HOME: home, GITHUB_STEP_SUMMARY: fifo };
    // No reader: a blocking open would wait for one for ever, and the CI job with it.
    const alone = await runCliAsync(args, { env });
    expect([alone.status, alone.json()]).toMatchObject([1, { error: { code: 'WRITE_FAILED' } }]);
    // With a reader, the summary is appended as to a file (the pipe's buffer holds it until read).
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const piped = await runCliAsync(args, { env });
      expect([piped.status, piped.json()]).toMatchObject([0, { appended: 'whole', runId: 'pipe' }]);
      const buffer = Buffer.alloc(64 * 1024);
      const read = buffer.toString('utf8', 0, readSync(reader, buffer));
      expect(read).toContain('## agentgate run `pipe`');
    } finally {
      closeSync(reader);
    }
  });

  it('verify: failed checks become ::error annotations, on stdout, or on stderr with --json', () => {
    const { dir, run } = setup();
    for (let i = 1; i <= 12; i++) {
      run(['before', '--run', 'v']);
      writeFiles(dir, { [`f${i}.txt`]: `${i}\n` });
      const res = run(['after', '--run', 'v', '--iteration', String(i), '--json']);
      writeFileSync(Snapshot.parse(res.json()).patchPath as string, 'tampered\n');
    }
    const plain = run(['verify', '--run', 'v'], { GITHUB_ACTIONS: 'true' });
    expect(plain.status).toBe(3);
    const annotations = plain.stdout.split('\n').filter((l) => l.startsWith('::error'));
    expect(annotations).toHaveLength(10);
    expect(annotations[9]).toMatch(/::error title=agentgate verify::3 more failed checks/);
    const json = run(['verify', '--run', 'v', '--json', '--ci', 'github']);
    expect(json.status).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ ok: false });
    expect(json.stderr.split('\n').filter((l) => l.startsWith('::error'))).toHaveLength(10);
    expect(run(['verify', '--run', 'v']).stdout).not.toContain('::error');
  });
});
