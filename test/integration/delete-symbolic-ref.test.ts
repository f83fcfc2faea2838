/**
 * `delete` of a snapshot whose iteration ref an agent (or a person) turned into a symbolic ref to a
 * branch (`git symbolic-ref refs/agentgate/runs/r1/iteration-1 refs/heads/main`). The ref's removal
 * followed the link: it deleted `main` itself, the checked-out branch, while the snapshot's after
 * commit was its tip. Only the planted ref goes now; the branch stays where it was.
 */
import { describe, expect, it } from 'vitest';
import { recordedCliRun } from '../helpers/cli.js';
import { git, remove } from '../helpers/repo.js';

describe('delete with a symbolic iteration ref', () => {
  it('removes the symbolic ref, never the branch it leads to', () => {
    const { dir, home, cli } = recordedCliRun({ 'a.txt': 'one\n' });
    try {
      const main = git(dir, ['rev-parse', 'refs/heads/main']).trim();
      const ref = 'refs/agentgate/runs/r1/iteration-1';
      expect(git(dir, ['rev-parse', ref]).trim()).toBe(main);
      git(dir, ['symbolic-ref', ref, 'refs/heads/main']);
      const id = (JSON.parse(cli('list', '--json').stdout) as Array<{ id: string }>)[0]?.id as string;
      const res = cli('delete', id, '--json');
      expect(res.status, res.stdout + res.stderr).toBe(0);
      expect(git(dir, ['rev-parse', '--verify', '-q', 'refs/heads/main']).trim()).toBe(main);
      expect(git(dir, ['symbolic-ref', 'HEAD']).trim()).toBe('refs/heads/main');
      expect(git(dir, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/']).trim()).toBe('');
    } finally {
      remove(dir);
      remove(home);
    }
  });
});
