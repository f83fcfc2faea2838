/**
 * A home inside the workspace (`--home .agentgate`), where the agent can reach it: an agent that
 * replaced the home's record directories by symbolic links (`.agentgate/runs -> /elsewhere`) made
 * `after` write the snapshot and run records through them, outside the home, as it is refused to
 * write a patch artifact. Refused the same way now (UNSAFE_WORKSPACE), before anything is committed.
 */
import { mkdirSync, readdirSync, renameSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn, okIn } from '../helpers/cli.js';
import { head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** Replaces `<home>/<dir>` by a link to `target` (the old directory kept beside it). */
function linkAway(home: string, dir: string, target: string): void {
  mkdirSync(join(home, dir), { recursive: true });
  renameSync(join(home, dir), join(home, `${dir}.old`));
  symlinkSync(target, join(home, dir));
}

describe('a home inside the workspace whose record directories the agent linked elsewhere', () => {
  for (const dir of ['snapshots', 'runs', 'locks']) {
    it(`after refuses ${dir} -> elsewhere with UNSAFE_WORKSPACE, committing and writing nothing`, () => {
      const ws = repoWithCommit({ 'a.txt': 'a\n' });
      const home = join(ws, '.agentgate');
      okIn(ws, home, ['before', '--run', 'r']);
      const start = head(ws);
      const elsewhere = tempDir('agentgate-elsewhere-');
      writeFiles(ws, { 'a.txt': 'b\n' });
      linkAway(home, dir, elsewhere);
      const res = cliIn(ws, home, ['after', '--run', 'r', '--iteration', '1']);
      expect(res.status, res.stdout).toBe(1);
      expect(res.json()).toMatchObject({ error: { code: 'UNSAFE_WORKSPACE' } });
      expect(readdirSync(elsewhere)).toEqual([]);
      expect(head(ws)).toBe(start);
    });
  }

  it('iterate refuses an agent that linked the snapshots away, writing nothing there', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const home = join(ws, '.agentgate');
    const elsewhere = tempDir('agentgate-elsewhere-');
    const script = `echo b > a.txt; mv .agentgate/snapshots .agentgate/s.old; ln -s '${elsewhere}' .agentgate/snapshots`;
    const res = cliIn(ws, home, ['iterate', '--run', 'r', '--iteration', '1', '--', 'sh', '-c', script]);
    expect(res.status, res.stdout).toBe(1);
    expect(res.json()).toMatchObject({ error: { code: 'UNSAFE_WORKSPACE' } });
    expect(readdirSync(elsewhere)).toEqual([]);
  });
});
