import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn, iterateShell, okIn } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir } from '../helpers/repo.js';

/** An iterate whose agent writes f.txt and leaves a merge stopped: its after step is refused. */
function refusedIterate(ws: string, home: string, iteration = 1) {
  const script = 'echo agent > f.txt && git rev-parse HEAD > .git/MERGE_HEAD';
  return cliIn(ws, home, [
    'iterate',
    '--run',
    'r',
    '--iteration',
    String(iteration),
    '--',
    'sh',
    '-c',
    script,
  ]);
}

const code = (res: ReturnType<typeof cliIn>) => (res.json() as { error: { code: string } }).error.code;
const head = (ws: string) => git(ws, ['rev-parse', 'HEAD']).trim();

describe('an iterate whose after step is refused once its agent ran', () => {
  it('no later before takes the agent work in as the user`s: after records it as the iteration', () => {
    const ws = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir();
    const first = refusedIterate(ws, home);
    expect(first.status).toBe(1);
    expect(code(first)).toBe('OPERATION_IN_PROGRESS');
    const start = head(ws);
    rmSync(join(ws, '.git', 'MERGE_HEAD')); // what the after step refused is fixed

    for (const args of [
      ['before', '--run', 'r'],
      ['iterate', '--run', 'r', '--iteration', '2', '--', 'true'],
    ]) {
      const res = cliIn(ws, home, args);
      expect(res.status).toBe(1);
      expect(code(res)).toBe('ITERATION_INTERRUPTED');
      expect(head(ws)).toBe(start); // no WIP commit of the agent's work
    }
    // Committed on top of the start by the user, it is still no start of a new iteration.
    git(ws, ['commit', '-qam', 'the agent work, committed by hand']);
    expect(code(cliIn(ws, home, ['before', '--run', 'r']))).toBe('ITERATION_INTERRUPTED');
    git(ws, ['reset', '-q', '--soft', 'HEAD~1']);

    const recorded = okIn<{ iteration: number; filesChanged: number; beforeSha: string }>(ws, home, [
      'after',
      '--run',
      'r',
      '--iteration',
      '1',
    ]);
    expect(recorded).toMatchObject({ iteration: 1, filesChanged: 1, beforeSha: start });
    const next = iterateShell<{ iteration: number }>(ws, home, 'true', { iteration: 2 });
    expect(next.iteration).toBe(2);
  });

  it('discarded (HEAD at the start, nothing uncommitted), the iteration runs again', () => {
    const ws = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir();
    expect(refusedIterate(ws, home).status).toBe(1);
    rmSync(join(ws, '.git', 'MERGE_HEAD'));
    git(ws, ['checkout', '-q', '--', '.']);
    expect(existsSync(join(ws, 'f.txt'))).toBe(true);
    const again = iterateShell<{ iteration: number; filesChanged: number }>(ws, home, 'echo again > f.txt');
    expect(again).toMatchObject({ iteration: 1, filesChanged: 1 });
  });
});
