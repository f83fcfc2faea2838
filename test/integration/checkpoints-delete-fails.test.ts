/**
 * A file a restore or revert is to delete that the system will not let go (an immutable or
 * append-only file's directory, `chattr +i`, which stops root too; a read-only mount; EACCES for
 * another user): the unlink's error reached the CLI as INTERNAL ("please report it"), where a
 * write that failed the same way is WRITE_FAILED. Both are WRITE_FAILED now, naming the path, and
 * the safety checkpoint taken first undoes what was done. The failure is injected into
 * node:fs/promises (tests run as root, where permissions stop nothing).
 */
import { existsSync, readFileSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { codeOf } from '../helpers/codes.js';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { repoWithCommit, writeFiles } from '../helpers/repo.js';

/** The errno an unlink of a path ending so fails with. */
const refuse = vi.hoisted(() => ({ current: null as null | { suffix: string; code: string } }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  return {
    ...real,
    unlink: async (path: string) => {
      const r = refuse.current;
      if (r !== null && String(path).endsWith(r.suffix))
        throw Object.assign(new Error(`injected ${r.code}: ${String(path)}`), { code: r.code, path });
      return real.unlink(path);
    },
  };
});

afterEach(() => {
  refuse.current = null;
});

describe('a delete the system refuses', () => {
  it.each(['EPERM', 'EACCES', 'EROFS'])(
    '%s: restore and revert fail WRITE_FAILED (not INTERNAL), and the safety checkpoint undoes the rest',
    async (code) => {
      const ws = repoWithCommit({ 'a.txt': 'one\n' });
      const cp = await openCheckpoints(ws);
      const start = await cp.track('start');
      writeFiles(ws, { 'a.txt': 'two\n', 'new.txt': 'made since\n' });

      refuse.current = { suffix: '/new.txt', code };
      const restore = cp.restore(start.hash);
      expect(await codeOf(restore)).toBe('WRITE_FAILED');
      const error = (await restore.catch((e: unknown) => e)) as { details: Record<string, unknown> };
      expect(error.details.path).toBe(join(ws, 'new.txt'));
      // The way back is named: the safety checkpoint the restore took first.
      const safety = error.details.safety as string;
      expect((await cp.markers()).safety?.hash).toBe(safety);
      expect(await codeOf(cp.revert(start.hash, ['new.txt']))).toBe('WRITE_FAILED');
      expect(existsSync(join(ws, 'new.txt'))).toBe(true);

      refuse.current = null;
      await cp.restore(safety);
      expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('two\n');
      await cp.restore(start.hash);
      expect(existsSync(join(ws, 'new.txt'))).toBe(false);
    },
  );
});
