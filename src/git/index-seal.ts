import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { IndexSeal } from '../../types/run.js';
import { GitFailedError, UnsafeWorkspaceError } from '../errors.js';
import { decodeBytes, encodeBytes } from '../fs/path-bytes.js';
import { readRegularFile } from '../fs/regular-file.js';
import { readIndexStat } from './index-entries.js';
import { GITLINK_MODE, type IndexEntry } from './parsers/ls-files-tagged.js';
import { splitNul } from './parsers/nul-records.js';
import type { Repo } from './repo.js';
import { runGit, runGitBuffer } from './runner.js';

/*
 * git takes an index entry whose cached stat data matches the file as unchanged. An index rewritten
 * by hand can give an edited file's entry the file's real stat data and the old blob id (or a blob
 * that is not the file's), and `add -A` and `status` would then take the wrong content. So `before`
 * and `after` seal the index they leave (IndexSeal, kept in the run record), and the next look first
 * checks it: an index that differs has the stat data of its suspect entries dropped, so git hashes
 * those files again. git does not check the index's own trailing checksum when it reads it: only
 * the whole file tells.
 */

/**
 * The index as it is now: its digest and its mtime (whole seconds), and the file's stamp (inode,
 * size, mtime and ctime in nanoseconds, taken before it was read), which tells whether it was
 * written since without reading it again: git writes an index through a new file. `bytes`: the
 * whole index as read, for reading its entries in the same call (readIndexEntries) without
 * reading it again; none for a split index.
 */
export type IndexState = Omit<IndexSeal, 'commit'> & { stamp: string; bytes?: Buffer };

/** Reads the index's state (see IndexSeal.digest): never blocks on a special file put there. */
export async function readIndexState(repo: Repo): Promise<IndexState> {
  const path = join(repo.gitDir, 'index');
  const info = await lstat(path, { bigint: true }).catch(() => null);
  const read = await readRegularFile(path, false);
  const writtenAt = info === null ? 0 : Number(info.mtimeMs / 1000n);
  const stamp = stampOf(info);
  if (read === null) return { digest: 'absent', writtenAt, stamp };
  if ('special' in read) return { digest: read.special, writtenAt, stamp };
  const hash = createHash('sha256').update(read.bytes);
  // A split index keeps most entries in shared files beside it: they are sealed with it. Our own
  // git writes the index whole (core.splitIndex=false), so this is only the user's index.
  const shared = (await readdir(repo.gitDir).catch(() => [])).filter((n) => n.startsWith('sharedindex.'));
  for (const name of shared.sort()) {
    const file = await readRegularFile(join(repo.gitDir, name), false);
    const bytes = file === null || 'special' in file ? Buffer.alloc(0) : file.bytes;
    hash.update(`\0${name}\0${bytes.length}\0`).update(bytes);
  }
  const digest = hash.digest('hex');
  return shared.length === 0
    ? { digest, writtenAt, stamp, bytes: read.bytes }
    : { digest, writtenAt, stamp: '' };
}

/**
 * The index's state again after `known` was read in this same call: `known` itself when the file
 * still has its stamp (nothing wrote it since: no read, no hash), else read anew.
 */
export async function indexStateAgain(repo: Repo, known: IndexState): Promise<IndexState> {
  const info = await lstat(join(repo.gitDir, 'index'), { bigint: true }).catch(() => null);
  return known.stamp !== '' && stampOf(info) === known.stamp ? known : readIndexState(repo);
}

/** The seal to keep of an index in this state that holds `commit`'s tree. */
export function sealOf(state: IndexState, commit: string): IndexSeal {
  return { digest: state.digest, writtenAt: state.writtenAt, commit };
}

function stampOf(info: BigIntStats | null): string {
  return info === null ? 'absent' : `${info.ino}:${info.size}:${info.mtimeNs}:${info.ctimeNs}`;
}

/**
 * Makes the index's stat data ours to trust again. An index that is still the one `sealed` (that we
 * left) is trusted as it is. Otherwise the entries that may have been rewritten lose their cached
 * stat data (forgetIndexStat): those whose stat data is from `sealed.writtenAt` on (an edited file's
 * real stat data can only be that new) and those that do not hold `sealed.commit`'s blob; every
 * entry when nothing was sealed. `read`: the state, when the caller has read it already. Returns
 * the index's state as it then is.
 */
export async function trustIndex(
  repo: Repo,
  sealed: IndexSeal | undefined,
  read?: IndexState,
): Promise<IndexState> {
  const now = read ?? (await readIndexState(repo));
  if (sealed !== undefined && now.digest === sealed.digest) return now;
  const [entries, moved] = await Promise.all([
    readIndexStat(repo, now.bytes),
    sealed === undefined ? null : pathsNotAt(repo, sealed.commit),
  ]);
  assertSoundEntries(repo, entries);
  const suspect =
    sealed === undefined || moved === null
      ? entries
      : entries.filter(
          (e) => e.ctime >= sealed.writtenAt || e.mtime >= sealed.writtenAt || moved.has(e.path),
        );
  if (suspect.length === 0) return now;
  await forgetIndexStat(repo, suspect);
  return readIndexState(repo);
}

/** Characters whose UTF-16 order may not be their UTF-8 bytes' (surrogates, escaped bytes, U+E000 on). */
const WIDE = /[\ud800-\uffff]/;

/**
 * A path git never stages (verify_path): an empty component (a leading, trailing or double `/`),
 * `.`, `..`, or `.git` as any case or another filesystem spells it (core.protectNTFS).
 */
const INVALID_PATH = /(?:^|\/)(?:\.{1,2}|\.git[ .]*(?:::\$index_allocation)?|git~\d+)?(?:\/|$)/i;

/**
 * git keeps the index sorted by name bytes (an unmerged path's stages together) and checks neither
 * the order nor the names on reading. An index rewritten by hand with entries out of order or
 * repeated is written by `write-tree` as a tree that fsck and servers refuse (`duplicateEntries`,
 * `treeNotSorted`), and a repeated entry may carry a blob that is not the file's; an entry named
 * `.git/hooks/x` or `../x`, marked assume-unchanged so that add keeps it, goes into the commit as
 * such. UNSAFE_WORKSPACE naming the first such path.
 */
function assertSoundEntries(repo: Repo, entries: readonly IndexEntry[]): void {
  for (let i = 0; i < entries.length; i++) {
    const b = entries[i] as IndexEntry;
    const a = entries[i - 1];
    if (!INVALID_PATH.test(b.path) && (a === undefined || inGitOrder(a, b))) continue;
    throw new UnsafeWorkspaceError(
      `the index of ${repo.topLevel} has an entry git never writes (${b.path}: a path git refuses, out of order, or twice): it was rewritten by hand, and git would commit a broken tree from it; rebuild it ("git read-tree HEAD" keeps the files; marks and staged changes are lost)`,
      { details: { workspace: repo.topLevel, path: b.path } },
    );
  }
}

/** Whether `b` may follow `a` in an index: a greater name in bytes, or the next stage of an unmerged path. */
function inGitOrder(a: IndexEntry, b: IndexEntry): boolean {
  const order =
    WIDE.test(a.path) || WIDE.test(b.path)
      ? Buffer.compare(encodeBytes(a.path), encodeBytes(b.path))
      : a.path < b.path
        ? -1
        : a.path === b.path
          ? 0
          : 1;
  return order < 0 || (order === 0 && a.tag === 'M' && b.tag === 'M');
}

/**
 * Drops the cached stat data of these entries where git compares them with the work tree (no
 * assume-unchanged or skip-worktree mark, no submodule), keeping mode and blob: the next `add` or
 * `status` hashes each such file again. Marked entries keep their marks: hiddenChanges compares
 * their content anyway.
 */
async function forgetIndexStat(repo: Repo, entries: readonly IndexEntry[]): Promise<void> {
  const compared = entries.filter((e) => e.tag === 'H' && e.mode !== GITLINK_MODE);
  if (compared.length === 0) return;
  await runGit(repo, ['update-index', '-z', '--index-info'], {
    input: encodeBytes(compared.map((e) => `${e.mode} ${e.oid}\t${e.path}\0`).join('')),
  });
}

/** The paths whose index entry is not as `commit` has it; null when that commit cannot be read. */
async function pathsNotAt(repo: Repo, commit: string): Promise<Set<string> | null> {
  try {
    const args = ['diff-index', '--cached', '-z', '--name-only', '--no-renames', commit, '--'];
    return new Set(splitNul(decodeBytes((await runGitBuffer(repo, args)).stdout)));
  } catch (error) {
    if (error instanceof GitFailedError) return null;
    throw error;
  }
}
