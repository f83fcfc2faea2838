import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { fsPath } from './path-bytes.js';

/**
 * Whether every leading directory of `path` (`/`-separated, below `root`) that exists is a real
 * directory: no symbolic link or file in the way (a directory an agent replaced). `real` keeps each
 * directory's answer for the next path.
 */
export async function leadingDirsAreReal(
  root: string,
  path: string,
  real: Map<string, boolean> = new Map(),
): Promise<boolean> {
  for (let at = path.indexOf('/'); at > 0; at = path.indexOf('/', at + 1)) {
    const dir = path.slice(0, at);
    let ok = real.get(dir);
    if (ok === undefined) {
      const st = await lstat(fsPath(join(root, dir))).catch(() => null);
      // A missing directory: nothing deeper exists either, and nothing is in the way.
      ok = st === null || st.isDirectory();
      real.set(dir, ok);
    }
    if (!ok) return false;
  }
  return true;
}
