import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DiffTrees } from '../git/diff-stats.js';
import { writeTreeDiffToFile } from '../git/unified-diff.js';
import type { GitOptions } from '../git/runner.js';
import { isAgentgateError, WriteFailedError } from '../errors.js';
import { errnoOf } from '../store/atomic.js';

export interface PatchArtifact {
  path: string;
  sha256: string;
}

/**
 * Writes the patch between two trees at `path` (git streams it to disk and it is renamed into
 * place atomically, see writeUnifiedDiffToFile) and returns its sha256 for the metadata.
 */
export async function writePatchArtifact(repo: GitOptions, trees: DiffTrees, path: string): Promise<PatchArtifact> {
  await writeTreeDiffToFile(repo, trees, path);
  return { path, sha256: await sha256File(path) };
}

/** Copies a file so that `dest` is either untouched or complete. */
export async function copyFileAtomic(src: string, dest: string): Promise<void> {
  await intoPlace(dest, (temp) => copyFile(src, temp));
}

/** Runs `fill` on a temp file beside `path`, then renames it into place; cleans up on failure. */
async function intoPlace<T>(path: string, fill: (temp: string) => Promise<T>): Promise<T> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await mkdir(dirname(path), { recursive: true });
    const result = await fill(temp);
    await rename(temp, path);
    return result;
  } catch (cause) {
    await rm(temp, { force: true }).catch(() => undefined);
    if (isAgentgateError(cause)) throw cause;
    throw new WriteFailedError(`could not write ${path} (${errnoOf(cause)}); check free space and permissions`, { cause, details: { path } });
  }
}

/** sha256 of a file, streamed. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
