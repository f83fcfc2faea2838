import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { lstat, open, stat } from 'node:fs/promises';

/** A regular file's bytes, or the kind of special file that stands there (never read). */
export type RegularRead = { bytes: Buffer } | { special: 'FIFO' | 'socket' | 'device'; stats: Stats };

/**
 * The bytes of the regular file at `path`, read without ever blocking: stat first, then a
 * non-blocking open checked again on the descriptor (a FIFO swapped in between). null where
 * nothing is read (missing, a directory, not openable; with `follow` false, a symbolic link); a
 * FIFO, socket or device is named, not read: reading one waits for a writer, or never ends.
 */
export async function readRegularFile(path: string | Buffer, follow = true): Promise<RegularRead | null> {
  const info = await (follow ? stat(path) : lstat(path)).catch(() => null);
  if (info === null || info.isDirectory() || info.isSymbolicLink()) return null;
  if (!info.isFile()) return special(info);
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY).catch(
    () => null,
  );
  if (handle === null) return null;
  try {
    const opened = await handle.stat();
    return opened.isFile() ? { bytes: await handle.readFile() } : special(opened);
  } finally {
    await handle.close();
  }
}

/**
 * The text of the regular file at `path`, or null where there is none to read: missing, a
 * directory, a FIFO, socket or device (never read: see readRegularFile), or a failed read.
 */
export async function readRegularText(path: string): Promise<string | null> {
  const read = await readRegularFile(path).catch(() => null);
  return read !== null && 'bytes' in read ? read.bytes.toString('utf8') : null;
}

function special(stats: Stats): RegularRead {
  return { special: stats.isFIFO() ? 'FIFO' : stats.isSocket() ? 'socket' : 'device', stats };
}

/**
 * The text of the regular file at `path` when it holds at most `max` bytes, else null (missing, not
 * a regular file, larger, unreadable). Synchronous, and never blocking: the open does not wait for a
 * FIFO's writer and the descriptor is checked before a byte is read, so a FIFO (or a device)
 * planted under the name cannot stall the event loop and every timer with it.
 */
export function readSmallFileSync(path: string, max: number): string | null {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return null;
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > max) return null;
    const bytes = Buffer.alloc(st.size);
    let got = 0;
    while (got < bytes.length) {
      const n = readSync(fd, bytes, got, bytes.length - got, got);
      if (n === 0) break;
      got += n;
    }
    return bytes.subarray(0, got).toString('utf8');
  } catch {
    return null;
  } finally {
    closeSync(fd);
  }
}

/**
 * The last `count` bytes of the regular file at `path` (all of it when shorter), read without
 * blocking as readSmallFileSync reads; `missing` when nothing is there, null when what is there is
 * no regular file or cannot be read.
 */
export async function readFileTail(path: string, count: number): Promise<Buffer | 'missing' | null> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY).catch(
    (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? ('missing' as const) : null),
  );
  if (handle === null || handle === 'missing') return handle;
  try {
    const st = await handle.stat();
    if (!st.isFile()) return null;
    const length = Math.min(count, st.size);
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, st.size - length);
    return buffer.subarray(0, bytesRead);
  } catch {
    return null;
  } finally {
    await handle.close();
  }
}
