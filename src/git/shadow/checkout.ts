import { randomBytes } from 'node:crypto';
import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit } from '../runner.js';
import { splitNul, type TreeEntry } from './parse.js';
import type { ShadowStore } from './store.js';

/**
 * Writes the given blobs into the work tree with two processes whatever their number: the entries
 * go into a temporary index (`update-index --index-info`), then `checkout-index -a -f` writes
 * exactly those. git never writes through a symbolic link here: a link standing where a file or a
 * leading directory goes is replaced, not followed. The store's own index is left alone.
 */
export async function checkoutEntries(store: ShadowStore, entries: readonly TreeEntry[], tempDir: string): Promise<void> {
  if (entries.length === 0) return;
  await mkdir(tempDir, { recursive: true });
  const tempIndex = join(tempDir, `index-${process.pid}-${randomBytes(6).toString('hex')}`);
  const temp: ShadowStore = { ...store, indexFile: tempIndex };
  try {
    const info = entries.map((e) => `${e.mode} ${e.type} ${e.oid}\t${e.path}\0`).join('');
    await runGit(temp, ['update-index', '-z', '--index-info'], { input: info });
    await runGit(temp, ['checkout-index', '-a', '-f']);
  } finally {
    await rm(tempIndex, { force: true });
    await rm(`${tempIndex}.lock`, { force: true });
  }
}

/** The subset of `paths` that the workspace's ignore rules match, whether or not the store tracks them (one process). */
export async function ignoredPaths(store: ShadowStore, paths: readonly string[]): Promise<Set<string>> {
  if (paths.length === 0) return new Set();
  const res = await runGit(store, ['check-ignore', '-z', '--stdin', '--no-index'], { input: paths.map((p) => `${p}\0`).join(''), okExitCodes: [1] });
  return new Set(splitNul(res.stdout));
}
