import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { WriteFailedError } from '../errors.js';

/**
 * Writes `data` to `path` so that readers see either the old file or the whole new one, never a
 * half-written file: temp file in the same directory, fsync, rename, fsync the directory.
 * On failure the previous file is left as it was and the temp file is removed.
 */
export async function writeFileAtomic(path: string, data: string | Buffer): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dir, { recursive: true });
    const handle = await open(temp, 'wx', 0o644);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    await syncDir(dir);
  } catch (cause) {
    await rm(temp, { force: true }).catch(() => undefined);
    throw new WriteFailedError(`could not write ${path} (${errnoOf(cause)}); check free space and permissions, then retry`, {
      cause,
      details: { path },
    });
  }
}

/** Writes a value as pretty JSON, atomically. */
export async function writeJsonAtomic(path: string, value: unknown): Promise<void> {
  await writeFileAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
}

/**
 * Makes a rename durable; some filesystems refuse to open or fsync directories, which is harmless.
 * Never throws: the rename has already happened, so a failure here must not report the write as failed.
 */
async function syncDir(dir: string): Promise<void> {
  let handle;
  try {
    handle = await open(dir, 'r');
    await handle.sync();
  } catch {
    // Directory fsync is unsupported on some platforms; the rename itself is still atomic.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

export function errnoOf(cause: unknown): string {
  const code = (cause as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : cause instanceof Error ? cause.message : String(cause);
}
