/**
 * A workspace whose `.git` is a file or a symbolic link naming a git dir inside the work tree
 * (`.realgit`): that directory's config, refs, index and objects are no workspace files. A track
 * (and an agent hook) never captures them, and restore or revert never writes or deletes anything
 * there, also for a checkpoint taken before `.git` was moved, or by a store whose index still
 * holds them; a path there is no path to revert (PATH_OUTSIDE_WORKSPACE).
 */
import { readdirSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint, openCheckpoints, storeTreePaths } from '../helpers/checkpoints.js';
import { cliIn, okIn, runCli } from '../helpers/cli.js';
import { commitAll, git, head, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** Moves `ws/.git` to `ws/.realgit` and leaves a `.git` file (or link) naming it. */
function moveGitDir(ws: string, as: 'file' | 'link'): void {
  renameSync(join(ws, '.git'), join(ws, '.realgit'));
  if (as === 'file') writeFileSync(join(ws, '.git'), 'gitdir: .realgit\n');
  else symlinkSync('.realgit', join(ws, '.git'));
}

/** The paths of checkpoint `hash` in the store of `ws` under `home`. */
async function trackedPaths(ws: string, home: string, hash: string): Promise<string[]> {
  return storeTreePaths(await openCheckpoints(ws, { home }), hash);
}

const inner = (paths: string[]) => paths.filter((p) => p === '.realgit' || p.startsWith('.realgit/'));

describe('a git dir inside the work tree (.git naming .realgit)', () => {
  it.each(['file', 'link'] as const)(
    'a .git %s: track leaves it out, restore and revert leave it byte for byte',
    async (as) => {
      const ws = repoWithCommit({ 'a.txt': 'one\n' });
      git(ws, ['config', 'remote.origin.url', 'https://user:token@example.invalid/r.git']);
      moveGitDir(ws, as);
      const home = tempDir('agentgate-cp-inner-home-');
      const t = okIn<{ hash: string }>(ws, home, ['checkpoint', 'track']);
      const paths = await trackedPaths(ws, home, t.hash);
      expect(paths).toContain('a.txt');
      expect(inner(paths)).toEqual([]);
      writeFiles(ws, { 'a.txt': 'two\n' });
      const second = commitAll(ws, 'second');
      const was = fingerprint(join(ws, '.realgit'));
      okIn(ws, home, ['checkpoint', 'restore', t.hash]);
      expect(fingerprint(join(ws, '.realgit'))).toEqual(was);
      expect(head(ws)).toBe(second);
      okIn(ws, home, ['checkpoint', 'revert', t.hash]);
      expect(fingerprint(join(ws, '.realgit'))).toEqual(was);
      const named = cliIn(ws, home, ['checkpoint', 'revert', t.hash, '.realgit/config']);
      expect([named.status, (named.json() as { error: { code: string } }).error.code]).toEqual([
        1,
        'PATH_OUTSIDE_WORKSPACE',
      ]);
      expect(fingerprint(join(ws, '.realgit'))).toEqual(was);
    },
  );

  it('restoring a checkpoint taken before the move deletes nothing in it', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-inner-home-');
    const t = okIn<{ hash: string }>(ws, home, ['checkpoint', 'track']);
    moveGitDir(ws, 'file');
    writeFiles(ws, { 'a.txt': 'two\n' });
    commitAll(ws, 'second');
    const was = fingerprint(join(ws, '.realgit'));
    okIn(ws, home, ['checkpoint', 'restore', t.hash]);
    expect(fingerprint(join(ws, '.realgit'))).toEqual(was);
    okIn(ws, home, ['checkpoint', 'track']);
    okIn(ws, home, ['checkpoint', 'revert', t.hash]);
    expect(fingerprint(join(ws, '.realgit'))).toEqual(was);
  });

  it('an index that still holds it (a capture while it was a plain directory) lets it go', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-inner-home-');
    // A copy of the git dir, captured as the ordinary directory it is, becomes the git dir.
    git(ws, ['clone', '-q', '--bare', '.', '.realgit']);
    const t = okIn<{ hash: string }>(ws, home, ['checkpoint', 'track']);
    expect(inner(await trackedPaths(ws, home, t.hash)).length).toBeGreaterThan(0);
    const old = join(tempDir('agentgate-cp-inner-old-'), 'git');
    renameSync(join(ws, '.git'), old);
    git(ws, ['--git-dir=.realgit', 'config', 'core.bare', 'false']);
    writeFileSync(join(ws, '.git'), 'gitdir: .realgit\n');
    git(ws, ['reset', '-q']);
    const now = okIn<{ hash: string }>(ws, home, ['checkpoint', 'track']);
    expect(inner(await trackedPaths(ws, home, now.hash))).toEqual([]);
    const was = fingerprint(join(ws, '.realgit'));
    okIn(ws, home, ['checkpoint', 'restore', t.hash]);
    expect(fingerprint(join(ws, '.realgit'))).toEqual(was);
  });

  it('an agent hook keeps it out of its checkpoints', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    moveGitDir(ws, 'file');
    const home = tempDir('agentgate-cp-inner-hook-');
    const event = { session_id: 's1', cwd: ws, hook_event_name: 'UserPromptSubmit', prompt: 'p' };
    const hook = runCli(['hook', 'claude-code'], {
      input: JSON.stringify(event),
      env: { AGENTGATE_HOME: home },
    });
    expect(hook.status).toBe(0);
    const cp = await openCheckpoints(ws, { home });
    const [latest] = await cp.list();
    expect(latest).toBeDefined();
    const paths = storeTreePaths(cp, latest!.hash);
    expect(paths).toContain('a.txt');
    expect(inner(paths)).toEqual([]);
    expect(readdirSync(join(ws, '.realgit'))).toContain('HEAD');
  });
});
