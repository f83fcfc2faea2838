import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CandidateListing } from '../git/shadow/parse.js';

/** A path a capture leaves out, workspace-relative. */
export interface Skip {
  path: string;
  reason: 'too-large' | 'nested-repository';
  size: number | null;
  /** True if the store's index still holds an older version that must leave the capture. */
  indexed: boolean;
}

/** How many lstat calls run at once: enough to keep the thread pool busy, few enough to bound memory. */
const STAT_BATCH = 64;

/**
 * Decides what the capture skips: nested repositories (git reports them, it does not enter them),
 * and regular files above `maxBytes` among the new and changed files git listed. Only those
 * candidates are stat'ed, never the whole tree. A file that vanished since the listing is ignored.
 */
export async function findSkipped(root: string, listing: CandidateListing, maxBytes: number): Promise<Skip[]> {
  const skipped: Skip[] = listing.nestedRepos.map((path) => ({ path, reason: 'nested-repository', size: null, indexed: false }));
  const candidates = [...listing.untracked.map((path) => ({ path, indexed: false })), ...listing.modified.map((path) => ({ path, indexed: true }))];
  for (let i = 0; i < candidates.length; i += STAT_BATCH) {
    const batch = candidates.slice(i, i + STAT_BATCH);
    const sizes = await Promise.all(batch.map((c) => fileSize(join(root, c.path))));
    batch.forEach((c, k) => {
      const size = sizes[k];
      if (size !== undefined && size !== null && size > maxBytes) skipped.push({ path: c.path, reason: 'too-large', size, indexed: c.indexed });
    });
  }
  return skipped.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Size of a regular file; null for anything else (symlinks are captured as their target text) or a vanished path. */
async function fileSize(path: string): Promise<number | null> {
  try {
    const st = await lstat(path);
    return st.isFile() ? st.size : null;
  } catch {
    return null;
  }
}
