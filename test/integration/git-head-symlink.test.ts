/**
 * git's older form of a symbolic HEAD: `.git/HEAD` a symbolic link to `refs/heads/<branch>` (what
 * `core.preferSymlinkRefs=true` writes, and old scripts make). git reads it as `ref: refs/heads/...`
 * and writes that branch through it, inside the git dir: `before` and `after` refused every such
 * repository with UNSAFE_WORKSPACE, as for a link that leads out of the git dir. Such a HEAD works
 * now; a HEAD link that leads anywhere else is still refused.
 */
import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliIn, okIn } from '../helpers/cli.js';
import { git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** Replaces the repository's HEAD file by a symbolic link to `target`. */
function linkHead(ws: string, target: string): void {
  rmSync(join(ws, '.git', 'HEAD'));
  symlinkSync(target, join(ws, '.git', 'HEAD'));
}

describe('.git/HEAD as a symbolic link', () => {
  it('to refs/heads/main: before, after and verify work, and the iterations land on main', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const home = tempDir('agentgate-home-');
    linkHead(ws, 'refs/heads/main');
    writeFiles(ws, { 'a.txt': 'dirty\n' });
    expect(okIn(ws, home, ['before', '--run', 'r'])).toMatchObject({ branch: 'main', isDirty: true });
    writeFiles(ws, { 'b.txt': 'b\n' });
    const snap = okIn<{ afterSha: string; branch: string }>(ws, home, [
      'after',
      '--run',
      'r',
      '--iteration',
      '1',
    ]);
    expect(snap.branch).toBe('main');
    expect(git(ws, ['rev-parse', 'refs/heads/main'])).toBe(snap.afterSha);
    expect(head(ws)).toBe(snap.afterSha);
    expect(okIn(ws, home, ['verify', '--run', 'r'])).toMatchObject({ ok: true });
  });

  it('through "..", out of the git dir (git takes any link that starts with refs/): UNSAFE_WORKSPACE, the file it names untouched', () => {
    for (const target of ['refs/heads/../../../victim-head', 'refs/tags/../../../victim-head']) {
      const root = tempDir('agentgate-headlink-');
      const ws = join(root, 'ws');
      git(root, ['init', '-q', '-b', 'main', ws]);
      writeFiles(ws, { 'a.txt': 'a\n' });
      git(ws, ['add', '-A']);
      git(ws, ['commit', '-qm', 'a']);
      const victim = join(root, 'victim-head');
      writeFileSync(victim, `${head(ws)}\n`);
      linkHead(ws, target);
      writeFiles(ws, { 'a.txt': 'b\n' });
      const res = cliIn(ws, tempDir('agentgate-home-'), ['before', '--run', 'r']);
      expect(res.status, res.stdout).toBe(1);
      expect(res.json()).toMatchObject({ error: { code: 'UNSAFE_WORKSPACE' } });
      expect(readFileSync(victim, 'utf8')).toBe(`${git(ws, ['rev-parse', 'refs/heads/main'])}\n`);
    }
  });
});
