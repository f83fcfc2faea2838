import { join } from 'node:path';
import { decodeBytes } from '../fs/path-bytes.js';
import { readRegularFile } from '../fs/regular-file.js';
import { parseIndexFile, type EntryFilter, type IndexFileEntry } from './parsers/index-file.js';
import { parseIndexStat } from './parsers/ls-files-debug.js';
import { parseUnmergedPaths } from './parsers/ls-files-unmerged.js';
import { GITLINK_MODE, parseIndexEntries, type IndexEntry } from './parsers/ls-files-tagged.js';
import { runGitBuffer, type GitOptions } from './runner.js';

/**
 * Which entries to read: `all`, or the `marked` ones that status and add look past (assume-unchanged,
 * skip-worktree, unmerged) with the submodules' commits, which is what a capture asks of every entry.
 */
export type EntrySelection = 'all' | 'marked';

/** What reading the index file ourselves needs: where it is, and the object format (Repo has it). */
type IndexOwner = GitOptions & { objectFormat?: string };

const MARKED: EntryFilter = (tag, mode) => tag !== 'H' || mode === GITLINK_MODE;

/**
 * The index's entries with their marks and modes, as `ls-files -z -v -s` lists them. `bytes`: the
 * index file as the caller read it in this call (IndexState.bytes), not read again.
 */
export async function readIndexEntries(
  repo: IndexOwner,
  which: EntrySelection = 'all',
  bytes?: Buffer,
): Promise<IndexEntry[]> {
  const filter = which === 'marked' ? MARKED : undefined;
  const read = await readIndexFile(repo, filter, bytes);
  if (read !== null) return read;
  const listed = parseIndexEntries(
    decodeBytes((await runGitBuffer(repo, ['ls-files', '-z', '-v', '-s'])).stdout),
  );
  return filter === undefined ? listed : listed.filter((e) => filter(e.tag, e.mode));
}

/** Every index entry with the seconds of its cached ctime and mtime (`ls-files --debug` when git must read it). */
export async function readIndexStat(repo: IndexOwner, bytes?: Buffer): Promise<IndexFileEntry[]> {
  return (
    (await readIndexFile(repo, undefined, bytes)) ??
    parseIndexStat(decodeBytes((await runGitBuffer(repo, ['ls-files', '-z', '-v', '-s', '--debug'])).stdout))
  );
}

/**
 * The distinct paths with conflict stages, in the index's order (`ls-files -u` when git must read
 * it). `bytes`: the index file as the caller read it in this call.
 */
export async function readUnmergedPaths(repo: IndexOwner, bytes?: Buffer): Promise<string[]> {
  const read = await readIndexFile(repo, (tag) => tag === 'M' || tag === 'm', bytes);
  if (read === null) return parseUnmergedPaths((await runGitBuffer(repo, ['ls-files', '-u', '-z'])).stdout);
  const paths: string[] = [];
  for (const { path } of read) if (paths.at(-1) !== path) paths.push(path);
  return paths;
}

/**
 * The index file read and parsed here (parseIndexFile), or null when git should read it: an index
 * we cannot place or whose ids we cannot size, one that is not a regular file (openRepo refuses a
 * FIFO, socket or device there: assertIndexNotSpecial), and one the parser leaves to git.
 */
async function readIndexFile(
  repo: IndexOwner,
  filter?: EntryFilter,
  bytes?: Buffer,
): Promise<IndexFileEntry[] | null> {
  const idBytes = repo.objectFormat === 'sha1' ? 20 : repo.objectFormat === 'sha256' ? 32 : null;
  const path = repo.indexFile ?? (repo.gitDir === undefined ? undefined : join(repo.gitDir, 'index'));
  if (idBytes === null || path === undefined) return null;
  const file = bytes === undefined ? await readRegularFile(path) : { bytes };
  return file === null || 'special' in file ? null : parseIndexFile(file.bytes, idBytes, filter);
}
