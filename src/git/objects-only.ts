import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runGitBuffer, type GitOptions } from './runner.js';

/**
 * Runs `fn` with git options under which a diff of two trees reads no `.gitattributes`: not the
 * work tree's (committed or not) and not the index's. A snapshot's stats and patch are otherwise
 * decided by whatever attributes the work tree holds when they are computed: a later iteration
 * that marks `package-lock.json -diff` made every earlier iteration's lock file binary in
 * `verify` (a failed `stats` check) and in a regenerated patch. git reads in-tree attributes
 * relative to its working directory and falls back to the index (git 2.39 has no
 * `--attr-source`), so git runs in an empty directory of its own, which is also its work tree,
 * with an index file that does not exist; core.attributesFile is pinned to none. Only the
 * repository's `info/attributes` still counts (docs/runs.md).
 */
export async function withObjectsOnly<T>(
  repo: GitOptions,
  fn: (objectsOnly: GitOptions) => Promise<T>,
): Promise<T> {
  const gitDir = repo.gitDir ?? (await absoluteGitDir(repo));
  const empty = await mkdtemp(join(tmpdir(), 'agentgate-noattr-'));
  try {
    return await fn({
      ...repo,
      cwd: empty,
      gitDir,
      workTree: empty,
      indexFile: join(empty, 'index'),
      config: [...(repo.config ?? []), 'core.attributesFile=/dev/null'],
    });
  } finally {
    await rm(empty, { recursive: true, force: true });
  }
}

async function absoluteGitDir(repo: GitOptions): Promise<string> {
  return (await runGitBuffer(repo, ['rev-parse', '--absolute-git-dir'])).stdout.toString('utf8').trim();
}
