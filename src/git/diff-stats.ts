import type { DiffStats } from '../../types/snapshot.js';
import { decodeBytes } from '../fs/path-bytes.js';
import { AmbiguousIdError, RevisionNotFoundError } from '../errors.js';
import { emptyTreeId } from './empty-tree.js';
import { withObjectsOnly } from './objects-only.js';
import { parseBatchCheck } from './parsers/batch-check.js';
import { parseDiffChanges } from './parsers/diff-changes.js';
import { runGitBuffer, type GitOptions } from './runner.js';

/** The two trees a diff compares, as full object ids. */
export interface DiffTrees {
  from: string;
  to: string;
}

/**
 * Options every diff we run shares, so that neither the repository's config nor its attributes
 * change what we report: renames (-M) and copies (-C) always detected with git's default rename
 * limit (-l1000, whatever diff.renameLimit says), no external diff or textconv program, whole-tree
 * paths (not relative to a subdirectory), submodule changes never hidden by `ignore` settings.
 * The diffs that use them run withObjectsOnly: no `.gitattributes` decides what is binary.
 */
export const DIFF_BASE_ARGS: readonly string[] = [
  '-r',
  '-M',
  '-C',
  '-l1000',
  '--no-ext-diff',
  '--no-textconv',
  '--no-relative',
  '--ignore-submodules=none',
];

/**
 * Resolves `from` and `to` (any revision that names a commit, tag or tree) to tree ids in one
 * `cat-file --batch-check` process. The names go through stdin, so a name starting with "-" is
 * never read as an option. `from === null` stands for the empty tree (a root commit's parent).
 * Throws REVISION_NOT_FOUND, or AMBIGUOUS_ID for an abbreviated id that matches several objects.
 */
export async function resolveDiffTrees(
  repo: GitOptions,
  from: string | null,
  to: string,
): Promise<DiffTrees> {
  const revs = (from === null ? [to] : [from, to]).map(checkRevision);
  // Each revision is asked twice: peeled to a tree (the answer we want; git prefers tree-ish
  // objects when an abbreviation is ambiguous), and bare (to tell "ambiguous" from "missing").
  const names = revs.flatMap((rev) => [`${rev}^{tree}`, rev]);
  const out = await runGitBuffer(repo, ['cat-file', '--batch-check'], {
    input: names.map((n) => `${n}\n`).join(''),
  });
  const answers = parseBatchCheck(names, out.stdout.toString('utf8'));
  const ids = revs.map((rev, i) => {
    const [tree, bare] = [answers[2 * i], answers[2 * i + 1]];
    if (tree?.found) return tree.id;
    if (bare !== undefined && !bare.found && bare.reason === 'ambiguous') {
      throw new AmbiguousIdError(
        `revision "${rev}" is an abbreviated id that matches several objects; give more digits`,
        { details: { revision: rev } },
      );
    }
    throw new RevisionNotFoundError(`revision "${rev}" does not name a commit or tree in this repository`, {
      details: { revision: rev },
    });
  });
  return from === null
    ? { from: await emptyTreeId(repo), to: ids[0] as string }
    : { from: ids[0] as string, to: ids[1] as string };
}

/** A revision must fit on one stdin line of cat-file. */
function checkRevision(rev: string): string {
  if (rev === '' || /[\n\r\0]/.test(rev)) {
    throw new RevisionNotFoundError(`revision ${JSON.stringify(rev)} is empty or contains a line break`, {
      details: { revision: rev },
    });
  }
  return rev;
}

/**
 * Diff statistics from `from` to `to` (`from === null`: against the empty tree, for a root
 * commit): one FileChange per file with status, rename or copy source, line counts and a binary
 * flag, plus totals over the files. Status and counts come from ONE `diff-tree --raw --numstat -z`
 * process. Identical trees give zeros and no files. Throws REVISION_NOT_FOUND, AMBIGUOUS_ID,
 * GIT_FAILED.
 */
export async function getDiffStats(repo: GitOptions, from: string | null, to: string): Promise<DiffStats> {
  return treeDiffStats(repo, await resolveDiffTrees(repo, from, to));
}

/** getDiffStats for two tree ids the caller already has: one process. */
export async function treeDiffStats(repo: GitOptions, trees: DiffTrees): Promise<DiffStats> {
  if (trees.from === trees.to) return { filesChanged: 0, insertions: 0, deletions: 0, files: [] };
  const args = ['diff-tree', '-z', '--raw', '--numstat', ...DIFF_BASE_ARGS, trees.from, trees.to];
  const out = await withObjectsOnly(repo, trees.to, (git) => runGitBuffer(git, args));
  // Names are bytes: invalid UTF-8 stays lossless (U+DC80+byte, `\udcNN` in JSON), never U+FFFD.
  const files = parseDiffChanges(decodeBytes(out.stdout));
  let insertions = 0;
  let deletions = 0;
  for (const f of files) {
    insertions += f.insertions;
    deletions += f.deletions;
  }
  return { filesChanged: files.length, insertions, deletions, files };
}
