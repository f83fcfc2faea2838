import { InvalidArgumentError } from '../errors.js';
import { isFullId } from './ids.js';
import type { Repo } from './repo.js';
import { exactly } from './hardening.js';
import { runGit } from './runner.js';

/**
 * Writes the files of `tree` into the empty directory `dir` through a private index file
 * (`indexFile`, which must not exist yet): the repository's own index, HEAD, branches and work
 * tree are never touched, and nothing is written into its git dir (no worktree entry to prune).
 * The repository's filters are switched off as on every call, so files come out as stored, and
 * modes and symbolic links as the tree has them whatever its core.fileMode and core.symlinks say.
 */
export async function checkoutTreeInto(
  repo: Repo,
  tree: string,
  dir: string,
  indexFile: string,
): Promise<void> {
  if (!isFullId(tree))
    throw new InvalidArgumentError(`${JSON.stringify(tree)} is not a full tree id`, { details: { tree } });
  const opts = { ...exactly(repo), cwd: dir, workTree: dir, indexFile };
  await runGit(opts, ['read-tree', tree]);
  await runGit(opts, ['checkout-index', '--all', '--force']);
}
