/**
 * An isolated gate's checkout is no repository, wherever the home lies: git run by the check must
 * not find the workspace's repository above it (a home inside the workspace, or a home directory
 * kept in git).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Gates } from '../../src/gates/gates.js';
import { quiet } from '../helpers/gates.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

describe('gate --isolated and git', () => {
  // GIT_CEILING_DIRECTORIES is a colon-separated list: a home whose path holds a colon cannot be
  // named in it, and git then searched up past the checkout into the workspace's repository.
  it.each([['.ag'], ['.ag:ci']])(
    '--isolated with the home %s inside a repository (the workspace): git in the check finds none',
    async (home) => {
      const dir = repoWithCommit({ 'README.md': 'hello\n', '.gitignore': '.ag*/\n' });
      const snapshotter = newSnapshotter({ home: join(dir, home) });
      await snapshotter.captureBeforeState(dir, { runId: 'r1' });
      writeFiles(dir, { 'a.txt': 'a\n' });
      await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
      const gates = new Gates(snapshotter);
      writeFiles(dir, { 'README.md': 'the user edits\n', 'notes.txt': 'not committed\n' });
      const state = () => [
        git(dir, ['for-each-ref']),
        git(dir, ['ls-files', '-s']),
        git(dir, ['status', '--porcelain']),
      ];
      const before = state();
      const out = join(tempDir(), 'seen.txt');
      // What a careless check does: each would reach the workspace's repository through the home.
      const check = `git rev-parse --show-toplevel > '${out}' 2>&1; git add -A; git -c user.name=x -c user.email=x@x commit -qm x; git stash -u; git reset -q --hard`;
      const result = await gates.run(dir, {
        runId: 'r1',
        name: 'careless',
        command: ['sh', '-c', `${check}; true`],
        isolated: true,
        echo: quiet(),
      });
      expect(result.verdict).toBe('pass');
      expect(readFileSync(out, 'utf8')).toContain('not a git repository');
      expect(state()).toEqual(before);
      expect(readFileSync(join(dir, 'notes.txt'), 'utf8')).toBe('not committed\n');
    },
  );
});
