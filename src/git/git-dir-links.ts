import { readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { UnsafeWorkspaceError } from '../errors.js';
import { decodeBytes, fsPath } from '../fs/path-bytes.js';

/**
 * Entries of a git dir that git only reads for us (or that we never have it write): these may be
 * symbolic links (a dotfiles `config`, a shared `hooks` or `info/exclude`). Every other entry is
 * written on our behalf (HEAD, index, refs, logs, objects, packed-refs, FETCH_HEAD, ORIG_HEAD,
 * MERGE_MSG, sequencer, worktrees, ...), and git writes through a link it finds there.
 */
const READ_ONLY_ENTRIES = new Set([
  'config',
  'config.worktree',
  'description',
  'hooks',
  'info',
  'branches',
  'remotes',
  'modules',
  'commondir',
  'gitdir',
]);

/** The trees below the common dir that hold every ref we create, move or delete, and their reflogs. */
const WRITTEN_TREES = ['refs/heads', 'refs/agentgate', 'logs/refs/heads', 'logs/refs/agentgate'];

/**
 * A symbolic link where git writes for us would carry our commits into another repository or file:
 * `.git/refs` linked to another checkout's refs moves its branch, a linked `index` overwrites its
 * staged work, a linked reflog appends to any file. UNSAFE_WORKSPACE for a link among the top-level
 * entries of the git dir or the common dir (but READ_ONLY_ENTRIES), or anywhere below `refs` and
 * `logs` down the trees we write (WRITTEN_TREES): one readdir per directory, no stat per ref.
 */
export async function assertNoLinksWhereWeWrite(
  workspace: string,
  gitDir: string,
  commonDir: string,
): Promise<void> {
  let link: string | null = null;
  for (const dir of new Set([gitDir, commonDir])) {
    link ??= await topLevelLink(dir);
    link ??= await firstLinkIn(join(dir, 'refs'), false);
    link ??= await firstLinkIn(join(dir, 'logs'), false);
  }
  link ??= await firstLinkIn(join(commonDir, 'logs', 'refs'), false);
  for (const tree of WRITTEN_TREES) link ??= await firstLinkIn(join(commonDir, tree), true);
  if (link === null) return;
  throw new UnsafeWorkspaceError(
    `${link} is a symbolic link inside the git dir of ${workspace}, where git writes for us: our commits would move another repository's refs or overwrite the file it names; replace it with the real file or directory (for another checkout of the same repository use "git worktree add")`,
    { details: { workspace, link } },
  );
}

/**
 * An index (or a split index's shared file) that is a FIFO, socket or device: every git that reads
 * it, ours too, would wait for a writer until the git timeout, and then fail as if the repository
 * were too large. UNSAFE_WORKSPACE at once, as for a FIFO config or attributes file.
 */
export async function assertIndexNotSpecial(workspace: string, gitDir: string): Promise<void> {
  const special = (await entries(gitDir)).find(
    (e) =>
      (e.name === 'index' || e.name.startsWith('sharedindex.')) &&
      !e.isFile() &&
      !e.isDirectory() &&
      !e.isSymbolicLink(),
  );
  if (special === undefined) return;
  const index = join(gitDir, special.name);
  throw new UnsafeWorkspaceError(
    `${index} is not a regular file (a FIFO, socket or device put there): git would wait on it for ever; remove it (git makes the index again: "git reset" restages HEAD's files)`,
    { details: { workspace, index } },
  );
}

async function topLevelLink(dir: string): Promise<string | null> {
  for (const entry of await entries(dir)) {
    if (!entry.isSymbolicLink() || READ_ONLY_ENTRIES.has(entry.name)) continue;
    if (entry.name === 'HEAD' && (await isSymlinkSymref(join(dir, entry.name)))) continue;
    return join(dir, entry.name);
  }
  return null;
}

/**
 * git's older form of a symbolic HEAD (`core.preferSymlinkRefs`): a link to `refs/heads/<branch>`,
 * relative and with no `..`, which git reads as `ref: refs/heads/<branch>` and writes that branch
 * through, inside this git dir, whose `refs/heads` is checked for links like the rest.
 */
async function isSymlinkSymref(path: string): Promise<boolean> {
  const target = await readlink(fsPath(path), { encoding: 'buffer' }).catch(() => null);
  if (target === null) return false;
  const parts = decodeBytes(target).split('/');
  return (
    parts.length > 2 &&
    parts[0] === 'refs' &&
    parts[1] === 'heads' &&
    !parts.some((p) => p === '..' || p === '.' || p === '')
  );
}

/** The first symbolic link among `dir`'s entries (with `deep`, at any depth below it), or null. */
async function firstLinkIn(dir: string, deep: boolean): Promise<string | null> {
  for (const entry of await entries(dir)) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) return path;
    if (deep && entry.isDirectory()) {
      const below = await firstLinkIn(path, true);
      if (below !== null) return below;
    }
  }
  return null;
}

/**
 * A directory's entries, names read as bytes (decodeBytes: a ref named in bytes that are not UTF-8
 * is still walked). A missing directory (no loose refs, no reflogs yet) has nothing to check.
 */
async function entries(
  dir: string,
): Promise<Array<{ name: string; isSymbolicLink(): boolean; isDirectory(): boolean; isFile(): boolean }>> {
  const found = await readdir(fsPath(dir), { withFileTypes: true, encoding: 'buffer' }).catch(() => []);
  return found.map((entry) => ({
    name: decodeBytes(entry.name),
    isSymbolicLink: () => entry.isSymbolicLink(),
    isDirectory: () => entry.isDirectory(),
    isFile: () => entry.isFile(),
  }));
}
