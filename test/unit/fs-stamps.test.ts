/** src/fs/stamps.ts: what a cached answer (probe.json) is checked against. */
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isRacy, stampOf, stampsHold, stampsOf } from '../../src/fs/stamps.js';
import { tempDir } from '../helpers/repo.js';

describe('stamps', () => {
  it('an absent entry is `none`; a directory keeps its stamp while files come and go in it', async () => {
    const dir = tempDir('agentgate-stamps-');
    expect((await stampOf(join(dir, 'missing'))).sig).toBe('none');
    const before = await stampOf(dir);
    expect(before.sig).toMatch(/^dir:/);
    writeFileSync(join(dir, 'new.txt'), 'x');
    expect((await stampOf(dir)).sig).toBe(before.sig);
  });

  it('a file rewritten with other content, or removed, no longer holds', async () => {
    const dir = tempDir('agentgate-stamps-');
    const file = join(dir, 'config');
    writeFileSync(file, 'a');
    const recorded = await stampsOf([file, join(dir, 'absent')]);
    expect(stampsHold(recorded, await stampsOf([file, join(dir, 'absent')]))).toBe(true);
    writeFileSync(file, 'bb');
    expect(stampsHold(recorded, await stampsOf([file, join(dir, 'absent')]))).toBe(false);
    rmSync(file);
    expect((await stampOf(file)).sig).toBe('none');
    expect(stampsHold(recorded, await stampsOf([file]))).toBe(false);
  });

  it('a file changed in the last two seconds is racy; later it is not', async () => {
    const dir = tempDir('agentgate-stamps-');
    writeFileSync(join(dir, 'f'), 'x');
    const stamps = await stampsOf([join(dir, 'f'), join(dir, 'absent'), dir]);
    expect(isRacy(stamps)).toBe(true);
    expect(isRacy(stamps, Date.now() + 3_000)).toBe(false);
  });
});
