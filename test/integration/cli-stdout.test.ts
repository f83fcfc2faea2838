/**
 * stdout through the built CLI (src/cli/stdout.ts): the CLI's own answer goes to the descriptor
 * directly until something makes process.stdout, and in order with what went through the stream
 * after that; a stream made by a command (a gate's echo) still ignores a closed pipe; an agent's
 * hook exits 0 even when its answer cannot be written.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI, recordedCliRun, runCli, runCliIntoClosedPipe } from '../helpers/cli.js';
import { tempDir, writeFiles } from '../helpers/repo.js';

describe('the CLI on stdout', () => {
  it("a gate's echoed output (through the stream) comes before the verdict (written after it)", () => {
    const { cli } = recordedCliRun({ 'a.txt': 'two\n' });
    const lines = Array.from({ length: 2000 }, (_, i) => `check-line-${i}`);
    const res = cli(
      'gate',
      '--run',
      'r1',
      '--name',
      'echo',
      '--',
      'sh',
      '-c',
      `printf '%s\\n' ${lines.join(' ')}`,
    );
    expect(res.status, res.stderr).toBe(0);
    const printed = res.stdout.split('\n');
    expect(printed.slice(0, lines.length)).toEqual(lines);
    expect(printed.slice(lines.length).join('\n')).toMatch(/pass/);
  });

  it('a gate whose echo meets a closed pipe (| head): its own status, nothing on stderr', () => {
    const { dir, home } = recordedCliRun({ 'a.txt': 'two\n' });
    const loud =
      'i=0; while [ $i -lt 20000 ]; do echo "a line of the check that fills the pipe $i"; i=$((i+1)); done';
    const args = ['gate', '--run', 'r1', '--name', 'loud', '-C', dir, '--home', home, '--', 'sh', '-c', loud];
    const piped = runCliIntoClosedPipe(args, home);
    expect(piped.stderr).toBe('');
    expect(piped.status).toBe(0);
  });

  it.runIf(existsSync('/dev/full'))(
    'an agent`s hook whose answer cannot be written (/dev/full) still exits 0; any other command 1 (WRITE_FAILED)',
    () => {
      const home = tempDir('agentgate-stdout-');
      const event = JSON.stringify({ session_id: 's', hook_event_name: 'Stop', cwd: home });
      const full = openSync('/dev/full', 'w');
      const run = (args: string[]) =>
        spawnSync(process.execPath, [CLI, '--home', home, ...args], {
          input: event,
          stdio: ['pipe', full, 'pipe'],
          encoding: 'utf8',
        });
      try {
        for (const args of [
          ['hook', 'gemini'],
          ['hook', 'cline'],
          ['hook', 'cursor'],
          ['hook', 'gemini', '--bad'],
        ]) {
          const res = run(args);
          expect([res.status, res.stderr.includes('WRITE_FAILED')], args.join(' ')).toEqual([0, true]);
        }
        expect(run(['--version']).status).toBe(1);
      } finally {
        closeSync(full);
      }
    },
  );

  it('runs --json and --version make no process.stdout: neither node:net nor node:tty is loaded', () => {
    const home = tempDir('agentgate-stdout-');
    const probe = join(home, 'probe.mjs');
    const loaded = join(home, 'loaded.txt');
    writeFiles(home, {
      'probe.mjs': `import { writeFileSync } from 'node:fs';\nprocess.on('exit', () => writeFileSync(${JSON.stringify(loaded)}, process.moduleLoadList.join('\\n')));\n`,
    });
    for (const args of [['runs', '--json', '--home', home], ['--version']]) {
      const res = spawnSync(process.execPath, ['--import', probe, CLI, ...args], { encoding: 'utf8' });
      expect(res.status, res.stderr).toBe(0);
      const modules = readFileSync(loaded, 'utf8').split('\n');
      expect(
        modules.filter((m) => /^NativeModule (net|tty)$/.test(m)),
        args.join(' '),
      ).toEqual([]);
    }
    expect(runCli(['runs', '--json', '--home', home]).stdout).toBe('[]\n');
  });
});
