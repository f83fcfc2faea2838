/**
 * A `delete` that removed a snapshot's record but not its iteration ref: the workspace could not be
 * opened at that moment (moved away, an unmounted disk), or the call was killed between the two
 * steps. The ref stayed at the deleted capture's after commit, so `after` of that iteration was
 * `RUN_ID_TAKEN` for ever, and `delete` again said `SNAPSHOT_NOT_FOUND`. A repeated `delete` now
 * finishes the job from the run's `deletedSnapshots`, and the iteration can be captured again.
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordedCliRun, runCli, type CliResult } from '../helpers/cli.js';
import { git, remove, tempDir, writeFiles } from '../helpers/repo.js';

/** Exit status and error code of a call that failed. */
function failure(res: CliResult): [number | null, string] {
  return [res.status, (res.json() as { error: { code: string } }).error.code];
}

describe('delete, finished by a repeat', () => {
  it('removes the ref a first delete could not reach, then the iteration is captured again', () => {
    const { dir, home, cli } = recordedCliRun({ 'a.txt': 'one\n' });
    const elsewhere = tempDir('agentgate-elsewhere-');
    const ref = 'refs/agentgate/runs/r1/iteration-1';
    try {
      const id = (JSON.parse(cli('list', '--json').stdout) as Array<{ id: string }>)[0]?.id as string;
      // The workspace is away while the record is deleted: the ref cannot be reached.
      renameSync(dir, `${dir}-away`);
      const first = runCli(['--home', home, '--json', 'delete', id], { cwd: elsewhere });
      expect(first.status, first.stdout + first.stderr).toBe(0);
      renameSync(`${dir}-away`, dir);
      expect(git(dir, ['for-each-ref', '--format=%(refname)', ref]).trim()).toBe(ref);

      const again = cli('delete', id, '--json');
      expect(again.status, again.stdout + again.stderr).toBe(0);
      expect(again.json()).toEqual({ deleted: id });
      expect(git(dir, ['for-each-ref', '--format=%(refname)', ref]).trim()).toBe('');
      // Done: a third delete has nothing left to do.
      expect(failure(cli('delete', id, '--json'))).toEqual([1, 'SNAPSHOT_NOT_FOUND']);

      git(dir, ['reset', '-q', '--hard', 'HEAD~1']);
      expect(cli('before', '--run', 'r1', '--json').status).toBe(0);
      writeFiles(dir, { 'a.txt': 'two\n' });
      const after = cli('after', '--run', 'r1', '--iteration', '1', '--json');
      expect(after.status, after.stdout + after.stderr).toBe(0);
    } finally {
      remove(dir);
      remove(`${dir}-away`);
      remove(home);
      remove(elsewhere);
    }
  });

  it('never removes the ref of a capture of that iteration made since', () => {
    const { dir, home, cli } = recordedCliRun({ 'a.txt': 'one\n' });
    const ref = 'refs/agentgate/runs/r1/iteration-1';
    try {
      const id = (JSON.parse(cli('list', '--json').stdout) as Array<{ id: string }>)[0]?.id as string;
      expect(cli('delete', id, '--json').status).toBe(0);
      git(dir, ['reset', '-q', '--hard', 'HEAD~1']);
      expect(cli('before', '--run', 'r1', '--json').status).toBe(0);
      writeFiles(dir, { 'a.txt': 'two\n' });
      expect(cli('after', '--run', 'r1', '--iteration', '1', '--json').status).toBe(0);
      const sha = git(dir, ['rev-parse', ref]).trim();
      // The deleted capture recorded with the new capture's commit (the same commit made twice).
      const file = join(home, 'runs', 'r1.json');
      const run = JSON.parse(readFileSync(file, 'utf8')) as { deletedSnapshots: Array<{ afterSha: string }> };
      (run.deletedSnapshots[0] as { afterSha: string }).afterSha = sha;
      writeFileSync(file, JSON.stringify(run));
      expect(failure(cli('delete', id, '--json'))).toEqual([1, 'SNAPSHOT_NOT_FOUND']);
      expect(git(dir, ['rev-parse', ref]).trim()).toBe(sha);
    } finally {
      remove(dir);
      remove(home);
    }
  });
});
