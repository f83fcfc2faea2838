/**
 * A checkpoint keeps what its capture skipped (too large, a nested repository, unreadable), so that
 * a restore or revert to it leaves such a path alone rather than deleting it: the checkpoint had
 * something there that it did not hold.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpoints, sessionHooks } from '../helpers/checkpoints.js';
import { cliIn, okIn } from '../helpers/cli.js';
import { commitAll, initRepo, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const LIMIT = 1024;
const big = (): Buffer => Buffer.alloc(LIMIT * 4, 7);
const read = (ws: string, path: string): string => readFileSync(join(ws, path), 'utf8');

describe('paths a checkpoint skipped', () => {
  it('a file too large at the checkpoint and small now: revert and restore leave it alone and list it', async () => {
    const ws = repoWithCommit({ 't.txt': 'x\n' });
    const cp = await openCheckpoints(ws, { maxFileSizeBytes: LIMIT });
    writeFileSync(join(ws, 'big.bin'), big());
    const a = await cp.track('A');
    expect(a.skipped).toMatchObject([{ path: join(ws, 'big.bin'), reason: 'too-large' }]);
    writeFileSync(join(ws, 'big.bin'), 'my small edit\n');
    writeFiles(ws, { 'new.txt': 'agent\n' });

    const reverted = await cp.revert(a.ref, [join(ws, 'big.bin')]);
    expect(reverted).toMatchObject({ reverted: [], deleted: [], leftAlone: [join(ws, 'big.bin')] });
    const restored = await cp.restore(a.hash);
    expect(restored.leftAlone).toEqual([join(ws, 'big.bin')]);
    expect(read(ws, 'big.bin')).toBe('my small edit\n');
    expect(existsSync(join(ws, 'new.txt'))).toBe(false); // what the checkpoint did not skip goes

    // Another checkpoint of the same tree that had no such file: restoring it by its ref deletes it.
    rmSync(join(ws, 'big.bin'));
    const b = await cp.track('B');
    expect(b.hash).toBe(a.hash);
    writeFileSync(join(ws, 'big.bin'), 'small again\n');
    expect((await cp.restore(b.ref)).leftAlone).toEqual([]);
    expect(existsSync(join(ws, 'big.bin'))).toBe(false);
  });

  it('a nested repository at the checkpoint whose .git is gone now: its files are left alone and listed', async () => {
    const ws = repoWithCommit({ 't.txt': 'x\n' });
    const sub = join(ws, 'sub');
    mkdirSync(sub);
    initRepo(sub);
    writeFiles(sub, { f: 'f\n' });
    commitAll(sub, 'f');
    const cp = await openCheckpoints(ws);
    const a = await cp.track('A');
    expect(a.skipped).toMatchObject([{ path: sub, reason: 'nested-repository' }]);
    rmSync(join(sub, '.git'), { recursive: true });
    writeFiles(sub, { g: 'more\n' });

    const r = await cp.restore(a.hash);
    expect(r.leftAlone).toEqual([join(sub, 'f'), join(sub, 'g')]);
    expect([read(sub, 'f'), read(sub, 'g')]).toEqual(['f\n', 'more\n']);
  });

  it('restore --prompt: a file too large before the prompt and shrunk by the session is left alone', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n' });
    const cp = await openCheckpoints(ws, { maxFileSizeBytes: LIMIT });
    const s = sessionHooks(cp, 'sess');
    await s.start();
    writeFileSync(join(ws, 'big.bin'), big());
    await s.prompt();
    writeFiles(ws, { 'a.txt': 'a1\n', 'big.bin': 'shrunk\n' });
    await s.tool();

    const r = await cp.restorePrompt(1, 'sess');
    expect(r.restored).toEqual([join(ws, 'a.txt')]);
    expect(r.deleted).toEqual([]);
    expect(r.leftAlone).toEqual([join(ws, 'big.bin')]);
    expect(read(ws, 'big.bin')).toBe('shrunk\n');
  });

  it('a hook after a read-only tool records a checkpoint when only what is skipped changed', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a0\n' });
    const cp = await openCheckpoints(ws, { maxFileSizeBytes: LIMIT });
    const s = sessionHooks(cp, 'sess');
    await s.start();
    expect((await s.tool()).unchanged).toBe(true);
    writeFileSync(join(ws, 'big.bin'), big());
    expect((await s.tool()).unchanged).toBeUndefined();
    expect((await s.tool()).unchanged).toBe(true);
  });

  it('the CLI: a label names its own checkpoint, whose skipped file a revert leaves alone', () => {
    const ws = repoWithCommit({ 't.txt': 'x\n' });
    const home = tempDir('agentgate-cp-home-');
    writeFileSync(join(ws, 'big.bin'), Buffer.alloc(11_000_000, 1)); // over the default 10 MiB
    okIn(ws, home, ['checkpoint', 'track', '--label', 'A']);
    rmSync(join(ws, 'big.bin'));
    okIn(ws, home, ['checkpoint', 'track', '--label', 'B']); // the same tree, nothing skipped
    writeFileSync(join(ws, 'big.bin'), 'my small edit\n');

    const r = okIn<{ deleted: string[]; leftAlone: string[] }>(ws, home, [
      'checkpoint',
      'revert',
      'A',
      'big.bin',
    ]);
    expect(r).toMatchObject({ deleted: [], leftAlone: [join(ws, 'big.bin')] });
    expect(read(ws, 'big.bin')).toBe('my small edit\n');
    const b = okIn<{ deleted: string[] }>(ws, home, ['checkpoint', 'revert', 'B', 'big.bin']);
    expect(b.deleted).toEqual([join(ws, 'big.bin')]);
  });

  it('revert of an ignored file or one in a nested repository, on disk: left alone and listed, not PATH_NOT_FOUND', () => {
    const ws = repoWithCommit({ '.gitignore': '*.log\n', 'x.log': 'keep\n', 'a.txt': 'a\n' });
    const sub = join(ws, 'nested');
    mkdirSync(sub);
    initRepo(sub);
    writeFiles(sub, { 'n.txt': 'n\n' });
    const home = tempDir('agentgate-cp-home-');
    okIn(ws, home, ['checkpoint', 'track', '--label', 'T']);
    writeFiles(ws, { 'x.log': 'changed\n', 'nested/n.txt': 'changed\n' });

    for (const path of ['x.log', 'nested/n.txt', 'nested']) {
      const r = okIn<{ reverted: string[]; deleted: string[]; leftAlone: string[] }>(ws, home, [
        'checkpoint',
        'revert',
        'T',
        path,
      ]);
      expect(r).toMatchObject({ reverted: [], deleted: [], leftAlone: [join(ws, path)] });
    }
    expect([read(ws, 'x.log'), read(sub, 'n.txt')]).toEqual(['changed\n', 'changed\n']);
    expect(cliIn(ws, home, ['checkpoint', 'revert', 'T', 'nested/none.txt']).json()).toMatchObject({
      error: { code: 'PATH_NOT_FOUND' },
    });
  });

  it('diff and diff-full do not call a file deleted, or added, when a capture only skipped it', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n', 'grow.bin': 'small\n' });
    const sub = join(ws, 'sub');
    writeFiles(ws, { 'sub/f.txt': 'f\n' });
    const cp = await openCheckpoints(ws, { maxFileSizeBytes: LIMIT });
    writeFileSync(join(ws, 'shrink.bin'), big());
    const a = await cp.track('A');
    writeFileSync(join(ws, 'grow.bin'), big()); // too large now: still there
    writeFileSync(join(ws, 'shrink.bin'), 'small now\n'); // skipped at A: it was there
    initRepo(sub); // a nested repository now: its files are still there
    writeFiles(ws, { 'a.txt': 'a2\n' });

    expect((await cp.diffFull(a.hash)).map((d) => `${d.status} ${d.file}`)).toEqual(['modified a.txt']);
    const diff = await cp.diff(a.hash);
    expect(diff).toContain('a/a.txt');
    expect(diff).not.toMatch(/grow\.bin|shrink\.bin|sub\/f\.txt/);
    const b = await cp.track('B');
    expect((await cp.diffFull(a.hash, b.ref)).map((d) => `${d.status} ${d.file}`)).toEqual([
      'modified a.txt',
    ]);
  });
});
