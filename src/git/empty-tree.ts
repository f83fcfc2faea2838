import { runGit, type GitOptions } from './runner.js';

/** One lookup per repository and process; the id depends only on the repository's hash function. */
const cache = new Map<string, Promise<string>>();

/**
 * The id of the empty tree in this repository's object format (sha1 or sha256), which is what a
 * root commit is diffed against. Computed by hashing empty tree content, not hard-coded, so that
 * it is right for either hash function; nothing is written to the object store (git knows the
 * empty tree without storing it).
 */
export async function emptyTreeId(repo: GitOptions): Promise<string> {
  const key = `${repo.gitDir ?? ''}\0${repo.cwd}`;
  let id = cache.get(key);
  if (id === undefined) {
    id = runGit(repo, ['hash-object', '-t', 'tree', '--stdin'], { input: '' }).then((r) => r.stdout.trim());
    cache.set(key, id);
    // A failure (e.g. a timeout) must not be remembered.
    id.catch(() => cache.delete(key));
  }
  return id;
}
