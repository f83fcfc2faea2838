import { isAbsolute, posix, relative, sep } from 'node:path';
import { GitFailedError, PathNotFoundError } from '../errors.js';
import { readEscapedBytes } from '../fs/path-bytes.js';
import { filesReadAs, typeAt } from '../git/provenance.js';
import { batchCheck } from '../git/record-objects.js';
import { resolveRevision } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { escapeHidden } from '../text.js';

/**
 * PATH as git names it in a tree: relative to the top level, `/`-separated, without `./` or `.`
 * segments. An absolute path counts from the file system root and must lie inside the top level.
 * Null for a path that leaves the top level or names it: no file of the repository is called so
 * (git itself would refuse the path outright rather than say it is missing).
 */
export function treePath(topLevel: string, path: string): string | null {
  const local = isAbsolute(path) ? relative(topLevel, path).split(sep).join('/') : path;
  const normal = posix.normalize(local).replace(/^\.\//, '');
  const outside = normal === '..' || normal.startsWith('../') || posix.isAbsolute(normal);
  return outside || normal === '' || normal === '.' ? null : normal;
}

/**
 * REV's commit, and PATH as REV's tree names it: as given, else with each `\udcNN` read as a byte
 * (readEscapedBytes: a name that is not UTF-8, as JSON output writes it), else, for a PATH that
 * came with U+FFFD (a command line cannot carry such a byte), the one file whose name reads so.
 * One process says what REV is and whether PATH is a file there (a name with a line break cannot
 * go on batch-check's stdin, nor one ending in `}` after `REV^{commit}:`: ls-tree then); the resolver explains a missing REV. PATH_NOT_FOUND
 * when it is no file at REV.
 */
export async function fileAt(
  repo: Repo,
  given: string,
  path: string,
): Promise<{ rev: string; path: string }> {
  const spelt = readEscapedBytes(path);
  const names = spelt === null ? [path] : [path, spelt];
  // `:/text` reads all that follows as its text: `:/text:path` would search for "text:path"; and
  // `REV^{commit}:NAME}` is read as a peel of REV (a name ending in `}`: `@{u}`, `{{name}}`).
  const plain = !/[\n\r]/.test(path) && !given.startsWith(':/') && !names.some((n) => n.endsWith('}'));
  const [commit, ...files] = await batchCheck(repo, [
    `${given}^{commit}`,
    ...(plain ? names.map((n) => `${given}^{commit}:${n}`) : []),
  ]).catch(async (error: unknown) => {
    // batch-check dies on a name it cannot resolve at all (`@{u}` with no upstream, `HEAD@{99}`
    // past the reflog): the resolver says REVISION_NOT_FOUND, as for every other command.
    if (error instanceof GitFailedError) await resolveRevision(repo, given, 'commit');
    throw error;
  });
  const rev = commit?.found === true ? commit.id : await resolveRevision(repo, given, 'commit');
  const types: Array<string | null> = [];
  for (const [i, name] of names.entries()) {
    const answer = files[i];
    const type = plain ? (answer?.found === true ? answer.type : null) : await typeAt(repo, rev, name);
    if (type === 'blob') return { rev, path: name };
    types.push(type);
  }
  const readAs = path.includes('\ufffd') ? await filesReadAs(repo, rev, path) : [];
  if (readAs.length === 1) return { rev, path: readAs[0] as string };
  throw noFile(path, rev, types[0] ?? null, readAs);
}

/** PATH_NOT_FOUND: PATH is a directory (`type` tree) or a submodule (commit) at REV, or no file, or reads as several (`readAs`). */
function noFile(
  path: string,
  rev: string,
  type: string | null,
  readAs: readonly string[],
): PathNotFoundError {
  const directory = type === 'tree';
  const at = rev.slice(0, 12);
  const bytes = path.includes('\ufffd')
    ? '; a byte of a name that is not UTF-8 is given as \\udcNN, as JSON output writes it'
    : '';
  const message = directory
    ? `${path} is a directory at ${at}; give the path of a file in it`
    : type === 'commit'
      ? `${path} is a submodule at ${at} (a commit of another repository): it has no lines to trace`
      : readAs.length > 1
        ? `${readAs.length} files at ${at} read as ${path}: give one as JSON output writes it (${readAs.map((p) => escapeHidden(p, { halves: true })).join(', ')})`
        : `${path} is not a file at ${at}; give its path from the repository's top level${bytes}`;
  return new PathNotFoundError(message, {
    details: {
      path,
      rev,
      ...(type === 'tree' || type === 'commit' ? { type } : {}),
      ...(readAs.length > 1 ? { candidates: readAs } : {}),
    },
  });
}
