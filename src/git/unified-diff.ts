import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { replaceFileAtomic } from '../fs/atomic.js';
import { OutputTooLargeError } from '../errors.js';
import { DIFF_BASE_ARGS, resolveDiffTrees, type DiffTrees } from './diff-stats.js';
import { collectEvery } from '../memory.js';
import { withObjectsOnly } from './objects-only.js';
import { runGitBuffer, runGitStream, runGitToFile, type GitOptions } from './runner.js';

/** Where a patch was written and how big it is. */
export interface PatchFile {
  path: string;
  bytes: number;
}

/**
 * Patch options: full object ids and binary hunks so that `git apply` can rebuild every file,
 * fixed `a/` `b/` prefixes whatever diff.noprefix or diff.mnemonicPrefix say, no colour.
 * diff-tree is plumbing: it does not read diff.renames, diff.relative, diff.external or the other
 * porcelain diff settings at all; the explicit options are a second line of defence. Every patch
 * runs withObjectsOnly: the work tree's `.gitattributes` never make a text file binary.
 */
export const PATCH_ARGS: readonly string[] = [
  'diff-tree',
  '-p',
  '--binary',
  '--full-index',
  '--no-color',
  '--src-prefix=a/',
  '--dst-prefix=b/',
  ...DIFF_BASE_ARGS,
];

/**
 * The unified diff from `from` to `to` (`from === null`: against the empty tree) as a string.
 * `git apply --index` accepts it for every kind of change: text, binary, renames, copies, modes,
 * symlinks, type changes, empty files. Identical trees give ''. The text is decoded as UTF-8, so
 * file content in another encoding is not byte-exact here: write artifacts with
 * writeUnifiedDiffToFile. Throws REVISION_NOT_FOUND, AMBIGUOUS_ID, GIT_FAILED.
 */
export async function unifiedDiff(repo: GitOptions, from: string | null, to: string): Promise<string> {
  const trees = await resolveDiffTrees(repo, from, to);
  const out = await patchOf(repo, trees, (git, args) => runGitBuffer(git, args));
  return out.stdout.toString('utf8');
}

/**
 * The same patch, byte-exact, handed to `consume` as git writes it: never held whole in memory.
 * Throws REVISION_NOT_FOUND, AMBIGUOUS_ID, GIT_FAILED, or what `consume` throws.
 */
export async function streamUnifiedDiff(
  repo: GitOptions,
  from: string | null,
  to: string,
  consume: (patch: AsyncIterable<Buffer>) => Promise<void>,
): Promise<void> {
  const trees = await resolveDiffTrees(repo, from, to);
  await patchOf(repo, trees, (git, args) => runGitStream(git, args, (stdout) => consume(stdout)));
}

/**
 * Writes the same patch, byte-exact, to `file`, streamed from git to disk so that a large patch
 * never sits in memory (see runGitToFile, which also checks every write). A relative path is taken
 * from the process's working directory, missing directories are created, and the file is replaced
 * atomically (temp file, fsync, rename), only once git and the write have succeeded.
 * Throws REVISION_NOT_FOUND, AMBIGUOUS_ID, GIT_FAILED, WRITE_FAILED.
 */
export async function writeUnifiedDiffToFile(
  repo: GitOptions,
  from: string | null,
  to: string,
  file: string,
): Promise<PatchFile> {
  return writeTreeDiffToFile(repo, await resolveDiffTrees(repo, from, to), file);
}

/** writeUnifiedDiffToFile for two tree ids the caller already has: one git process. */
export async function writeTreeDiffToFile(
  repo: GitOptions,
  trees: DiffTrees,
  file: string,
  limit: { maxBytes?: number } = {},
): Promise<PatchFile> {
  const path = resolve(file);
  const bytes = await replaceFileAtomic(path, (temp) =>
    patchOf(repo, trees, (git, args) => runGitToFile(git, args, temp, limit)),
  );
  return { path, bytes };
}

/**
 * The sha256 of the patch between two trees, the same bytes writeTreeDiffToFile would write,
 * hashed as git prints them: nothing is held in memory or written to disk. One git process.
 */
export async function treeDiffSha256(repo: GitOptions, trees: DiffTrees): Promise<string> {
  const hash = createHash('sha256');
  const collect = collectEvery();
  await patchOf(repo, trees, (git, args) =>
    runGitStream(git, args, async (stdout) => {
      for await (const chunk of stdout) {
        hash.update(chunk as Buffer);
        collect((chunk as Buffer).length);
      }
    }),
  );
  return hash.digest('hex');
}

/**
 * The size of the patch between two trees, counted as git prints it: nothing is held in memory or
 * written to disk. Past `maxBytes` git is stopped: OUTPUT_TOO_LARGE. One git process.
 */
export async function treeDiffSize(repo: GitOptions, trees: DiffTrees, maxBytes: number): Promise<number> {
  let seen = 0;
  await patchOf(repo, trees, (git, args) =>
    runGitStream(git, args, async (stdout) => {
      for await (const chunk of stdout) {
        seen += (chunk as Buffer).length;
        if (seen > maxBytes)
          throw new OutputTooLargeError(`the patch would be larger than ${maxBytes} bytes`, {
            details: { maxBytes },
          });
      }
    }),
  );
  return seen;
}

/**
 * The single entry point: the patch from `from` to `to` as a string, or, given
 * `outputFile`, streamed to that file (see unifiedDiff and writeUnifiedDiffToFile).
 */
export function generateUnifiedDiff(repo: GitOptions, from: string | null, to: string): Promise<string>;
export function generateUnifiedDiff(
  repo: GitOptions,
  from: string | null,
  to: string,
  opts: { outputFile: string },
): Promise<PatchFile>;
export async function generateUnifiedDiff(
  repo: GitOptions,
  from: string | null,
  to: string,
  opts?: { outputFile: string },
): Promise<string | PatchFile> {
  return opts === undefined
    ? unifiedDiff(repo, from, to)
    : writeUnifiedDiffToFile(repo, from, to, opts.outputFile);
}

/**
 * Every patch between two trees is read through here: PATCH_ARGS, from the objects alone
 * (withObjectsOnly), so no work-tree `.gitattributes` changes a byte of it.
 */
function patchOf<T>(
  repo: GitOptions,
  trees: DiffTrees,
  run: (git: GitOptions, args: string[]) => Promise<T>,
): Promise<T> {
  return withObjectsOnly(repo, trees.to, (git) => run(git, [...PATCH_ARGS, trees.from, trees.to]));
}
