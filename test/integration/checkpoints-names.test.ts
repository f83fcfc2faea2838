/**
 * Wherever `Checkpoints` takes a checkpoint (patch, diff, diff-full, restore, revert), it takes a
 * label or a marker (latest, baseline, safety) as the command line does (docs/checkpoints.md): the
 * library resolves the name, and the CLI passes it on.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Checkpoints } from '../../src/checkpoints/index.js';
import { okIn } from '../helpers/cli.js';
import { expectCode } from '../helpers/codes.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

describe('Checkpoints: a checkpoint named by label or marker', () => {
  it('patch, diff, diffFull, restore and revert take labels and markers, and agree with the CLI', async () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n' });
    const home = tempDir('agentgate-home-');
    const cp = await Checkpoints.open(dir, { home });
    await expectCode(cp.patch('latest'), 'CHECKPOINT_NOT_FOUND');
    const one = await cp.track('one');
    writeFiles(dir, { 'a.txt': 'two\n' });
    const two = await cp.track('two');
    writeFiles(dir, { 'a.txt': 'three\n' });

    expect((await cp.patch('one')).hash).toBe(one.hash);
    expect((await cp.patch('baseline')).hash).toBe(one.hash);
    expect((await cp.patch('latest')).hash).toBe(two.hash);
    expect(await cp.diff('one')).toBe(await cp.diff(one.hash));
    expect(await cp.diffFull('one', 'latest')).toEqual(await cp.diffFull(one.hash, two.hash));
    expect(okIn(dir, home, ['checkpoint', 'patch', 'two'])).toEqual(await cp.patch('two'));
    await expectCode(cp.patch('no such label'), 'CHECKPOINT_NOT_FOUND');
    await expectCode(cp.restore('safety'), 'CHECKPOINT_NOT_FOUND');

    await cp.restore('one');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('one\n');
    // The safety checkpoint the restore took holds "three".
    await cp.restore('safety');
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('three\n');
    await cp.revert('two', ['a.txt']);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('two\n');
  });
});
