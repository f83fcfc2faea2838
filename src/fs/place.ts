import { mkdir, open, rename, rm, stat, symlink } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import { fsyncDir } from './atomic.js';
import { fsPath } from './path-bytes.js';
import { randomHex } from './random.js';
import { makeDirs } from './make-dirs.js';

/**
 * Writes files into a workspace (a checkpoint restore or revert) under the fsync policy of
 * atomic.ts: each file is written whole to a temp file, fsynced, renamed over its destination
 * (a rename never follows a symbolic link standing there: the link is replaced), and every
 * directory that changed is fsynced before the caller reports success. A caller's `stillWanted`
 * is asked between the temp file's write and its rename, so that what it checks holds up to the rename.
 *
 * The temp file lives in `stagingDir` when that is on the workspace's filesystem, else in the
 * workspace root, and only beside the destination when a mount point inside the workspace forbids
 * the rename (EXDEV). Its path is therefore short whatever the destination's length: a file whose
 * own path is close to PATH_MAX is still written. Temp names match PLACE_TEMP_NAME and carry our
 * pid, so a killed process's leftovers are swept (see sweep.ts).
 */

/** `.agentgate-<pid>-<12 hex>.tmp` */
export const PLACE_TEMP_NAME = /^\.agentgate-(\d+)-[0-9a-f]{12}\.tmp$/;

export interface PlaceItem {
  /** Absolute destination (may hold escaped bytes, see path-bytes.ts). */
  dest: string;
  kind: 'file' | 'executable' | 'symlink';
  /** File bytes, or a symlink's target bytes. */
  content: Buffer;
  /** A file's permission bits, given exactly (the umask does not apply); default: new-file modes less the umask. */
  mode?: number;
  /**
   * Asked once the temp file is written, right before it is renamed over `dest`: false leaves
   * `dest` as it is (what stands there changed since the caller looked), the temp file removed.
   */
  stillWanted?: () => Promise<boolean>;
  /**
   * Asked before the destination's directories are made and again right before the rename: false
   * leaves `dest` as it is (a leading directory became a link or a file since the caller looked,
   * and nothing may be made or written through it).
   */
  dirsReal?: () => Promise<boolean>;
}

function tempName(): string {
  return `.agentgate-${process.pid}-${randomHex(6)}.tmp`;
}

/** The directory for temp files: `preferred` when it shares `root`'s filesystem, else `root` itself. */
export async function chooseStagingDir(root: string, preferred: string): Promise<string> {
  await makeDirs(preferred);
  const [a, b] = await Promise.all([stat(root), stat(preferred)]);
  return a.dev === b.dev ? preferred : root;
}

/**
 * Places every item, then fsyncs the directories that changed (up to `root`). Returns the items
 * whose `stillWanted` said no (not placed). Throws the first failure (temp removed).
 */
export async function placeFiles(
  root: string,
  stagingDir: string,
  items: readonly PlaceItem[],
): Promise<PlaceItem[]> {
  const dirs = new Set<string>();
  const declined: PlaceItem[] = [];
  for (const item of items) {
    const parent = dirname(item.dest);
    if (item.dirsReal !== undefined && !(await item.dirsReal())) {
      declined.push(item);
      continue;
    }
    await mkdir(fsPath(parent), { recursive: true });
    if (!(await placeOne(item, join(stagingDir, tempName())))) {
      declined.push(item);
      continue;
    }
    for (let d = parent; d.length >= root.length && d.startsWith(root); d = dirname(d)) {
      if (dirs.has(d)) break;
      dirs.add(d);
      if (d === root || dirname(d) === d) break;
    }
  }
  for (const d of dirs) await fsyncDir(fsPath(d));
  return declined;
}

/** Places one item through `temp` (beside the destination on EXDEV); false when `stillWanted` said no. */
async function placeOne(item: PlaceItem, temp: string): Promise<boolean> {
  try {
    return await swapIn(item, temp);
  } catch (error) {
    await rm(temp, { force: true });
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  const beside = fsPath(`${dirname(item.dest)}${sep}${tempName()}`);
  try {
    return await swapIn(item, beside);
  } catch (error) {
    await rm(beside, { force: true });
    throw error;
  }
}

/** Writes the temp file, then renames it over the destination unless `stillWanted` says no. */
async function swapIn(item: PlaceItem, temp: string | Buffer): Promise<boolean> {
  await writeTemp(item, temp);
  const wanted =
    (item.dirsReal === undefined || (await item.dirsReal())) &&
    (item.stillWanted === undefined || (await item.stillWanted()));
  if (!wanted) {
    await rm(temp, { force: true });
    return false;
  }
  await rename(temp, fsPath(item.dest));
  return true;
}

/** Writes and fsyncs the temp file (a symlink needs no data sync: its target is in the inode). */
async function writeTemp(item: PlaceItem, temp: string | Buffer): Promise<void> {
  if (item.kind === 'symlink') {
    await symlink(item.content, temp);
    return;
  }
  const handle = await open(temp, 'wx', item.mode ?? (item.kind === 'executable' ? 0o777 : 0o666));
  try {
    if (item.mode !== undefined) await handle.chmod(item.mode);
    await handle.writeFile(item.content);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
