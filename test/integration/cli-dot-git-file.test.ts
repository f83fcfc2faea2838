/**
 * A `.git` file that git cannot read as a gitfile (empty, or any other text than `gitdir: PATH`): the
 * directory is no repository. `before` says NOT_A_REPOSITORY, and `before --init` refuses the file
 * (UNSAFE_WORKSPACE), as it does for a `.git` file naming a missing directory; neither was GIT_FAILED.
 */
import { lstatSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliIn } from '../helpers/cli.js';
import { tempDir } from '../helpers/repo.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function codeOf(res: { stdout: string }): string {
  return (JSON.parse(res.stdout) as { error: { code: string } }).error.code;
}

describe.each([
  ['garbage', 'hello\n'],
  ['empty', ''],
  ['a path with no gitdir: prefix', '/elsewhere/.git\n'],
  ['gitdir: and no path', 'gitdir: \n'],
])('a .git file holding %s', (_name, content) => {
  it('before: NOT_A_REPOSITORY; before --init: UNSAFE_WORKSPACE, the file left as it was', () => {
    const ws = tempDir('agentgate-dotgit-');
    const home = tempDir('agentgate-home-');
    dirs.push(ws, home);
    writeFileSync(join(ws, '.git'), content);
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    const plain = cliIn(ws, home, ['before', '--run', 'r']);
    expect(plain.status, plain.stdout + plain.stderr).toBe(1);
    expect(codeOf(plain)).toBe('NOT_A_REPOSITORY');
    const init = cliIn(ws, home, ['before', '--run', 'r', '--init']);
    expect(init.status, init.stdout + init.stderr).toBe(1);
    expect(codeOf(init)).toBe('UNSAFE_WORKSPACE');
    expect(lstatSync(join(ws, '.git')).isFile()).toBe(true);
    expect(readFileSync(join(ws, '.git'), 'utf8')).toBe(content);
  });
});
