/**
 * Untrusted text (store file names, parse errors, task text, file names) never reaches a printed line
 * that CI reads as a workflow command: no line on stdout or stderr starts with `::` (after blanks,
 * which GitHub's runner trims; a lone CR also ends a line there), in any output mode, except the
 * `::error` annotations `verify` emits on purpose. Nor does any line hold `##[`: the runner also obeys
 * its legacy commands (`##[error]`, `##[add-mask]`, `##[stop-commands]`) wherever they stand in a line.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const cleanup: string[] = [];
afterEach(() => {
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dir = repoWithCommit({ 'a.txt': 'a\n' });
  const home = tempDir('agentgate-home-');
  cleanup.push(dir, home);
  const run = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    runCli(['-C', dir, ...args], { env: { AGENTGATE_HOME: home, GITHUB_ACTIONS: '', ...env } });
  return { dir, home, run };
}

/** The lines a CI runner would read as workflow commands. */
function commandLines(res: CliResult): string[] {
  // The runner trims what .NET calls white space first: U+0085 (NEL) too, which \s leaves out.
  return [res.stdout, res.stderr]
    .flatMap((text) => text.split(/\r\n|\r|\n/))
    .filter((l) => /^[\s\u0085]*::/.test(l));
}

/** `report` in every format, printed and as JSON. */
const REPORTS = ['md', 'json', 'dotenv', 'html'].flatMap((f) => [
  ['report', '--format', f],
  ['report', '--format', f, '--json'],
]);

/** Runs each command: none is a usage error, and none prints a line `found` picks out. */
function noneFound(
  run: (args: string[]) => CliResult,
  commands: string[][],
  found: (res: CliResult) => string[],
): void {
  for (const args of commands) {
    const res = run(args);
    expect(res.status, `${args.join(' ')}: ${res.stderr}`).not.toBe(2);
    expect(found(res), args.join(' ')).toEqual([]);
  }
}

const HOSTILE = 'x\n::error::pwned\r::add-mask::y\n  ::warning::z';

describe('no untrusted text starts a workflow command line', () => {
  it('list and runs: store files with hostile names and contents whose parse errors quote them', () => {
    const { home, run } = setup();
    mkdirSync(join(home, 'snapshots'), { recursive: true });
    mkdirSync(join(home, 'runs'), { recursive: true });
    writeFileSync(join(home, 'snapshots', `${HOSTILE}.json`), '{}');
    writeFileSync(join(home, 'snapshots', 'bad.json'), `\n::error::from-content\n`);
    writeFileSync(join(home, 'runs', `${HOSTILE}.json`), '{}');
    writeFileSync(join(home, 'runs', 'bad.json'), `\n::error::from-content\n`);
    for (const args of [['list'], ['runs'], ['list', '--json'], ['runs', '--json']]) {
      const res = run(args);
      expect(res.status, res.stderr).toBe(0);
      expect(`${res.stdout}${res.stderr}`).toContain('STORE_CORRUPT');
      expect(commandLines(res), args.join(' ')).toEqual([]);
    }
  });

  it('report printed to stdout in every format, and after/show/list with a hostile task and file name', () => {
    const { dir, run } = setup();
    expect(run(['before', '--run', 'r']).status).toBe(0);
    writeFiles(dir, { [`${HOSTILE}.txt`]: '::error::in-content\n' });
    const after = run(['after', '--run', 'r', '--iteration', '1', '--task', HOSTILE, '--gate', HOSTILE]);
    expect(after.status, after.stderr).toBe(0);
    expect(commandLines(after)).toEqual([]);
    const [snapshot] = run(['list', '--json']).json() as Array<{ id: string }>;
    const runs: string[][] = [
      ['show', snapshot?.id ?? ''],
      ['list'],
      ['runs'],
      ['verify', '--run', 'r'],
      ...REPORTS,
    ];
    noneFound(run, runs, commandLines);
  });

  it('checkpoint diff-full for people: a line of a file led by U+0085 (white space to the runner) is no command', () => {
    const { dir, run } = setup();
    const tracked = run(['checkpoint', 'track', '--json']);
    expect(tracked.status, tracked.stderr).toBe(0);
    const { hash } = tracked.json() as { hash: string };
    writeFiles(dir, { 'a.txt': 'a\n\u0085::error::pwned\n\u0085 \u00a0::warning::w\n' });
    const res = run(['checkpoint', 'diff-full', hash]);
    expect(res.status, res.stderr).toBe(0);
    expect(res.stdout).toContain('pwned');
    expect(commandLines(res)).toEqual([]);
  });

  it('errors and usage: a hostile command word, option value and git stderr under AGENTGATE_DEBUG', () => {
    const { run } = setup();
    for (const args of [
      [HOSTILE],
      ['show', HOSTILE],
      ['stats', HOSTILE, 'HEAD'],
      ['before', '--run', HOSTILE],
    ]) {
      const res = run(args, { AGENTGATE_DEBUG: '1' });
      expect(res.status).not.toBe(0);
      expect(commandLines(res), args.join(' ')).toEqual([]);
    }
  });

  it('no line holds a legacy `##[` command, in any mode, and every document still reads back as it was', () => {
    const { dir, run } = setup();
    const legacy = 'x ##[error]pwned ##[add-mask]y ##[stop-commands]tok';
    expect(run(['before', '--run', 'r']).status).toBe(0);
    writeFiles(dir, { [`${legacy}.txt`]: `${legacy}\n` });
    const after = run([
      'after',
      '--run',
      'r',
      '--iteration',
      '1',
      '--task',
      legacy,
      '--gate',
      legacy,
      '--json',
    ]);
    expect(after.status, after.stderr).toBe(0);
    const snapshot = after.json() as { id: string; task: string; files: Array<{ path: string }> };
    expect(snapshot.task).toBe(legacy);
    expect(snapshot.files[0]?.path).toBe(`${legacy}.txt`);
    const legacyLines = (res: CliResult) =>
      [res.stdout, res.stderr].flatMap((t) => t.split(/\r\n|\r|\n/)).filter((l) => l.includes('##['));
    expect(legacyLines(after)).toEqual([]);
    const runs: string[][] = [
      ['show', snapshot.id],
      ['show', snapshot.id, '--json'],
      ['list'],
      ['list', '--json'],
      ['verify', '--run', 'r'],
      ['patch', snapshot.id, '--json'],
      ['show', legacy],
      ['show', legacy, '--json'],
      ...REPORTS,
    ];
    noneFound(run, runs, legacyLines);
    // The documents say what the run holds, as JSON parsers read them.
    const report = JSON.parse(run(['report', '--format', 'json']).stdout) as {
      snapshots: Array<{ task: string }>;
    };
    expect(report.snapshots[0]?.task).toBe(legacy);
    const patch = run(['patch', snapshot.id, '--json']).json() as { diff: string };
    expect(patch.diff).toContain(`+${legacy}\n`);
    // The page printed on stdout is the page -o writes.
    const file = join(dir, '..', `${snapshot.id}-report.html`);
    cleanup.push(file);
    expect(run(['report', '--format', 'html', '-o', file]).status).toBe(0);
    const undated = (page: string) => page.replace(/<dt>Generated<\/dt><dd>[^<]*<\/dd>/, '');
    expect(undated(run(['report', '--format', 'html']).stdout)).toBe(undated(readFileSync(file, 'utf8')));
  });
});
