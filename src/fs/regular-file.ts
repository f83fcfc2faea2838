import { constants, type Stats } from 'node:fs';
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
