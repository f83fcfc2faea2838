import { createHash } from 'node:crypto';
import type { DiffTrees } from '../git/diff-stats.js';
import { writeTreeDiffToFile } from '../git/unified-diff.js';
import type { GitOptions } from '../git/runner.js';
import { readChunks } from '../fs/read-chunks.js';

export interface PatchArtifact {
  path: string;
  sha256: string;
}

/**
 * Writes the patch between two trees at `path` (git streams it to disk and it is renamed into
 * place atomically, see writeUnifiedDiffToFile) and returns its sha256 for the metadata.
 */
export async function writePatchArtifact(
  repo: GitOptions,
  trees: DiffTrees,
  path: string,
): Promise<PatchArtifact> {
  await writeTreeDiffToFile(repo, trees, path);
  return { path, sha256: await sha256File(path) };
}

/** sha256 of a file, streamed. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of readChunks(path)) hash.update(chunk);
  return hash.digest('hex');
}
