import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { lstat, open, readlink } from 'node:fs/promises';
import { fsPath } from '../fs/path-bytes.js';
import type { TreeEntry } from '../git/checkpoint-trees.js';
import { objectId } from '../git/record-objects.js';

/**
 * Whether a path is still what the safety capture read there, asked right before a restore or
 * revert replaces or removes it: what changed since (a parallel session's or a person's write)
 * is in no checkpoint, and is left alone. Content is hashed as git hashes a blob, so no stamp of
 * a coarse clock can vouch for a write made within the same tick.
 */

/** How much of a file is hashed per read. */
const CHUNK = 1 << 16;

/**
 * True if `abs` holds `entry` (same kind, executable bit and content), or nothing when `entry` is
 * undefined (the capture had nothing there).
 */
export async function stillCaptured(abs: string, entry: TreeEntry | undefined): Promise<boolean> {
  const path = fsPath(abs);
  const st = await lstat(path).catch(() => null);
  if (entry === undefined || st === null) return entry === undefined && st === null;
  const format = entry.oid.length === 64 ? 'sha256' : 'sha1';
  if (st.isSymbolicLink())
    return entry.mode === '120000' && objectId(format, 'blob', await readlink(path, 'buffer')) === entry.oid;
  const executable = (st.mode & 0o100) !== 0;
  if (!st.isFile() || entry.mode !== (executable ? '100755' : '100644')) return false;
  return (await fileBlobId(path, format, st.ino)) === entry.oid;
}

/**
 * The blob id of the regular file at `path` (inode `ino`, as lstat saw it), or null when something
 * else stands there now. Opened without following a link and without blocking on a FIFO.
 */
async function fileBlobId(
  path: string | Buffer,
  format: 'sha1' | 'sha256',
  ino: number,
): Promise<string | null> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK).catch(
    () => null,
  );
  if (handle === null) return null;
  try {
    const st = await handle.stat();
    if (!st.isFile() || st.ino !== ino) return null;
    const hash = createHash(format).update(`blob ${st.size}\0`);
    const buf = Buffer.alloc(Math.min(CHUNK, Math.max(st.size, 1)));
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buf, 0, buf.length, null);
      if (bytesRead === 0) break;
      total += bytesRead;
      if (total > st.size) return null; // growing while read: not the captured file
      hash.update(buf.subarray(0, bytesRead));
    }
    return total === st.size ? hash.digest('hex') : null;
  } finally {
    await handle.close();
  }
}
