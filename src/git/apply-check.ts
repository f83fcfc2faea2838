import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { runGit, type GitOptions } from './runner.js';
import { makeTempDir } from '../fs/temp-dir.js';

/**
 * Applies `patchFile` to the tree of `base` in a throwaway index and returns the resulting tree id.
 * The work tree, the real index and every ref stay untouched. A patch is correct when this equals
 * the after commit's tree.
 */
export async function treeAfterApplying(repo: GitOptions, base: string, patchFile: string): Promise<string> {
  const dir = await makeTempDir('agentgate-apply-');
  const scratch: GitOptions = { ...repo, indexFile: join(dir, 'index') };
  try {
    await runGit(scratch, ['read-tree', `${base}^{tree}`]);
    await runGit(scratch, ['apply', '--cached', '--binary', '--whitespace=nowarn', patchFile]);
    return (await runGit(scratch, ['write-tree'])).stdout.trim();
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
