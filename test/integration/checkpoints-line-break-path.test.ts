/**
 * A workspace whose path holds a line break: `git rev-parse` answers one path per line and has
 * no -z, so the probe of the workspace must not split such a path in two (it took the first half
 * for the top level and failed with INTERNAL). Checkpoints work there as anywhere; so does
 * `hook install --project` from inside its `.git`.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn, okIn, runCli } from '../helpers/cli.js';
import { commitAll, initRepo, tempDir } from '../helpers/repo.js';

function lineBreakRepo(): string {
  const dir = join(tempDir('agentgate-nl-'), 'sp ace\nline');
  mkdirSync(dir);
  initRepo(dir);
  writeFileSync(join(dir, 'f.txt'), 'one\n');
  commitAll(dir, 'initial');
  return dir;
}

describe('checkpoints in a workspace whose path holds a line break', () => {
  it('track, patch and restore work there', () => {
    const ws = lineBreakRepo();
    const home = tempDir('agentgate-nl-home-');
    const tracked = okIn<{ hash: string }>(ws, home, ['checkpoint', 'track']);
    writeFileSync(join(ws, 'f.txt'), 'two\n');
    const patch = okIn<{ files: string[] }>(ws, home, ['checkpoint', 'patch', tracked.hash]);
    expect(patch.files).toEqual([join(ws, 'f.txt')]);
    const restore = cliIn(ws, home, ['checkpoint', 'restore', tracked.hash]);
    expect(restore.status, restore.stdout).toBe(0);
    expect(readFileSync(join(ws, 'f.txt'), 'utf8')).toBe('one\n');
  });

  it('hook install --project from inside its .git writes the top level`s file', () => {
    const ws = lineBreakRepo();
    const res = runCli([
      '--json',
      '--home',
      tempDir(),
      'hook',
      'install',
      'cursor',
      '--project',
      '-C',
      join(ws, '.git', 'refs'),
    ]);
    expect(res.status, res.stdout).toBe(0);
    expect(existsSync(join(ws, '.cursor', 'hooks.json'))).toBe(true);
  });
});
