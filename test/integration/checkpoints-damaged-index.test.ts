/**
 * A damaged index in a checkpoint store (src/checkpoints/recovery.ts, indexDamage in
 * src/git/checkpoint-health.ts): empty, cut short, or its shared index gone. It is a cache of the
 * latest checkpoint: track (and so every agent hook) sets it aside, makes it again from that
 * checkpoint and records the right tree; a command that uses it says STORE_CORRUPT with the way
 * out; list and status, which do not, work.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Checkpoints } from '../../src/checkpoints/index.js';
import { indexFromTree } from '../../src/git/checkpoint-index.js';
import { checkpointRepo } from '../../src/git/checkpoint-repo.js';
import { expectCode } from '../helpers/codes.js';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { runCli } from '../helpers/cli.js';
import { git, oracleEnv, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const FILES = { 'a.txt': 'one\n', 'd1/f': '1\n', 'd2/f': '2\n', 'd3/g': '3\n' };

/** A workspace with two checkpoints, and its store. */
async function tracked(): Promise<{ ws: string; cp: Checkpoints; first: string }> {
  const ws = repoWithCommit(FILES);
  const cp = await openCheckpoints(ws);
  const first = (await cp.track('A')).hash;
  writeFiles(ws, { 'b.txt': 'two\n' });
  await cp.track('B');
  return { ws, cp, first };
}

/** The tree a store that never saw the workspace captures now: what the recovered track must record. */
async function freshTree(ws: string): Promise<string> {
  return (await (await openCheckpoints(ws)).track('fresh')).hash;
}

/** The names of the `damaged-*` directories of a store, and whether each holds the index set aside. */
function asideIndexes(cp: Checkpoints): boolean[] {
  return readdirSync(cp.location.dir)
    .filter((name) => name.startsWith('damaged-'))
    .map((name) => existsSync(join(cp.location.dir, name, 'index')));
}

describe('a damaged checkpoint index', () => {
  it('empty: STORE_CORRUPT for the commands that use it, list and status work, track makes it again', async () => {
    const { ws, cp, first } = await tracked();
    writeFileSync(cp.location.indexFile, '');

    await expectCode(cp.restore(first), 'STORE_CORRUPT');
    await expectCode(cp.diff(first), 'STORE_CORRUPT');
    await expectCode(cp.gc(), 'STORE_CORRUPT');
    expect((await cp.list()).map((e) => e.label)).toEqual(['B', 'A']);
    expect((await cp.status()).checkpoints).toBe(2);
    expect(asideIndexes(cp)).toEqual([]);

    writeFiles(ws, { 'c.txt': 'three\n' });
    const c = await cp.track('C');
    expect(c.recovered).toMatch(/index.*damaged-/);
    expect(asideIndexes(cp)).toEqual([true]);
    expect(c.skipped).toEqual([]);
    expect(c.hash).toBe(await freshTree(ws));
    expect((await cp.list()).map((e) => e.label)).toEqual(['C', 'B', 'A']);
    // The index now caches C: the next track sees only what changed since, and says nothing.
    writeFiles(ws, { 'd1/f': 'changed\n' });
    const d = await cp.track('D');
    expect(d.recovered).toBeUndefined();
    expect(d.hash).toBe(await freshTree(ws));
    await cp.restore(first);
    expect(readFileSync(join(ws, 'd1/f'), 'utf8')).toBe('1\n');
    expect(existsSync(join(ws, 'c.txt'))).toBe(false);
  });

  it('a directory or a link in its place: STORE_CORRUPT for patch, then track sets it aside', async () => {
    for (const plant of [
      (index: string) => mkdirSync(index),
      (index: string) => symlinkSync(join(tempDir('agentgate-elsewhere-'), 'index'), index),
    ]) {
      const { ws, cp } = await tracked();
      rmSync(cp.location.indexFile);
      plant(cp.location.indexFile);
      await expect(cp.patch('A')).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
      writeFiles(ws, { 'c.txt': 'three\n' });
      const c = await cp.track('C');
      expect(c.recovered).toMatch(/not a plain file/);
      expect(c.hash).toBe(await freshTree(ws));
    }
  });

  it('cut short to 40 bytes (which git may read as a smaller index): track records the right tree', async () => {
    const { ws, cp } = await tracked();
    truncateSync(cp.location.indexFile, 40);
    writeFiles(ws, { 'c.txt': 'three\n' });
    const c = await cp.track('C');
    expect(c.recovered).toMatch(/checksum/);
    // Never the workspace itself, nor anything else, taken for a nested repository.
    expect(c.skipped).toEqual([]);
    expect(c.hash).toBe(await freshTree(ws));
  });

  it('its shared index gone (split index): STORE_CORRUPT, then track makes it again', async () => {
    const { ws, cp, first } = await tracked();
    const shared = [cp.location.gitDir, cp.location.dir].flatMap((dir) =>
      readdirSync(dir)
        .filter((name) => name.startsWith('sharedindex.'))
        .map((name) => join(dir, name)),
    );
    expect(shared.length).toBeGreaterThan(0);
    for (const file of shared) rmSync(file);

    await expectCode(cp.restore(first), 'STORE_CORRUPT');
    writeFiles(ws, { 'c.txt': 'three\n' });
    const c = await cp.track('C');
    expect(c.recovered).toMatch(/index.*damaged-/);
    expect(c.hash).toBe(await freshTree(ws));
    await cp.restore(first);
    expect(existsSync(join(ws, 'b.txt'))).toBe(false);
  });

  it('an index that is not there is no damage: the next track stages every file', async () => {
    const { ws, cp } = await tracked();
    rmSync(cp.location.indexFile);
    const c = await cp.track('C');
    expect(c.recovered).toBeUndefined();
    expect(c.hash).toBe(await freshTree(ws));
  });

  it('an agent hook recovers and logs STORE_RECOVERED; track --json warns it', () => {
    const ws = repoWithCommit(FILES);
    const home = tempDir('agentgate-cp-damaged-index-');
    const env = { AGENTGATE_HOME: home };
    expect(runCli(['checkpoint', 'track', '-C', ws], { env }).status).toBe(0);
    const checkpoints = join(home, 'checkpoints');
    const [project] = readdirSync(checkpoints);
    const [wt] = readdirSync(join(checkpoints, project ?? ''));
    const index = join(checkpoints, project ?? '', wt ?? '', 'index');
    writeFileSync(index, '');

    const event = JSON.stringify({
      session_id: 's1',
      cwd: ws,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'p',
    });
    const hook = runCli(['hook', 'claude-code'], { input: event, env });
    expect(hook.status).toBe(0);
    expect(hook.stderr).toMatch(/STORE_RECOVERED.*index/);
    expect(readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')).toMatch(
      /recorded: .*STORE_RECOVERED.*index/,
    );

    truncateSync(index, 40);
    const track = runCli(['checkpoint', 'track', '--json', '-C', ws], { env });
    expect(track.status).toBe(0);
    const warnings = (JSON.parse(track.stderr) as { warnings: Array<{ code: string }> }).warnings;
    expect(warnings.map((w) => w.code)).toEqual(['STORE_RECOVERED']);
    expect(runCli(['checkpoint', 'track', '-C', ws], { env }).stderr).toBe('');
  });

  it('is made again as the tree it caches, with the stat data of the files that match it', async () => {
    const ws = repoWithCommit(FILES);
    writeFiles(ws, { 'a.txt': 'edited\n' });
    const indexFile = join(tempDir('agentgate-index-from-tree-'), 'index');
    const repo = checkpointRepo({ workspace: ws, gitDir: join(ws, '.git'), indexFile, excludesFile: null });
    await indexFromTree(repo, 'HEAD');
    const env = oracleEnv({ GIT_INDEX_FILE: indexFile });
    expect(git(ws, ['ls-files'], { env }).split('\n')).toEqual(Object.keys(FILES).sort());
    // A refreshed entry is unchanged to git; the edited file is not, and goes to the capture.
    expect(git(ws, ['diff-files', '--name-only'], { env })).toBe('a.txt');
  });
});
