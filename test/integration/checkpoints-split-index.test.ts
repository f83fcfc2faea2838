/**
 * The checkpoint store's index is split (src/git/checkpoint-repo.ts, INDEX_CONFIG): the entries
 * sit in one shared index in the git dir, a track rewrites only the small index file, and the
 * store's size counts both.
 */
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { git, tempDir, writeFiles } from '../helpers/repo.js';

const sharedIndexes = (gitDir: string) => readdirSync(gitDir).filter((n) => n.startsWith('sharedindex.'));

/**
 * Writes `files` an hour in the past. A file written in the same instant as the index is "racily
 * clean" to git, which then keeps its entry in the small index file too, split or not.
 */
function writeOld(ws: string, files: Record<string, string>): void {
  writeFiles(ws, files);
  const old = new Date(Date.now() - 3600 * 1000);
  for (const path of Object.keys(files)) utimesSync(join(ws, path), old, old);
}

describe('the checkpoint index, split', () => {
  it('keeps its entries in one shared index that a small change does not rewrite, counted in the store size', async () => {
    const ws = tempDir('agentgate-cp-split-');
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i += 1) files[`dir${i % 20}/file-${i}.txt`] = `content ${i}\n`;
    writeOld(ws, files);
    const cp = await openCheckpoints(ws);
    await cp.track('first');
    const { gitDir, indexFile } = cp.location;
    const [shared] = sharedIndexes(gitDir);
    expect(shared).toMatch(/^sharedindex\.[0-9a-f]{40,64}$/);
    const sharedBytes = statSync(join(gitDir, shared as string)).size;
    expect(statSync(indexFile).size).toBeLessThan(sharedBytes);

    writeOld(ws, { 'dir3/file-3.txt': 'changed\n', 'new.txt': 'new\n' });
    const second = await cp.track('second');
    expect(sharedIndexes(gitDir)).toEqual([shared]);
    expect(statSync(indexFile).size).toBeLessThan(sharedBytes / 4);
    // The tree is the whole workspace: every entry of the shared index, and the two changes.
    const listed = git(ws, [`--git-dir=${gitDir}`, 'ls-tree', '-r', '--name-only', second.hash])
      .trim()
      .split('\n');
    expect(listed).toHaveLength(401);
    expect(git(ws, [`--git-dir=${gitDir}`, 'show', `${second.hash}:dir3/file-3.txt`])).toBe('changed');

    const status = await cp.status();
    expect(status.storeBytes).toBeGreaterThan(sharedBytes + statSync(indexFile).size);
  });

  it("a half-written shared index (a killed git's sharedindex_*) is swept like git's other temporaries", async () => {
    const ws = tempDir('agentgate-cp-split-');
    writeFiles(ws, { 'a.txt': 'a\n' });
    const cp = await openCheckpoints(ws);
    await cp.track('first');
    const planted = join(cp.location.gitDir, 'sharedindex_AbC123');
    writeFileSync(planted, 'half-written');
    await cp.cleanup({ keep: 5 });
    expect(readdirSync(cp.location.gitDir).filter((n) => n.startsWith('sharedindex'))).toEqual(
      sharedIndexes(cp.location.gitDir),
    );
  });
});
