import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkRemoteUrl } from './remote.js';

/**
 * A ref lock this old, in a repository on this machine, is one a killed push left behind:
 * receive-pack holds a ref's lock only for the moment it updates the ref.
 */
export const STALE_REMOTE_LOCK_MS = 2_000;

/**
 * A push killed together with its receive-pack (a cancelled CI job) leaves `<ref>.lock` in the
 * remote, and git then refuses every later update of that ref ("failed to update ref") for good.
 * For a remote on this machine (a path or file://), removes the locks of `refs` under
 * refs/agentgate/ once they are STALE_REMOTE_LOCK_MS old, waiting for that once. Returns whether
 * any was removed. A remote elsewhere is its server's business: nothing is done.
 */
export async function clearStaleRemoteRefLocks(url: string, refs: readonly string[]): Promise<boolean> {
  const kind = checkRemoteUrl(url);
  if (kind !== 'local' && kind !== 'file') return false;
  const gitDir = await localGitDir(kind === 'file' ? fileURLToPath(url) : url);
  if (gitDir === null) return false;
  const locks = refs.filter((r) => /^refs\/agentgate\/[^\s]+$/.test(r) && !r.split('/').includes('..'));
  let removed = false;
  for (const ref of locks) {
    const lock = join(gitDir, `${ref}.lock`);
    const first = await stat(lock).catch(() => null);
    if (first === null || !first.isFile()) continue;
    // At most STALE_REMOTE_LOCK_MS, whatever the file's time says (a clock ahead, a date in the future).
    const young = Math.min(STALE_REMOTE_LOCK_MS, STALE_REMOTE_LOCK_MS - (Date.now() - first.mtimeMs));
    if (young > 0) await new Promise((resolve) => setTimeout(resolve, young));
    // Taken again meanwhile (a live push): left alone.
    const again = await stat(lock).catch(() => null);
    if (again === null || !again.isFile() || again.mtimeMs !== first.mtimeMs) continue;
    await rm(lock, { force: true });
    removed = true;
  }
  return removed;
}

/** The git dir of a repository on this machine: the path itself when bare, else its `.git` directory. */
async function localGitDir(path: string): Promise<string | null> {
  const isDir = async (p: string) => (await stat(p).catch(() => null))?.isDirectory() === true;
  if ((await isDir(join(path, 'refs'))) && (await isDir(join(path, 'objects')))) return path;
  return (await isDir(join(path, '.git', 'refs'))) ? join(path, '.git') : null;
}
