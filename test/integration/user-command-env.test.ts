/**
 * A user's command (a gate's check, the agent under `iterate`) works on the workspace we judge or
 * capture: the caller's GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE and the like (an orchestrator that
 * exported them, a git hook that runs us) must not send its git to another repository.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GateResult } from '../../types/gate.js';
import { okIn } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** Another repository, and the variables that would point git at it. */
function elsewhere(): { other: string; env: NodeJS.ProcessEnv } {
  const other = repoWithCommit({ 'other.txt': 'not the workspace\n' });
  return {
    other,
    env: {
      GIT_DIR: join(other, '.git'),
      GIT_WORK_TREE: other,
      GIT_INDEX_FILE: join(other, '.git', 'index'),
      GIT_OBJECT_DIRECTORY: join(other, '.git', 'objects'),
      GIT_COMMON_DIR: join(other, '.git'),
    },
  };
}

/** What git in the command sees: its top level, its status and the GIT_ variables it got. */
function probe(out: string): string {
  return `{ git rev-parse --show-toplevel; git status --porcelain; env | grep '^GIT_\\(DIR\\|WORK_TREE\\|INDEX_FILE\\|OBJECT_DIRECTORY\\|COMMON_DIR\\)=' ; } > '${out}' 2>&1; true`;
}

describe("a user's command and the caller's git environment", () => {
  it('gate without --isolated: the check sees the workspace, not the repository GIT_DIR names', () => {
    const dir = repoWithCommit({ 'README.md': 'hello\n', '.gitignore': 'junit*.xml\n' });
    const home = tempDir('agentgate-home-');
    okIn(dir, home, ['before', '--run', 'r1']);
    writeFiles(dir, { 'a.txt': 'a\n' });
    okIn(dir, home, ['after', '--run', 'r1', '--iteration', '1']);
    const { other, env } = elsewhere();
    const out = join(tempDir(), 'seen.txt');
    const result = GateResult.parse(
      okIn(dir, home, ['gate', '--run', 'r1', '--name', 'g', '--', 'sh', '-c', probe(out)], env),
    );
    expect(result.verdict).toBe('pass');
    expect(readFileSync(out, 'utf8').trimEnd()).toBe(git(dir, ['rev-parse', '--show-toplevel']));
    expect(git(other, ['status', '--porcelain'])).toBe('');
  });

  it("iterate: the agent's git works on the workspace, not the repository GIT_DIR names", () => {
    const dir = repoWithCommit({ 'README.md': 'hello\n' });
    const home = tempDir('agentgate-home-');
    const { other, env } = elsewhere();
    const out = join(tempDir(), 'seen.txt');
    const otherHead = git(other, ['rev-parse', 'HEAD']);
    // The agent commits its work itself, as many do: it must land in the workspace.
    const agent = `echo work > w.txt && git add w.txt && git -c user.name=a -c user.email=a@a commit -qm w && ${probe(out)}`;
    const snapshot = okIn<{ afterSha: string }>(
      dir,
      home,
      ['iterate', '--run', 'r1', '--iteration', '1', '--', 'sh', '-c', agent],
      env,
    );
    expect(readFileSync(out, 'utf8').trimEnd()).toBe(git(dir, ['rev-parse', '--show-toplevel']));
    expect(git(dir, ['show', `${snapshot.afterSha}:w.txt`])).toBe('work');
    expect(git(other, ['rev-parse', 'HEAD'])).toBe(otherHead);
    expect(git(other, ['status', '--porcelain'])).toBe('');
  });
});
