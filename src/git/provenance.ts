import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import { OBJECT_ID_PATTERN } from '../../types/ids.js';
import {
  GitFailedError,
  GitOutputUnparseableError,
  InvalidArgumentError,
  ObjectMissingError,
} from '../errors.js';
import { DIFF_BASE_ARGS } from './diff-stats.js';
import { emptyTreeId } from './empty-tree.js';
import { batchCheck } from './record-objects.js';
import { assertRevisionSyntax } from './refs.js';
import { parseCatFileBatch } from './parsers/cat-file-batch.js';
import { parseLsTree } from './parsers/ls-tree.js';
import { commonDir } from '../fs/git-locks.js';
import { readRegularFile } from '../fs/regular-file.js';
import { decodeBytes, encodeBytes } from '../fs/path-bytes.js';
import { withByteArgs } from './byte-args.js';
import { parseDiffStdin, withoutBinaryHunks, type PairDiff } from './parsers/diff-stdin.js';
import { binaryBlobs, isBlobMode, pinnedFor } from './diff-content.js';
import { BlamePorcelainParser, type BlameLine } from './parsers/blame-porcelain.js';
import type { Repo } from './repo.js';
import { runGit, runGitBuffer, runGitStream, type GitOptions } from './runner.js';

/** A commit's tree and parents, read from the object itself. */
export interface CommitNode {
  commit: string;
  tree: string;
  parents: string[];
  /** The commit message (latin1; only compared with messages we wrote). */
  message: string;
}

/**
 * The tree of each commit's first parent (the empty tree for a root commit), from `known` (commits
 * already read) or one `cat-file --batch-check`. Every parent must be here, a merge's others too
 * (what it brought in is read from them): OBJECT_MISSING when one is not (beyond a shallow clone's
 * boundary, or left out of a partial clone), since the change a commit made to its parent cannot
 * be known without the parent, and an empty answer would say that no run made it.
 */
export async function parentTrees(
  repo: GitOptions,
  nodes: readonly CommitNode[],
  known: ReadonlyMap<string, CommitNode>,
): Promise<Map<string, string>> {
  const empty = nodes.some((n) => n.parents.length === 0) ? await emptyTreeId(repo) : '';
  const treeOf = await parentTreeIds(repo, nodes, known);
  const out = new Map<string, string>();
  for (const n of nodes) {
    const missing = n.parents.find((p) => treeOf(p) === undefined);
    if (missing !== undefined) throw missingParent(n.commit, missing);
    out.set(n.commit, n.parents[0] === undefined ? empty : (treeOf(n.parents[0]) as string));
  }
  return out;
}

/** The commits of `nodes` with a parent that is not in this clone, and that parent. */
export async function missingParents(
  repo: GitOptions,
  nodes: readonly CommitNode[],
  known: ReadonlyMap<string, CommitNode>,
): Promise<Map<string, string>> {
  const treeOf = await parentTreeIds(repo, nodes, known);
  const out = new Map<string, string>();
  for (const n of nodes) {
    const missing = n.parents.find((p) => treeOf(p) === undefined);
    if (missing !== undefined) out.set(n.commit, missing);
  }
  return out;
}

/** The tree of each parent of `nodes`, from `known` or one `cat-file --batch-check`; undefined for one not here. */
async function parentTreeIds(
  repo: GitOptions,
  nodes: readonly CommitNode[],
  known: ReadonlyMap<string, CommitNode>,
): Promise<(parent: string) => string | undefined> {
  const ask = [...new Set(nodes.flatMap((n) => n.parents).filter((p) => !known.has(p)))];
  const answers = await batchCheck(
    repo,
    ask.map((p) => `${p}^{tree}`),
  );
  const asked = new Map<string, string>();
  ask.forEach((p, i) => {
    if (answers[i]?.found === true) asked.set(p, answers[i].id);
  });
  return (p) => known.get(p)?.tree ?? asked.get(p);
}

/** Where a parent is that is in the clone, by other refs, yet beyond the shallow boundary git sees (hiddenParents). */
export const BEYOND_BOUNDARY = "is beyond this shallow clone's boundary (blame sees no parent there)";
const BEYOND_SHALLOW_BOUNDARY = "is beyond this shallow clone's boundary (git's walk sees no parent there)";

/** OBJECT_MISSING for a commit whose parent is not in this clone (or `where` it is), naming the fetch that brings it. */
export function missingParent(
  commit: string,
  parent: string,
  where = 'is not in this clone (a shallow or partial clone)',
): ObjectMissingError {
  return new ObjectMissingError(
    `commit ${commit.slice(0, 12)}'s parent ${parent.slice(0, 12)} ${where}, so the change the commit made cannot be worked out; fetch that history first (git fetch --deepen=1 for one more commit, git fetch --unshallow for all of it; fetch-depth: 0 with actions/checkout), then retry`,
    { details: { commit, parent } },
  );
}

/** Most bytes of pathspec given to one git process (the rest go to another), far below ARG_MAX. */
const MAX_PATHSPEC_BYTES = 256 * 1024;

/**
 * Tree and parents of many commits (full ids) in one `cat-file --batch` process. A name that is
 * not a commit here is left out of the answer. `later`: more commits, in batches as some other
 * work finds them (blame); git starts on `commits` at once and is given each batch as it comes,
 * until the batches end (or fail: their source has that error).
 */
export async function readCommitNodes(
  repo: GitOptions,
  commits: readonly string[],
  later?: AsyncIterable<readonly string[]>,
): Promise<Map<string, CommitNode>> {
  const out = new Map<string, CommitNode>();
  const unique = [...new Set(commits)].filter((c) => OBJECT_ID_PATTERN.test(c));
  if (later === undefined && unique.length === 0) return out;
  const lines = (ids: readonly string[]): string => ids.map((c) => `${c}\n`).join('');
  async function* input(): AsyncGenerator<string> {
    yield lines(unique);
    const sent = new Set(unique);
    for await (const batch of later as AsyncIterable<readonly string[]>) {
      const more = batch.filter((c) => !sent.has(c) && OBJECT_ID_PATTERN.test(c));
      for (const c of more) sent.add(c);
      if (more.length > 0) yield lines(more);
    }
  }
  const res = await runGitBuffer(repo, ['cat-file', '--batch'], {
    input: later === undefined ? lines(unique) : input(),
  });
  for (const obj of parseCatFileBatch(res.stdout)) {
    if (obj.kind !== 'found' || obj.type !== 'commit') continue;
    const head = obj.content.toString('latin1', 0, Math.min(obj.content.length, 64 * 1024));
    const end = head.indexOf('\n\n');
    const message = end < 0 ? '' : head.slice(end + 2);
    const lines = (end < 0 ? head : head.slice(0, end)).split('\n');
    const tree = /^tree ([0-9a-f]+)$/.exec(lines[0] ?? '')?.[1];
    if (tree === undefined)
      throw new GitOutputUnparseableError(`commit ${obj.oid} has no tree header`, {
        details: { commit: obj.oid },
      });
    const parents = lines.filter((l) => l.startsWith('parent ')).map((l) => l.slice(7));
    out.set(obj.oid, { commit: obj.oid, tree, parents, message });
  }
  return out;
}

/**
 * The patches (with raw records) of many tree pairs, from ONE `diff-tree --stdin` process per
 * slice of the pathspec (one process when there is none). Paths are literal, never globs.
 * `context`: lines of context in the patch text (`-U<n>`); the hunks are `-U0`'s whatever it is.
 * From the objects alone (diff-content.ts): `--text`, then a file whose blob is binary by content
 * has no hunks, as git's diff gives it with no attributes (one `cat-file` for blobs not seen yet).
 */
export async function diffTreePairs(
  repo: GitOptions,
  pairs: ReadonlyArray<{ from: string; to: string }>,
  paths: readonly string[] | null,
  context = 0,
): Promise<PairDiff[]> {
  return withBinaryHunksOff(repo, await textDiffs(repo, pairs, paths, context));
}

/** `diffs` with no hunks for a file whose blob is binary by content (one `cat-file` for blobs not seen yet). */
async function withBinaryHunksOff(repo: GitOptions, diffs: PairDiff[]): Promise<PairDiff[]> {
  const blobs = diffs.flatMap((d) =>
    d.files.flatMap((f) =>
      [
        [f.entry.srcMode, f.entry.srcId],
        [f.entry.dstMode, f.entry.dstId],
      ].flatMap(([mode, id]) => (isBlobMode(mode as string) ? [id as string] : [])),
    ),
  );
  const binary = await binaryBlobs(repo, blobs);
  if (binary.size === 0) return diffs;
  const isBinary = (id: string) => binary.has(id);
  return diffs.map((d) => ({ ...d, files: d.files.map((f) => withoutBinaryHunks(f, isBinary)) }));
}

/** diffTreePairs' git work: every file as text (`--text`), with the pinned settings. */
async function textDiffs(
  repo: GitOptions,
  pairs: ReadonlyArray<{ from: string; to: string }>,
  paths: readonly string[] | null,
  context: number,
): Promise<PairDiff[]> {
  if (pairs.length === 0) return [];
  const input = pairs.map((p) => `${p.from} ${p.to}\n`).join('');
  const run = async (spec: readonly string[]): Promise<PairDiff[]> => {
    const args = ['--literal-pathspecs', 'diff-tree', '--stdin', '-z', '--raw', '-p', `-U${context}`];
    args.push('--no-color', '--text');
    args.push(
      '--diff-algorithm=myers',
      ...DIFF_BASE_ARGS.filter((a) => a !== '-C'),
      ...(spec.length ? ['--', ...spec] : []),
    );
    const res = await runGitBuffer(pinnedFor(repo), args, { input });
    return parseDiffStdin(res.stdout, pairs);
  };
  if (paths === null) return run([]);
  if (paths.length === 0) return pairs.map((p) => ({ ...p, files: [] }));
  // A name that is not UTF-8 cannot be a pathspec (arguments reach git as UTF-8).
  if (!paths.every((p) => p.isWellFormed())) return picked(await run([]), paths);
  const slices = slicePaths(paths);
  const results: PairDiff[][] = [];
  for (const slice of slices) results.push(await run(slice));
  return pairs.map((p, i) => ({ ...p, files: results.flatMap((r) => r[i]?.files ?? []) }));
}

/**
 * diffTreePairs with no pathspec, keeping the files named by `paths` (by their name or the name
 * they were renamed from): for paths git is not given, because it cannot take them or because
 * matching many against every tree entry costs more than picking them here.
 */
export async function diffTreePairsPicked(
  repo: GitOptions,
  pairs: ReadonlyArray<{ from: string; to: string }>,
  paths: readonly string[],
  context = 0,
): Promise<PairDiff[]> {
  // Picked before the binary check: only the kept files' blobs are read.
  return withBinaryHunksOff(repo, picked(await textDiffs(repo, pairs, null, context), paths));
}

function picked(diffs: readonly PairDiff[], paths: readonly string[]): PairDiff[] {
  const wanted = new Set(paths);
  return diffs.map((d) => ({
    ...d,
    files: d.files.filter(
      (f) => wanted.has(f.entry.path) || (f.entry.oldPath !== null && wanted.has(f.entry.oldPath)),
    ),
  }));
}

function slicePaths(paths: readonly string[]): string[][] {
  const out: string[][] = [[]];
  let bytes = 0;
  for (const p of paths) {
    const size = Buffer.byteLength(p) + 1;
    if (bytes + size > MAX_PATHSPEC_BYTES && (out.at(-1) as string[]).length > 0) {
      out.push([]);
      bytes = 0;
    }
    (out.at(-1) as string[]).push(p);
    bytes += size;
  }
  return out;
}

/** Every commit reachable from `commit` and not from `notFrom` (what a merge brought in), newest first. */
export async function commitsBroughtIn(
  repo: Repo,
  commit: string,
  notFrom: readonly string[],
): Promise<string[]> {
  const res = await runGit(repo, ['rev-list', commit, '--not', ...notFrom, '--']);
  const walked = res.stdout.split('\n').filter(Boolean);
  await assertWalkedWhole(repo, walked, notFrom);
  return walked;
}

/**
 * A shallow clone's boundary is a root to git's walk, whatever parents its object names (and
 * even when they came in by other refs): a boundary among the commits walked whose parent is not
 * one of `notFrom` hides what lies beyond it, so the walk's answer may differ from a full clone's.
 * OBJECT_MISSING then, never a smaller set (a merge's anchor would lose its `ancestry`).
 */
async function assertWalkedWhole(repo: Repo, walked: readonly string[], notFrom: readonly string[]) {
  const cut = await shallowCommits(repo);
  const boundaries = walked.filter((c) => cut.has(c));
  if (boundaries.length === 0) return;
  const nodes = await readCommitNodes(repo, boundaries);
  for (const c of boundaries) {
    const hidden = nodes.get(c)?.parents.find((p) => !notFrom.includes(p));
    if (hidden !== undefined) throw missingParent(c, hidden, BEYOND_SHALLOW_BOUNDARY);
  }
}

/** The boundary commits of a shallow clone (its `shallow` file; read without blocking): empty when not shallow. */
export async function shallowCommits(repo: Repo): Promise<Set<string>> {
  const read = await readRegularFile(join(await commonDir(repo.gitDir), 'shallow')).catch(() => null);
  const text = read !== null && 'bytes' in read ? read.bytes.toString('latin1') : '';
  return new Set(text.split('\n').filter((l) => OBJECT_ID_PATTERN.test(l)));
}

/** The first-parent commits of `from..to`, oldest first (`anchor --range`). */
export async function firstParentRange(repo: GitOptions, from: string, to: string): Promise<string[]> {
  const res = await runGit(repo, ['rev-list', '--first-parent', '--reverse', to, '--not', from, '--']);
  return res.stdout.split('\n').filter(Boolean);
}

/**
 * `git blame --porcelain` of one file at one commit, optionally of lines START..END, parsed as git
 * writes it; `onCommit` hears each blamed commit the first time a line names it, while blame still
 * works. `text` is false when the output holds a NUL byte (git's diff may take the file as
 * binary); `renames` names, for each blamed commit that renamed the file, its path in the parent.
 * The repository's `blame.ignoreRevsFile` is dropped (`--no-ignore-revs-file`; an empty
 * `--ignore-revs-file=` still opens the configured files, and fails on one that is missing): each
 * line goes to the commit whose own change wrote it, never to an older one a config file chose.
 */
export async function blame(
  repo: GitOptions,
  commit: string,
  path: string,
  range?: { start: number; end: number },
  onCommit?: (commit: string) => void,
): Promise<{ lines: BlameLine[]; text: boolean; renames: Map<string, string> }> {
  assertRevisionSyntax(commit);
  const args = [
    'blame',
    '--porcelain',
    // The bytes git stores: a textconv driver (emptied by the hardening, but blame would still
    // try to run it) must not turn the file into another text.
    '--no-textconv',
    '--diff-algorithm=myers',
    '--no-ignore-revs-file',
  ];
  if (range !== undefined) args.push('-L', `${range.start},${range.end}`);
  const parser = new BlamePorcelainParser(onCommit);
  let text = true;
  // A name that is not UTF-8 reaches git through withByteArgs.
  await withByteArgs(['--literal-pathspecs'], [...args, commit, '--', path], (words) =>
    runGitStream(pinnedFor(repo), words, async (stdout) => {
      for await (const chunk of stdout as AsyncIterable<Buffer>) {
        if (text && chunk.includes(0)) text = false;
        parser.push(chunk);
      }
    }),
  ).catch((cause: unknown) => {
    // -L past the end: git names the file's length, which is what the caller needs to hear.
    const short = /has only (\d+) lines?/.exec(
      cause instanceof GitFailedError ? String(cause.details.stderr) : '',
    );
    if (range === undefined || short === null) throw cause;
    throw new InvalidArgumentError(
      `-L ${range.start},${range.end} starts past the end of ${path}, which has ${short[1]} lines at ${commit.slice(0, 12)}`,
      { cause, details: { path, start: range.start, end: range.end, lines: Number(short[1]) } },
    );
  });
  return { lines: parser.end(), text, renames: parser.renames() };
}

/**
 * What `path` is in `commit`'s tree (`blob`, `tree`, `commit` for a gitlink), null when nothing;
 * works for any name, newlines and bytes that are not UTF-8 included.
 */
export async function typeAt(repo: GitOptions, commit: string, path: string): Promise<string | null> {
  assertRevisionSyntax(commit);
  const res = await withByteArgs(
    ['--literal-pathspecs'],
    ['ls-tree', '-z', '--full-tree', commit, '--', path],
    (args) => runGitBuffer(repo, args),
  );
  return parseLsTree(decodeBytes(res.stdout)).get(path)?.type ?? null;
}

/**
 * The files at `commit` whose names read as `text` where a command line brought them: each byte
 * that is not UTF-8 as U+FFFD, as Node decodes an argument (a name that is not UTF-8 cannot reach
 * us any other way there). One `ls-tree -r` under the deepest directory `text` names whole.
 */
export async function filesReadAs(repo: GitOptions, commit: string, text: string): Promise<string[]> {
  assertRevisionSyntax(commit);
  const parts = text.split('/');
  const dir = parts
    .slice(
      0,
      Math.max(
        0,
        parts.findIndex((p) => p.includes('\ufffd')),
      ),
    )
    .join('/');
  const args = ['--literal-pathspecs', 'ls-tree', '-r', '-z', '--full-tree', commit];
  const res = await runGitBuffer(repo, dir === '' ? args : [...args, '--', dir]);
  return [...parseLsTree(decodeBytes(res.stdout))]
    .filter(([name, e]) => e.type === 'blob' && encodeBytes(name).toString('utf8') === text)
    .map(([name]) => name);
}

/**
 * The parents git takes each of `commits` to have, where a shallow clone's boundary (a root to
 * git, whatever parents its object names) changes them: blame then gives such a commit every line
 * older than itself. Null when the repository is not shallow (the objects' parents stand; no git
 * process), else one `rev-list`. A graft (`info/grafts`) changes nothing: our calls never read it.
 */
export async function parentsSeen(
  repo: Repo,
  commits: readonly string[],
): Promise<Map<string, string[]> | null> {
  if (!(await isShallow(repo)) || commits.length === 0) return null;
  for (const c of commits) assertRevisionSyntax(c);
  const res = await runGit(repo, ['rev-list', '--no-walk=unsorted', '--parents', ...commits, '--']);
  const out = new Map<string, string[]>();
  for (const line of res.stdout.split('\n')) {
    const [commit, ...parents] = line.split(' ');
    if (commit !== undefined && OBJECT_ID_PATTERN.test(commit)) out.set(commit, parents);
  }
  return out;
}

/**
 * The commits of `nodes` whose object names parents that git does not take them to have (a shallow
 * clone's boundary), each with its first parent: blame gives such a commit every older line, even
 * when the parent came in by other refs (a run's, an anchor's) and the commit's own change can be
 * worked out. `seen`: parentsSeen of them (null when the clone is not shallow: none).
 */
export function hiddenParents(
  nodes: readonly CommitNode[],
  seen: ReadonlyMap<string, string[]> | null,
): Map<string, string> {
  const out = new Map<string, string>();
  for (const n of seen === null ? [] : nodes)
    if (n.parents.length > 0 && seen?.get(n.commit)?.join(' ') !== n.parents.join(' '))
      out.set(n.commit, n.parents[0] as string);
  return out;
}

/** Whether the repository is a shallow clone (its `shallow` file is there): no git process. */
export async function isShallow(repo: Repo): Promise<boolean> {
  const common = await commonDir(repo.gitDir);
  return lstat(join(common, 'shallow')).then(
    () => true,
    () => false,
  );
}
