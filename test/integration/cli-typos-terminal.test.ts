/**
 * Issue 26 item 17, as a new user meets it (the bundled bin): a mistyped option gets the nearest
 * option of its command, and `report` without -o on a terminal writes no HTML onto it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { CLI, runCli, type CliResult } from '../helpers/cli.js';
import { remove, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) remove(dir);
});

const ErrorJson = z.object({
  error: z.object({ code: z.string(), details: z.record(z.string(), z.unknown()) }),
});

function failure(res: CliResult): { status: number | null; code: string; suggestion: unknown } {
  const { error } = ErrorJson.parse(JSON.parse(res.stderr || res.stdout));
  return { status: res.status, code: error.code, suggestion: error.details.suggestion };
}

/** The arguments with --json before any `--` (after it, --json would be the agent's). */
function withJson(args: string[]): string[] {
  const end = args.indexOf('--') < 0 ? args.length : args.indexOf('--');
  return [...args.slice(0, end), '--json', ...args.slice(end)];
}

/** `script` gives the CLI a pseudo-terminal for stdout (util-linux). */
const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

describe('a mistyped option', () => {
  it('is USAGE (exit 2) with the nearest option of the command, or none when nothing is close', () => {
    const cwd = tempDir('agentgate-cwd-');
    made.push(cwd);
    const cases: Array<[string[], string | undefined]> = [
      [['after', '--run', 'r', '--itertion', '1'], '--iteration'],
      [['iterate', '--run', 'r', '--iteration', '1', '--brnch', 'x', '--', 'true'], '--branch'],
      [['report', '--fromat', 'md'], '--format'],
      [['verify', '--requre-gate', 'test'], '--require-gate'],
      [['checkpoint', 'gc', '--kep', '3'], '--keep'],
      [['list', '--jsno'], '--json'],
      [['list', '--zzzzzzzz'], undefined],
      [['list', '-q'], undefined],
    ];
    for (const [args, nearest] of cases) {
      const json = runCli(withJson(args), { cwd });
      expect(failure(json), args.join(' ')).toEqual({ status: 2, code: 'USAGE', suggestion: nearest });
      const plain = runCli(args, { cwd });
      expect(plain.status, args.join(' ')).toBe(2);
      if (nearest === undefined) expect(plain.stderr).not.toContain('did you mean');
      else expect(plain.stderr, args.join(' ')).toContain(`did you mean "${nearest}"?`);
    }
  });
});

describe('report without -o', () => {
  it.skipIf(!hasScript)(
    'on a terminal is refused for html (USAGE, a hint), writes nothing; md still prints, a pipe still gets html',
    () => {
      const ws = repoWithCommit({ 'a.txt': 'one\n' });
      const home = tempDir('agentgate-home-');
      made.push(ws, home);
      const env = { AGENTGATE_HOME: home };
      expect(runCli(['before', '--run', 'r', '-C', ws], { env }).status).toBe(0);
      writeFiles(ws, { 'b.txt': 'two\n' });
      expect(runCli(['after', '--run', 'r', '--iteration', '1', '-C', ws], { env }).status).toBe(0);
      const onTerminal = (args: string[]): { status: number; output: string } => {
        const command = [process.execPath, CLI, ...args]
          .map((a) => `'${a.replace(/'/g, `'\\''`)}'`)
          .join(' ');
        try {
          const output = execFileSync('script', ['-qec', `${command} 2>&1`, '/dev/null'], {
            cwd: ws,
            env: { ...process.env, ...env, NO_COLOR: '1' },
            encoding: 'utf8',
          });
          return { status: 0, output };
        } catch (error) {
          const e = error as { status: number; stdout: string };
          return { status: e.status, output: e.stdout };
        }
      };
      const html = onTerminal(['report', '--run', 'r']);
      expect(html.status).toBe(2);
      expect(html.output).toContain('USAGE');
      expect(html.output).toContain('-o');
      expect(html.output).not.toContain('<html');
      expect(readdirSync(ws).filter((f) => !f.startsWith('.'))).toEqual(['a.txt', 'b.txt']);
      const md = onTerminal(['report', '--run', 'r', '--format', 'md']);
      expect(md.status).toBe(0);
      expect(md.output).toContain('b.txt');
      // Not a terminal (a pipe, a redirect): the page is printed as before.
      const piped = runCli(['report', '--run', 'r', '-C', ws], { env });
      expect(piped.status).toBe(0);
      expect(piped.stdout).toContain('<html');
      expect(existsSync(ws)).toBe(true);
    },
  );
});
