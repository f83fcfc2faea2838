import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { encodeBytes } from '../fs/path-bytes.js';
import { readRegularFile } from '../fs/regular-file.js';
import { GITLINK_MODE, type IndexEntry } from './parsers/ls-files-tagged.js';
import type { Repo } from './repo.js';
import { runGit } from './runner.js';
import { readIndexEntries } from './state.js';

/**
 * The index as it is now, in one word: the sha256 of its bytes ("absent" without one, the kind of
 * special file where a file should be). `before` and `after` keep the seal of the index they leave;
 * one that differs later was written by someone else since, and its cached stat data is not to be
 * trusted (see forgetIndexStat). git does not check the index's own trailing checksum when it reads
 * it, so only the whole file tells.
 */
export async function indexSeal(repo: Repo): Promise<string> {
  // A split index keeps most entries in shared files beside it (git may still read one that the
  // index we sealed names): they are sealed with it. We write the index whole (core.splitIndex).
  const shared = (await readdir(repo.gitDir).catch(() => []))
    .filter((n) => n.startsWith('sharedindex.'))
    .sort();
  const hash = createHash('sha256');
  for (const name of ['index', ...shared]) {
    const read = await readRegularFile(join(repo.gitDir, name), false);
    if (read === null || 'special' in read) {
      if (name === 'index') return read === null ? 'absent' : read.special;
      hash.update(`${name}\0${read === null ? 'absent' : read.special}\0`);
    } else hash.update(`${name}\0${read.bytes.length}\0`).update(read.bytes);
  }
  return hash.digest('hex');
}

/**
 * Drops the cached stat data of every entry git compares with the work tree (no assume-unchanged or
 * skip-worktree mark, no submodule), keeping its mode and blob: the next `add` or `status` hashes
 * each such file again instead of taking it as unchanged. An index rewritten by hand can give an
 * edited file's entry the file's real stat data and the old blob id, and git would then pass the
 * edit over. The marked entries keep their marks: hiddenChanges compares their content anyway.
 */
export async function forgetIndexStat(repo: Repo, entries: readonly IndexEntry[]): Promise<void> {
  const compared = entries.filter((e) => e.tag === 'H' && e.mode !== GITLINK_MODE);
  if (compared.length === 0) return;
  await runGit(repo, ['update-index', '-z', '--index-info'], {
    input: encodeBytes(compared.map((e) => `${e.mode} ${e.oid}\t${e.path}\0`).join('')),
  });
}

/**
 * Makes the index's stat data ours to trust: when the index is no longer the one sealed `sealed`
 * (undefined: none was kept), every compared entry's stat data is dropped (forgetIndexStat), so the
 * next look hashes each file again. Returns the index's seal as it then is.
 */
export async function trustIndex(repo: Repo, sealed: string | undefined): Promise<string> {
  const seal = await indexSeal(repo);
  if (seal === sealed) return seal;
  await forgetIndexStat(repo, await readIndexEntries(repo));
  return indexSeal(repo);
}
