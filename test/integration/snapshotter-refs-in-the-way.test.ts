/**
 * A ref of the repository in the way of the refs a capture makes: git keeps refs as files in
 * directories, so `refs/agentgate` or `refs/agentgate/runs/<runId>` as a ref of its own (which a
 * plain `git fetch` of a remote's `refs/agentgate/*`, or an agent, can leave) keeps every iteration
 * ref below it from being made, and so does a ref below the iteration ref's own name. `after` and
 * `before` failed with GIT_FAILED (git's "exists; cannot create"); it is UNSAFE_WORKSPACE now, the
 * branch where it was, naming the ref in the way (`details.blocker`), and the capture goes through
 * once that ref is removed.
 */
import { describe, expect, it } from 'vitest';
import { cliIn, okIn } from '../helpers/cli.js';
import { git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

describe('a ref in the way of our refs', () => {
  for (const blocker of ['refs/agentgate', 'refs/agentgate/runs/r', 'refs/agentgate/runs/r/iteration-1/x']) {
    it(`after with ${blocker}: UNSAFE_WORKSPACE naming it, HEAD where it was; after it is gone, the capture`, () => {
      const ws = repoWithCommit({ 'a.txt': 'a\n' });
      const home = tempDir('agentgate-home-');
      okIn(ws, home, ['before', '--run', 'r']);
      const start = head(ws);
      git(ws, ['update-ref', blocker, start]);
      writeFiles(ws, { 'a.txt': 'b\n' });
      const res = cliIn(ws, home, ['after', '--run', 'r', '--iteration', '1']);
      expect(res.status, res.stdout).toBe(1);
      expect(res.json()).toMatchObject({ error: { code: 'UNSAFE_WORKSPACE', details: { blocker } } });
      expect(head(ws)).toBe(start);

      git(ws, ['update-ref', '-d', blocker]);
      expect(okIn(ws, home, ['after', '--run', 'r', '--iteration', '1'])).toMatchObject({ filesChanged: 1 });
      expect(okIn(ws, home, ['verify', '--run', 'r'])).toMatchObject({ ok: true });
    });
  }

  it("before of a dirty workspace with refs/agentgate in the way of its WIP commit's ref: UNSAFE_WORKSPACE", () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const home = tempDir('agentgate-home-');
    const start = head(ws);
    git(ws, ['update-ref', 'refs/agentgate', start]);
    writeFiles(ws, { 'a.txt': 'dirty\n' });
    const res = cliIn(ws, home, ['before', '--run', 'r']);
    expect(res.status, res.stdout).toBe(1);
    expect(res.json()).toMatchObject({
      error: { code: 'UNSAFE_WORKSPACE', details: { blocker: 'refs/agentgate' } },
    });
    expect(head(ws)).toBe(start);
  });
});
