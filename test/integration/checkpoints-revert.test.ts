import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RevertResult } from '../../types/checkpoint.js';
import { gitCallCount } from '../../src/git/runner.js';
import { openCheckpoints, treeState } from '../helpers/checkpoints.js';
import { expectCode } from '../helpers/codes.js';
import { tempDir, writeFiles } from '../helpers/repo.js';

const read = (ws: string, rel: string): string => readFileSync(join(ws, rel), 'utf8');

describe('checkpoint revert', () => {
  it('reverts patches: first patch wins per file, files absent from the checkpoint are deleted; unrevert undoes it', async () => {
    const ws = tempDir('agentgate-cp-revert-');
    writeFiles(ws, { 'a.txt': 'v1', 'b.txt': 'v1', 'untouched.txt': 'same' });
    const cp = await openCheckpoints(ws);
    const t1 = await cp.track('step 1');
    writeFiles(ws, { 'a.txt': 'v2', 'b.txt': 'v2', 'c/new.txt': 'created in step 1' });
    const p1 = await cp.patch(t1.hash);
    const t2 = await cp.track('step 2');
    writeFiles(ws, { 'a.txt': 'v3', 'd.txt': 'created in step 2' });
    const p2 = await cp.patch(t2.hash);
    const before = treeState(ws);

    // Undo step 2 then step 1, newest first: a.txt comes from t2 (the first patch naming it).
    const r = await cp.revert([p2, p1]);
    expect(RevertResult.parse(r)).toEqual(r);
    expect(read(ws, 'a.txt')).toBe('v2');
    expect(read(ws, 'b.txt')).toBe('v1');
    expect(existsSync(join(ws, 'c'))).toBe(false);
    expect(existsSync(join(ws, 'd.txt'))).toBe(false);
    expect(r.reverted).toEqual([join(ws, 'a.txt'), join(ws, 'b.txt')]);
    expect([...r.deleted].sort()).toEqual([join(ws, 'c/new.txt'), join(ws, 'd.txt')]);

    await cp.unrevert(r.safety);
    expect(treeState(ws)).toEqual(before);
  });

  it('reverts chosen files or directories from a checkpoint and leaves other changes', async () => {
    const ws = tempDir('agentgate-cp-revert-paths-');
    writeFiles(ws, { 'src/x.ts': 'x1', 'src/sub/y.ts': 'y1', 'docs/r.md': 'r1' });
    const cp = await openCheckpoints(ws);
    const t = await cp.track();
    writeFiles(ws, { 'src/x.ts': 'x2', 'src/sub/y.ts': 'y2', 'src/sub/z.ts': 'new', 'docs/r.md': 'r2' });

    const r = await cp.revert(t.hash, ['src/sub']);
    expect(r.reverted).toEqual([join(ws, 'src/sub/y.ts')]);
    expect(r.deleted).toEqual([join(ws, 'src/sub/z.ts')]);
    expect([read(ws, 'src/x.ts'), read(ws, 'src/sub/y.ts'), read(ws, 'docs/r.md')]).toEqual([
      'x2',
      'y1',
      'r2',
    ]);

    const all = await cp.revert(t.hash);
    expect([...all.reverted].sort()).toEqual([join(ws, 'docs/r.md'), join(ws, 'src/x.ts')]);
    expect([read(ws, 'src/x.ts'), read(ws, 'docs/r.md')]).toEqual(['x1', 'r1']);
  });

  it('reverts 300 files with as many git processes as it takes for 3', async () => {
    const ws = tempDir('agentgate-cp-revert-many-');
    const files: Record<string, string> = {};
    for (let i = 0; i < 300; i += 1)
      files[`d${i % 7}/file ${String(i).padStart(3, '0')}.txt`] = `original ${i}\n`;
    writeFiles(ws, files);
    const cp = await openCheckpoints(ws);
    const t = await cp.track();

    const countRevert = async (paths: string[]): Promise<number> => {
      writeFiles(ws, Object.fromEntries(paths.map((p) => [p, 'changed\n'])));
      const start = gitCallCount();
      const r = await cp.revert([{ hash: t.hash, files: paths.map((p) => join(ws, p)) }]);
      expect(r.reverted.length).toBe(paths.length);
      return gitCallCount() - start;
    };
    const few = await countRevert(Object.keys(files).slice(0, 3));
    const many = await countRevert(Object.keys(files));
    expect(many).toBe(few);
    // One of them reads the blobs to write before anything is deleted (a lost object stops it first).
    expect(many).toBeLessThanOrEqual(11);
    for (const [p, content] of Object.entries(files)) expect(read(ws, p)).toBe(content);
  });

  it('refuses paths outside the workspace and unknown checkpoints before anything changes', async () => {
    const outside = tempDir('agentgate-cp-revert-out-');
    const ws = tempDir('agentgate-cp-revert-refuse-');
    writeFiles(ws, { 'a.txt': 'a1' });
    symlinkSync(outside, join(ws, 'escape'));
    const cp = await openCheckpoints(ws);
    const t = await cp.track();
    writeFiles(ws, { 'a.txt': 'a2' });
    const count = (await cp.list()).length;

    for (const bad of [
      '../elsewhere.txt',
      '/etc/passwd',
      'escape/x.txt',
      join(ws, 'escape/x.txt'),
      '.git/config',
    ]) {
      await expect(cp.revert(t.hash, ['a.txt', bad])).rejects.toMatchObject({
        code: 'PATH_OUTSIDE_WORKSPACE',
      });
      await expect(cp.revert([{ hash: t.hash, files: [join(ws, 'a.txt'), bad] }])).rejects.toMatchObject({
        code: 'PATH_OUTSIDE_WORKSPACE',
      });
    }
    await expect(cp.revert('0123456789abcdef', ['a.txt'])).rejects.toMatchObject({
      code: 'CHECKPOINT_NOT_FOUND',
    });
    await expect(
      cp.revert([
        { hash: t.hash, files: [join(ws, 'a.txt')] },
        { hash: 'abcdef0123', files: [] },
      ]),
    ).rejects.toMatchObject({ code: 'CHECKPOINT_NOT_FOUND' });
    expect(read(ws, 'a.txt')).toBe('a2');
    expect((await cp.list()).length).toBe(count);
  });
});

describe('revert by patches from two checkpoints that disagree on a directory', () => {
  it.each([
    ['a symbolic link to a directory outside', (ws: string, out: string) => symlinkSync(out, join(ws, 'd'))],
    ['a file', (ws: string) => writeFiles(ws, { d: 'a file\n' })],
  ])(
    'd is %s in one and d/f a file in the other: d/f is left alone, nothing is written through d',
    async (_what, make) => {
      const ws = tempDir('agentgate-cp-revert-link-');
      const out = tempDir('agentgate-cp-revert-out-');
      make(ws, out);
      const cp = await openCheckpoints(ws);
      const a = await cp.track('A');
      rmSync(join(ws, 'd'), { recursive: true });
      writeFiles(ws, { 'd/f': 'from B\n' });
      const b = await cp.track('B');
      rmSync(join(ws, 'd'), { recursive: true });
      await cp.track('C');

      const r = await cp.revert([
        { hash: a.hash, files: [join(ws, 'd')] },
        { hash: b.hash, files: [join(ws, 'd', 'f')] },
      ]);
      expect([r.reverted, r.leftAlone]).toEqual([[join(ws, 'd')], [join(ws, 'd', 'f')]]);
      expect(readdirSync(out)).toEqual([]);
    },
  );
});

describe('revert of the workspace root, and restore --prompt arguments', () => {
  it('revert(hash, [root]) reverts every changed file, as revert(hash) does', async () => {
    const ws = tempDir('agentgate-cp-revert-root-');
    writeFiles(ws, { 'a.txt': 'v1', 'd/b.txt': 'v1' });
    const cp = await openCheckpoints(ws);
    const t = await cp.track('A');
    for (const root of [ws, join(ws, 'd', '..')]) {
      writeFiles(ws, { 'a.txt': 'v2', 'd/b.txt': 'v2', 'new.txt': 'new' });
      const r = await cp.revert(t.hash, [root]);
      expect([r.reverted.length, r.deleted.length]).toEqual([2, 1]);
      expect([read(ws, 'a.txt'), read(ws, 'd/b.txt'), existsSync(join(ws, 'new.txt'))]).toEqual([
        'v1',
        'v1',
        false,
      ]);
    }
  });

  it('restorePrompt: prompt numbers start at 1 and a session id is never empty (INVALID_ARGUMENT)', async () => {
    const ws = tempDir('agentgate-cp-prompt-args-');
    writeFiles(ws, { 'a.txt': 'v1' });
    const cp = await openCheckpoints(ws);
    await cp.track('UserPromptSubmit', { beforePrompt: true, session: 's', event: 'UserPromptSubmit' });
    await expectCode(cp.restorePrompt(0, 's'), 'INVALID_ARGUMENT');
    await expectCode(cp.restorePrompt(1.5, 's'), 'INVALID_ARGUMENT');
    await expectCode(cp.restorePrompt(1, ''), 'INVALID_ARGUMENT');
    expect((await cp.restorePrompt(1, 's', { dryRun: true })).prompt).toBe(1);
  });
});
