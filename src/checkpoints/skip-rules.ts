import { constants } from 'node:fs';
import { access, lstat } from 'node:fs/promises';
import { fsPath } from '../fs/path-bytes.js';
import type { CandidateListing } from '../git/parsers/ls-files-tagged.js';
import { toAbsolute } from './workspace-paths.js';

/** A path a capture leaves out, workspace-relative. */
export interface Skip {
  path: string;
  reason: 'too-large' | 'nested-repository' | 'unreadable';
  size: number | null;
  /** True if the store's index still holds an older version that must leave the capture. */
  indexed: boolean;
}

/** How many lstat calls run at once: enough to keep the thread pool busy, few enough to bound memory. */
const STAT_BATCH = 64;

/**
 * Decides what the capture skips: nested repositories (git reports them, it does not enter them),
 * entries git cannot read (FIFOs, sockets, devices, unreadable files) and regular files above `maxBytes` among the new and changed files git listed. Only those
 * candidates are stat'ed, never the whole tree. A file that vanished since the listing is ignored.
 * The sizes seen go into `sizes` (what a capture may add to the store: budget-count.ts).
 */
export async function findSkipped(
  root: string,
  listing: CandidateListing,
  maxBytes: number,
  /** Filled with the size of every regular file among the candidates. */
  sizes?: Map<string, number>,
): Promise<Skip[]> {
  const skipped: Skip[] = listing.nestedRepos.map((path) => ({
    path,
    reason: 'nested-repository',
    size: null,
    indexed: false,
  }));
  const candidates = [
    ...listing.untracked.map((path) => ({ path, indexed: false })),
    ...listing.modified.map((path) => ({ path, indexed: true })),
  ];
  for (let i = 0; i < candidates.length; i += STAT_BATCH) {
    const batch = candidates.slice(i, i + STAT_BATCH);
    const shapes = await Promise.all(batch.map((c) => fileShape(toAbsolute(root, c.path))));
    batch.forEach((c, k) => {
      const shape = shapes[k];
      if (shape === undefined || shape === null) return;
      if (typeof shape === 'number') sizes?.set(c.path, shape);
      if (shape === 'unreadable')
        skipped.push({ path: c.path, reason: 'unreadable', size: null, indexed: c.indexed });
      else if (shape > maxBytes)
        skipped.push({ path: c.path, reason: 'too-large', size: shape, indexed: c.indexed });
    });
  }
  return skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * A regular file's size; 'unreadable' for what git cannot stage (a FIFO, a socket, a device, a
 * file we may not read); null for anything else (directories, symlinks, which are captured as their
 * target text) or a vanished path.
 */
async function fileShape(path: string): Promise<number | 'unreadable' | null> {
  try {
    const st = await lstat(fsPath(path));
    if (st.isFIFO() || st.isSocket() || st.isCharacterDevice() || st.isBlockDevice()) return 'unreadable';
    if (!st.isFile()) return null;
    const readable = await access(fsPath(path), constants.R_OK).then(
      () => true,
      () => false,
    );
    return readable ? st.size : 'unreadable';
  } catch {
    return null;
  }
}
