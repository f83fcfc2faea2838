/**
 * A temporary directory that cannot be used ($TMPDIR naming a file, or a directory the user may not
 * write to): the commands that need one fail with WRITE_FAILED naming it, and `after` fails before it
 * commits anything, rather than committing the iteration and then failing with INTERNAL.
 */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliIn, okIn } from '../helpers/cli.js';
import { git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A workspace, a home and a TMPDIR that is a regular file. */
function setup(): { ws: string; home: string; env: NodeJS.ProcessEnv } {
  const ws = repoWithCommit();
  const home = tempDir('agentgate-home-');
  const file = join(tempDir('agentgate-tmp-'), 'not-a-dir');
  writeFileSync(file, '');
  dirs.push(ws, home, join(file, '..'));
  return { ws, home, env: { TMPDIR: file } };
}

function errorOf(res: { stdout: string }): { code: string; details?: Record<string, unknown> } {
  return (JSON.parse(res.stdout) as { error: { code: string; details?: Record<string, unknown> } }).error;
}

describe('an unusable temporary directory', () => {
  it('after: WRITE_FAILED naming TMPDIR, with nothing committed; a retry with a usable one records the iteration', () => {
    const { ws, home, env } = setup();
    okIn(ws, home, ['before', '--run', 'r']);
    const start = head(ws);
    writeFiles(ws, { 'x.txt': 'x\n' });
    const res = cliIn(ws, home, ['after', '--run', 'r', '--iteration', '1'], env);
    expect(res.status, res.stdout + res.stderr).toBe(1);
    expect(errorOf(res).code).toBe('WRITE_FAILED');
    expect(errorOf(res).details?.variable).toBe('TMPDIR');
    expect(head(ws)).toBe(start);
    expect(git(ws, ['status', '--porcelain'])).toContain('x.txt');
    const snap = okIn<{ iteration: number; filesChanged: number }>(ws, home, [
      'after',
      '--run',
      'r',
      '--iteration',
      '1',
    ]);
    expect(snap).toMatchObject({ iteration: 1, filesChanged: 1 });
  });

  it('stats and demo: WRITE_FAILED, not INTERNAL', () => {
    const { ws, home, env } = setup();
    okIn(ws, home, ['before', '--run', 'r']);
    writeFiles(ws, { 'x.txt': 'x\n' });
    okIn(ws, home, ['after', '--run', 'r', '--iteration', '1']);
    for (const args of [['stats', '--run', 'r'], ['demo']]) {
      const res = cliIn(ws, home, args, env);
      expect(res.status, args.join(' ')).toBe(1);
      expect(errorOf(res).code, args.join(' ')).toBe('WRITE_FAILED');
    }
  });
});
