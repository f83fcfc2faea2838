/**
 * What `checkpoint restore` and `checkpoint revert` take and say through the CLI: the text names
 * what was left alone; the workspace root means every changed file; a name that is not UTF-8 is
 * given as JSON writes it (`\udcNN`); an empty --session and --prompt 0 are INVALID_ARGUMENT.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** The checkpoint commands in `ws` with a home of their own; `in` runs one in another directory. */
function cli(ws: string) {
  const env = { AGENTGATE_HOME: tempDir('agentgate-cp-args-home-') };
  const run = (...args: string[]) => runCli(['checkpoint', ...args, '-C', ws], { env });
  run.in = (dir: string, ...args: string[]) => runCli(['checkpoint', ...args, '-C', dir], { env });
  return run;
}

describe('checkpoint revert and restore through the CLI', () => {
  it('the text of revert and restore names what was left alone', () => {
    const ws = repoWithCommit({ 'a.txt': 'hello\n' });
    const run = cli(ws);
    writeFiles(ws, { 'd/f': '1\n' });
    expect(run('track', '--label', 'A').status).toBe(0);
    rmSync(join(ws, 'd'), { recursive: true });
    writeFileSync(join(ws, 'd'), 'file\n');
    const revert = run('revert', 'A', 'd/f');
    expect(revert.status).toBe(0);
    expect(revert.stdout).toMatch(/Left alone[^\n]*:\n {2}\S*\/d\/f\n/);
    expect(readFileSync(join(ws, 'd'), 'utf8')).toBe('file\n');

    // A nested repository now stands where the checkpoint had a directory: restore leaves it alone.
    const other = repoWithCommit({ 'a.txt': 'hello\n' });
    const runOther = cli(other);
    writeFiles(other, { 'n/f.txt': '1\n' });
    expect(runOther('track', '--label', 'A').status).toBe(0);
    writeFiles(other, { 'n/f.txt': '2\n' });
    git(join(other, 'n'), ['init', '-q']);
    const restore = runOther('restore', 'A');
    expect(restore.status, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/Left alone[^\n]*:\n {2}\S*\/n\/f\.txt\n/);
    expect(readFileSync(join(other, 'n', 'f.txt'), 'utf8')).toBe('2\n');
  });

  it('revert HASH with the workspace root (".", its absolute path, ".." from a subdirectory) reverts every changed file', () => {
    const ws = repoWithCommit({ 'a.txt': 'hello\n', 'sub/b.txt': 'b\n' });
    const run = cli(ws);
    expect(run('track', '--label', 'A').status).toBe(0);
    for (const [dir, root] of [
      [ws, '.'],
      [ws, ws],
      [join(ws, 'sub'), '..'],
    ] as const) {
      writeFiles(ws, { 'a.txt': 'changed\n', 'sub/b.txt': 'changed\n' });
      const res = run.in(dir, 'revert', 'A', root, '--json');
      expect(res.status, res.stderr).toBe(0);
      expect((res.json() as { reverted: string[] }).reverted).toHaveLength(2);
      expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('hello\n');
    }
  });

  it('a name that is not UTF-8 is reverted when given as \\udcNN, as JSON output writes it', () => {
    const ws = repoWithCommit({ 'a.txt': 'hello\n' });
    const run = cli(ws);
    const name = Buffer.concat([Buffer.from(`${ws}/caf`), Buffer.from([0xe9]), Buffer.from('.txt')]);
    writeFileSync(name, 'o');
    expect(run('track', '--label', 'A').status).toBe(0);
    writeFileSync(name, 'm');
    const patch = run('patch', 'A', '--json');
    expect(patch.stdout).toContain('caf\\udce9.txt');
    const res = run('revert', 'A', 'caf\\udce9.txt', '--json');
    expect(res.status, res.stderr).toBe(0);
    expect(readFileSync(name, 'utf8')).toBe('o');
    // The text shows the name as it is given back.
    writeFileSync(name, 'm');
    expect(run('revert', 'A', 'caf\\udce9.txt').stdout).toContain('caf\\udce9.txt');
  });

  it('a file whose name really holds the text \\udcNN is taken as written', () => {
    const ws = repoWithCommit({ 'a.txt': 'hello\n' });
    const run = cli(ws);
    mkdirSync(join(ws, 'x'));
    writeFileSync(join(ws, 'x', 'caf\\udce9.txt'), 'o');
    expect(run('track', '--label', 'A').status).toBe(0);
    writeFileSync(join(ws, 'x', 'caf\\udce9.txt'), 'm');
    expect(run('revert', 'A', 'x/caf\\udce9.txt').status).toBe(0);
    expect(readFileSync(join(ws, 'x', 'caf\\udce9.txt'), 'utf8')).toBe('o');
  });

  it('PATH_NOT_FOUND spells a name that is not UTF-8 as given (\\udcNN), never U+FFFD', () => {
    const ws = repoWithCommit({ 'a.txt': 'hello\n' });
    const run = cli(ws);
    expect(run('track', '--label', 'A').status).toBe(0);
    const res = run('revert', 'A', 'nope\\udce9.txt');
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('PATH_NOT_FOUND');
    expect(res.stderr).toContain('nope\\udce9.txt');
    expect(res.stderr).not.toContain('\ufffd');
  });

  it('a deleted file literally named with \\udcNN is reverted by that name (no file has the bytes)', () => {
    const ws = repoWithCommit({ 'a.txt': 'hello\n' });
    const run = cli(ws);
    writeFileSync(join(ws, 'lit\\udce9.txt'), 'o');
    expect(run('track', '--label', 'A').status).toBe(0);
    rmSync(join(ws, 'lit\\udce9.txt'));
    expect(run('patch', 'A', '--json').stdout).toContain('lit\\\\udce9.txt');
    const res = run('revert', 'A', 'lit\\udce9.txt');
    expect(res.status, res.stderr).toBe(0);
    expect(readFileSync(join(ws, 'lit\\udce9.txt'), 'utf8')).toBe('o');
  });

  it('restore --prompt with an empty --session, or --prompt 0, is INVALID_ARGUMENT (exit 2)', () => {
    const ws = repoWithCommit({ 'a.txt': 'hello\n' });
    const run = cli(ws);
    for (const args of [
      ['restore', '--prompt', '1', '--session', ''],
      ['restore', '--prompt', '0'],
    ]) {
      const res = run(...args);
      expect(res.status).toBe(2);
      expect(res.stderr).toContain('INVALID_ARGUMENT');
    }
  });
});
