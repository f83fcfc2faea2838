/**
 * verify's patch check: an intact artifact equal to git's patch is confirmed by hashing git's
 * patch as it streams (no apply); an artifact with other bytes (recorded sha256 updated to match)
 * is still accepted when it applies to before to give exactly the after tree, and refused when not.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../types/snapshot.js';
import { getTree } from '../../src/git/refs.js';
import { treeDiffSha256 } from '../../src/git/unified-diff.js';
import { repoWithCommit, writeFiles } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

async function captured() {
  const dir = repoWithCommit({
    'f.txt': 'one\ntwo\n',
    'bin.dat': Buffer.from([0, 1, 2, 3]).toString('latin1'),
  });
  const s = newSnapshotter();
  const before = await s.captureBeforeState(dir, { runId: 'v' });
  writeFiles(dir, { 'f.txt': 'one\nTWO\nthree\n', 'new.bin': Buffer.from([0, 255, 7, 0, 9]) });
  const snap = await s.captureAfterState(dir, before, { runId: 'v', iteration: 1 });
  /** Replaces the artifact and records its sha256, as if both had been written that way. */
  const replaceArtifact = (bytes: Buffer): void => {
    writeFileSync(snap.patchPath as string, bytes);
    const file = join(s.options.home, 'snapshots', `${snap.id}.json`);
    const stored = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
    writeFileSync(
      file,
      JSON.stringify({ ...stored, patchSha256: createHash('sha256').update(bytes).digest('hex') }, null, 2),
    );
  };
  const patchCheck = async () =>
    (await s.verify({ id: snap.id })).checks.find((c) => c.check === 'patch-applies');
  return { dir, s, snap, replaceArtifact, patchCheck };
}

describe('verify: the patch check', () => {
  it("hashes git's patch as it streams: equal to the artifact's recorded sha256", async () => {
    const { dir, snap, patchCheck } = await captured();
    const git = { cwd: dir };
    const trees = { from: await getTree(git, snap.beforeSha), to: await getTree(git, snap.afterSha) };
    expect(await treeDiffSha256(git, trees)).toBe(snap.patchSha256);
    expect(await patchCheck()).toMatchObject({ ok: true, detail: expect.stringMatching(/byte for byte/) });
  });

  it('falls back to applying an artifact with other bytes, and fails one that does not give the after tree', async () => {
    const { snap, replaceArtifact, patchCheck } = await captured();
    const original = readFileSync(snap.patchPath as string);
    // A trailing signature: other bytes, same change (git apply ignores it).
    replaceArtifact(Buffer.concat([original, Buffer.from('-- \n2.39.5\n\n')]));
    expect(await patchCheck()).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/applying the patch/),
    });
    // A different change: applies, but not to the after tree.
    replaceArtifact(Buffer.from(original.toString('latin1').replace('+TWO', '+Two'), 'latin1'));
    expect((await patchCheck())?.ok).toBe(false);
  });
});
