import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { GitFailedError } from '../errors.js';
import { runGit, type GitOptions } from './runner.js';

const PACK_NAME = /^pack-(?:[0-9a-f]{40}|[0-9a-f]{64})\.pack$/;

/**
 * Writes the missing `.idx` of every pack in `gitDir` that lacks one, from the pack itself (`git
 * index-pack`, which checks the pack's checksum first). git does not read a pack without its index:
 * every object in it counts as lost, although all are there (the index deleted or lost in a copy,
 * or a packing killed between its renames). A pack git cannot index (cut short) is left as it is.
 * Returns how many were indexed; a regular file each, never a FIFO, which git would wait on. The
 * path is absolute: index-pack takes no `--`, and no name of ours starts with a dash.
 */
export async function indexOrphanPacks(repo: GitOptions, gitDir: string): Promise<number> {
  const dir = join(gitDir, 'objects', 'pack');
  const entries = await readdir(dir, { withFileTypes: true }).catch((): Dirent[] => []);
  const names = new Set(entries.map((e) => e.name));
  const orphans = entries.filter(
    (e) => e.isFile() && PACK_NAME.test(e.name) && !names.has(e.name.replace(/\.pack$/, '.idx')),
  );
  let indexed = 0;
  for (const pack of orphans) {
    const done = await runGit(repo, ['index-pack', join(dir, pack.name)]).then(
      () => true,
      (error: unknown) => {
        if (error instanceof GitFailedError) return false;
        throw error;
      },
    );
    if (done) indexed += 1;
  }
  return indexed;
}
