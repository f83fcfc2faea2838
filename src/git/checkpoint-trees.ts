import { GitFailedError, StoreCorruptError } from '../errors.js';
import { decodeBytes } from '../fs/path-bytes.js';
import type { CheckpointRepo } from './checkpoint-repo.js';
import { excludeSpec } from './checkpoint-index.js';
import { assertGitId } from './ids.js';
import { catFile } from './diff-content.js';
import { parseCatFileBatch } from './parsers/cat-file-batch.js';
import { parseDiffPairs, type DiffPair } from './parsers/diff-pairs.js';
import { parseDiffTreeStdin } from './parsers/diff-tree-stdin.js';
import { parseLsTree, type TreeEntry } from './parsers/ls-tree.js';
import { splitNul } from './parsers/nul-records.js';
import { runGitBuffer, type GitResult, type RunOptions } from './runner.js';

/** Reading the checkpoint repository's trees and blobs. Paths are decoded losslessly (decodeBytes). */

/** Full or abbreviated hex ids, and our own checkpoint ref names: nothing that git could read as an option. */
const REVISION = /^([0-9a-f]{4,64}|refs\/checkpoints(-meta)?\/[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*)$/;

/** A path component git never stages: `.git` (any case), `.`, `..`. */
const UNSTAGEABLE = /^(?:\.git|\.{1,2})$/i;

/** True if `rev` has the shape of something the checkpoint repository can resolve. */
export function isCheckpointRevision(rev: string): boolean {
  return REVISION.test(rev) && !rev.includes('..');
}

/**
 * Every blob (file or symlink) of a tree, by path. Null when `rev` names no tree; any other failure
 * throws. A path no capture can make (a `.git` component in any case, `..`, `.`: git refuses to
 * stage them) is STORE_CORRUPT: a store tampered with must not write into the workspace's `.git`.
 */
export async function listTree(repo: CheckpointRepo, rev: string): Promise<Map<string, TreeEntry> | null> {
  if (!isCheckpointRevision(rev)) return null;
  try {
    const res = await readGit(repo, ['ls-tree', '-r', '-z', '--full-tree', rev]);
    const listing = parseLsTree(decodeBytes(res.stdout));
    const foreign = [...listing.keys()].find((path) =>
      path.split('/').some((part) => UNSTAGEABLE.test(part)),
    );
    if (foreign !== undefined)
      throw new StoreCorruptError(
        `the checkpoint store ${repo.gitDir} holds a tree ${rev} naming ${JSON.stringify(foreign)}, a path no capture makes (it was tampered with); restore or revert from another checkpoint (see "checkpoint list")`,
        { details: { gitDir: repo.gitDir, tree: rev, path: foreign } },
      );
    return listing;
  } catch (cause) {
    if (
      cause instanceof GitFailedError &&
      /not a valid object name|not a tree object/i.test(String(cause.details.stderr))
    )
      return null;
    throw cause;
  }
}

/** Paths that differ between two trees, in git's order (no rename detection). */
export async function changedPaths(repo: CheckpointRepo, from: string, to: string): Promise<string[]> {
  const res = await readGit(repo, ['diff-tree', '-r', '-z', '--no-renames', '--name-only', from, to]);
  return splitNul(decodeBytes(res.stdout));
}

/**
 * The paths that differ in each pair of trees, from one `diff-tree --stdin` process however many
 * pairs (no rename detection). Results are in the order of `pairs`; a repeated pair is asked once.
 */
export async function changedPathsOfPairs(
  repo: CheckpointRepo,
  pairs: ReadonlyArray<readonly [string, string]>,
): Promise<string[][]> {
  const distinct = [...new Map(pairs.map((p) => [`${p[0]} ${p[1]}`, p] as const)).values()];
  if (distinct.length === 0) return [];
  for (const [from, to] of distinct) {
    assertGitId(from, 'diff-tree --stdin');
    assertGitId(to, 'diff-tree --stdin');
  }
  const res = await readGit(repo, ['diff-tree', '--stdin', '-r', '-z', '--no-renames', '--name-only'], {
    input: distinct.map(([from, to]) => `${from} ${to}\n`).join(''),
  });
  const found = parseDiffTreeStdin(decodeBytes(res.stdout), distinct);
  const byPair = new Map(distinct.map((p, i) => [`${p[0]} ${p[1]}`, found[i] ?? []]));
  return pairs.map((p) => byPair.get(`${p[0]} ${p[1]}`) ?? []);
}

/** Per-path status, modes, object ids and line counts between two trees, from one process. */
export async function diffTrees(repo: CheckpointRepo, from: string, to: string): Promise<DiffPair[]> {
  const res = await readGit(repo, [
    'diff-tree',
    '-r',
    '-z',
    '--no-renames',
    '--raw',
    '--numstat',
    '--no-ext-diff',
    '--no-textconv',
    from,
    to,
  ]);
  return parseDiffPairs(decodeBytes(res.stdout));
}

/**
 * Unified diff between two trees from plumbing, as bytes: binary-safe and applicable with
 * `git apply` (`--binary --full-index`), no colour, no external diff or textconv programs, no
 * renames. Never decoded: file contents and names that are not UTF-8 stay exact. `leaveOut`: paths
 * left out of the diff.
 */
export async function unifiedTreeDiff(
  repo: CheckpointRepo,
  from: string,
  to: string,
  leaveOut: readonly string[] = [],
): Promise<Buffer> {
  const specs = leaveOut.length === 0 ? [] : ['--', '.', ...leaveOut.map(excludeSpec)];
  const res = await readGit(repo, [
    'diff-tree',
    '-r',
    '-p',
    '--binary',
    '--full-index',
    '--no-color',
    '--no-ext-diff',
    '--no-textconv',
    '--no-renames',
    '--src-prefix=a/',
    '--dst-prefix=b/',
    from,
    to,
    ...specs,
  ]);
  return res.stdout;
}

/**
 * Reads any number of objects through one `cat-file --batch` process. Every id must exist: a
 * missing object means the checkpoint repository is damaged (STORE_CORRUPT, naming the file
 * `paths` gives for it), with the ways out: a track stages anew each file whose object is lost
 * (capture.ts captureWithoutLost), which writes it back while a file still holds it; other
 * checkpoints, and this one's other files, still restore.
 */
export async function readObjects(
  repo: CheckpointRepo,
  oids: readonly string[],
  paths: ReadonlyMap<string, string> = new Map(),
): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  const unique = [...new Set(oids)];
  if (unique.length === 0) return out;
  const res = await readGit(
    repo,
    ['cat-file', '--batch'],
    { input: unique.map((o) => `${o}\n`).join('') },
    paths,
  );
  for (const obj of parseCatFileBatch(res.stdout)) {
    if (obj.kind === 'missing') throw lostObject(repo, obj.name, paths.get(obj.name) ?? null);
    out.set(obj.oid, obj.content);
  }
  return out;
}

/**
 * The size of every object of `paths` (id -> the file it is written to), each read whole first:
 * STORE_CORRUPT (as readObjects) for one the store lost. One `cat-file --batch` streams them by,
 * keeping none (a loose object cut short after its header is found only by reading it). A restore
 * asks it before it deletes anything, so that a lost object stops it with the workspace untouched,
 * and reads the contents in batches bounded by these sizes.
 */
export async function readableSizes(
  repo: CheckpointRepo,
  paths: ReadonlyMap<string, string>,
): Promise<Map<string, number>> {
  const sizes = new Map<string, number>();
  const ids = [...paths.keys()];
  if (ids.length === 0) return sizes;
  for (const id of ids) assertGitId(id, 'cat-file --batch');
  let answers;
  try {
    answers = await catFile(repo, 'scan', ids);
  } catch (cause) {
    throw lostIn(repo, cause, paths) ?? cause;
  }
  answers.forEach((answer, i) => {
    const id = ids[i] as string;
    if (!answer.found) throw lostObject(repo, id, paths.get(id) ?? null);
    sizes.set(id, answer.size);
  });
  return sizes;
}

/**
 * git's words (LC_ALL=C) for an object it needs and the repository lacks, or holds cut short (a
 * loose object whose header reads but whose content does not: `cat-file --batch` cannot stream it).
 */
const LOST_OBJECT =
  /unable to read (?:tree )?([0-9a-f]{40,64})|missing (?:blob|tree) object '([0-9a-f]{40,64})'|unable to stream ([0-9a-f]{40,64})/;

/**
 * runGitBuffer for a read of trees and blobs: an object the store lost is STORE_CORRUPT, as in
 * readObjects, naming the file `paths` gives for it.
 */
async function readGit(
  repo: CheckpointRepo,
  args: string[],
  opts: RunOptions = {},
  paths: ReadonlyMap<string, string> = new Map(),
): Promise<GitResult<Buffer>> {
  try {
    return await runGitBuffer(repo, args, opts);
  } catch (cause) {
    throw lostIn(repo, cause, paths) ?? cause;
  }
}

/** The STORE_CORRUPT a git failure on a lost object is (see LOST_OBJECT), or null for any other failure. */
function lostIn(
  repo: CheckpointRepo,
  cause: unknown,
  paths: ReadonlyMap<string, string>,
): StoreCorruptError | null {
  const lost = cause instanceof GitFailedError ? LOST_OBJECT.exec(String(cause.details.stderr)) : null;
  if (lost === null) return null;
  const object = (lost[1] ?? lost[2] ?? lost[3]) as string;
  return lostObject(repo, object, paths.get(object) ?? null);
}

function lostObject(repo: CheckpointRepo, object: string, path: string | null): StoreCorruptError {
  const file = path === null ? '' : ` (the file ${JSON.stringify(path)})`;
  return new StoreCorruptError(
    `object ${object}${file} is missing from the checkpoint store ${repo.gitDir}, so a checkpoint that holds it cannot be read whole; "checkpoint track" writes it back while a file of the workspace still holds that content; else restore another checkpoint (see "checkpoint list"), or revert only this one's other files ("checkpoint revert HASH PATH...")`,
    { details: { gitDir: repo.gitDir, object, path } },
  );
}

export type { TreeEntry };
