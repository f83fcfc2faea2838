/**
 * A workspace moved or renamed (`mv`, `git worktree move`): its checkpoints went out of sight, since
 * a store is found by the work tree's path, and the next track started an empty store beside the
 * old one. The store now records the identity of the workspace directory (device and inode, which
 * a rename keeps), and the first command run in the moved workspace takes the store along
 * (src/checkpoints/moved-store.ts). A copy, or a new directory at another path, is no move.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { runCli } from '../helpers/cli.js';
import { commitAll, initRepo, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** Every `wt-*` store directory under the home, by project. */
function stores(home: string): string[] {
  const checkpoints = join(home, 'checkpoints');
  return readdirSync(checkpoints).flatMap((project) =>
    readdirSync(join(checkpoints, project)).map((wt) => `${project}/${wt}`),
  );
}

describe('a workspace moved to another path', () => {
  it('keeps its checkpoints: list, restore and the next track find the store, now named by the new path', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-moved-home-');
    const before = await openCheckpoints(ws, { home });
    const a = await before.track('A');
    writeFiles(ws, { 'a.txt': 'two\n' });
    await before.track('B');
    const moved = `${ws}-moved`;
    renameSync(ws, moved);

    const cp = await openCheckpoints(moved, { home });
    expect((await cp.list()).map((e) => e.label)).toEqual(['B', 'A']);
    await cp.restore(a.hash);
    expect(readFileSync(join(moved, 'a.txt'), 'utf8')).toBe('one\n');
    await cp.track('C');
    expect((await cp.list()).map((e) => e.label)).toEqual(['C', expect.any(String), 'B', 'A']);
    // One store, recorded for the new path; nothing left behind at the old one.
    expect(stores(home)).toHaveLength(1);
    expect(JSON.parse(readFileSync(cp.location.metaFile, 'utf8')).workspace).toBe(moved);
  });

  it('outside git too (a directory whose store is named by its path)', async () => {
    const parent = tempDir('agentgate-cp-moved-plain-');
    const ws = join(parent, 'project');
    mkdirSync(ws);
    writeFileSync(join(ws, 'a.txt'), 'one\n');
    const home = tempDir('agentgate-cp-moved-plain-home-');
    const a = await (await openCheckpoints(ws, { home })).track('A');
    const moved = join(parent, 'renamed');
    renameSync(ws, moved);
    writeFileSync(join(moved, 'a.txt'), 'two\n');

    const cp = await openCheckpoints(moved, { home });
    expect((await cp.list()).map((e) => e.hash)).toEqual([a.hash]);
    expect((await cp.patch(a.hash)).files).toEqual([join(moved, 'a.txt')]);
    expect(stores(home)).toHaveLength(1);
  });

  it('two calls at the new path at once both find the checkpoints, in one store', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-moved-race-');
    await (await openCheckpoints(ws, { home })).track('A');
    const moved = `${ws}-raced`;
    renameSync(ws, moved);

    const opened = await Promise.all([openCheckpoints(moved, { home }), openCheckpoints(moved, { home })]);
    const lists = await Promise.all(opened.map(async (cp) => (await cp.list()).map((e) => e.label)));
    expect(lists).toEqual([['A'], ['A']]);
    expect(stores(home)).toHaveLength(1);
  });

  it('a repository whose store was made before its first commit', async () => {
    const ws = initRepo();
    writeFiles(ws, { 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-moved-unborn-');
    const a = await (await openCheckpoints(ws, { home })).track('A');
    commitAll(ws, 'first');
    const moved = `${ws}-committed`;
    renameSync(ws, moved);

    const cp = await openCheckpoints(moved, { home });
    expect((await cp.list()).map((e) => e.hash)).toEqual([a.hash]);
    expect(stores(home)).toHaveLength(1);
  });

  it('through the CLI: checkpoint list -C the new path shows them', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-moved-cli-');
    const env = { AGENTGATE_HOME: home };
    expect(runCli(['checkpoint', 'track', '--label', 'L', '-C', ws], { env }).status).toBe(0);
    const moved = `${ws}-renamed`;
    renameSync(ws, moved);
    const list = runCli(['checkpoint', 'list', '--json', '-C', moved], { env });
    expect(list.status).toBe(0);
    expect((list.json() as Array<{ label: string }>).map((e) => e.label)).toEqual(['L']);
  });
});

describe('no move', () => {
  it('a copy starts a store of its own; the original keeps its checkpoints', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-copied-home-');
    await (await openCheckpoints(ws, { home })).track('A');
    const copy = `${ws}-copy`;
    cpSync(ws, copy, { recursive: true });

    expect(await (await openCheckpoints(copy, { home })).list()).toEqual([]);
    expect((await (await openCheckpoints(ws, { home })).list()).map((e) => e.label)).toEqual(['A']);
  });

  it('a workspace removed and another made at a new path of the same project is no move', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-cp-recloned-home-');
    await (await openCheckpoints(ws, { home })).track('A');
    const clone = `${ws}-clone`;
    cpSync(ws, clone, { recursive: true });
    renameSync(ws, `${ws}-gone`);
    renameSync(`${ws}-gone`, join(tempDir('agentgate-cp-elsewhere-'), 'x'));

    // The original still exists (elsewhere): its inode is not the clone's.
    expect(await (await openCheckpoints(clone, { home })).list()).toEqual([]);
    expect(existsSync(clone)).toBe(true);
  });
});
