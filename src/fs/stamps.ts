import { lstat } from 'node:fs/promises';

/**
 * A file system entry's identity as a string, to tell cheaply (one lstat) whether it may have
 * changed since a cached answer was derived from it: `none` when it is absent; for a directory its
 * inode and owner (its mtime moves with every file made in it, which says nothing about what a
 * cache read from it); for anything else also its size, mtime and ctime in nanoseconds.
 */
export interface Stamp {
  path: string;
  sig: string;
  /** ctime in nanoseconds (0 when absent or a directory): see isRacy. */
  ctimeNs: bigint;
}

export async function stampOf(path: string): Promise<Stamp> {
  try {
    const st = await lstat(path, { bigint: true });
    if (st.isDirectory()) return { path, sig: `dir:${st.ino}:${st.uid}`, ctimeNs: 0n };
    const kind = st.isFile() ? 'file' : 'other';
    return {
      path,
      sig: `${kind}:${st.ino}:${st.uid}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`,
      ctimeNs: st.ctimeNs,
    };
  } catch {
    return { path, sig: 'none', ctimeNs: 0n };
  }
}

export function stampsOf(paths: readonly string[]): Promise<Stamp[]> {
  return Promise.all(paths.map(stampOf));
}

/** A change within this long before a cache is written could share its stamp with the next one (coarse clocks). */
const RACY_NS = 2_000_000_000n;

/**
 * True if an entry changed so recently that a further change could leave the same stamp (the
 * file system's clock ticks coarser than nanoseconds): a cache must not be written from it yet.
 */
export function isRacy(stamps: readonly Stamp[], nowMs: number = Date.now()): boolean {
  const now = BigInt(Math.floor(nowMs)) * 1_000_000n;
  return stamps.some((s) => s.ctimeNs !== 0n && s.ctimeNs > now - RACY_NS);
}

/** True if every recorded stamp still holds. */
export function stampsHold(
  recorded: readonly { path: string; sig: string }[],
  now: readonly Stamp[],
): boolean {
  return (
    recorded.length === now.length &&
    recorded.every((r, i) => r.path === now[i]?.path && r.sig === now[i]?.sig)
  );
}
