import { access, lstat, readdir, readFile } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { HeadState } from '../../types/snapshot.js';
import { decodeBytes, fsPath, hasEscapedBytes } from '../fs/path-bytes.js';
import {
  GITLINK_MODE,
  uncomparedOf,
  type IndexEntry,
  type UncomparedEntry,
} from './parsers/ls-files-tagged.js';
import { EXACT_TREE_CONFIG, exactly } from './hardening.js';
import { readIndexEntries, readUnmergedPaths } from './index-entries.js';
import { parseStatusV2, type StatusEntry, type StatusReport } from './parsers/status.js';
import { readHead } from './refs.js';
import { openRepo, type Repo } from './repo.js';
import { runGit, runGitBuffer, type GitOptions } from './runner.js';

/** A multi-step operation git has stopped in the middle of (`am` shares rebase's machinery). */
export type RepoOperation = 'merge' | 'rebase' | 'am' | 'cherry-pick' | 'revert' | 'bisect';

/** For a message: "a merge is in progress; ... (git merge --abort)", "an am", "git bisect reset". */
export function operationInProgress(op: RepoOperation): { what: string; giveUp: string } {
  return {
    what: `${op === 'am' ? 'an' : 'a'} ${op} is in progress`,
    giveUp: op === 'bisect' ? 'git bisect reset' : `git ${op} --abort`,
  };
}

export interface RepoState {
  topLevel: string;
  headState: HeadState;
  /** Short branch name; null when detached. On an unborn branch, the branch that the first commit will create. */
  branch: string | null;
  /** HEAD's commit; null on an unborn branch. */
  sha: string | null;
  /** Tracked changes (staged or not) or untracked files that are not ignored. */
  isDirty: boolean;
  /**
   * A path whose staged content differs both from HEAD's and from the work tree's (`MM`): staging
   * the work tree would drop that staged version.
   */
  partlyStaged: boolean;
  unmergedPaths: string[];
  operation: RepoOperation | null;
}

/**
 * Reads the repository's state with one `git status` process plus a few file checks in the git dir.
 * Read-only: `--no-optional-locks` keeps status from rewriting the index behind a concurrent agent.
 * Changes under `ignore` (workspace-relative directories: our own artifacts) do not make it dirty.
 */
export async function getRepoState(
  repo: Repo,
  ignore: readonly string[] = [],
  untracked: UntrackedListing = 'normal',
): Promise<RepoState> {
  const [report, operation] = await Promise.all([readStatus(repo, untracked), detectOperation(repo.gitDir)]);
  // A branch whose name is not UTF-8 cannot be named in a record or an argument: like a ref outside
  // refs/heads/, it is no branch to commit on (the run gets a branch of its own).
  const branch = report.head !== null && hasEscapedBytes(report.head) ? null : report.head;
  const headState: HeadState = report.oid === null ? 'unborn' : branch === null ? 'detached' : 'branch';
  const excluded = excludedBy(ignore);
  const entries = report.entries.filter((e) => !excluded(e.path));
  return {
    topLevel: repo.topLevel,
    headState,
    branch,
    sha: report.oid,
    isDirty: entries.some((e) => e.kind !== 'ignored'),
    partlyStaged: await partlyStaged(repo.topLevel, entries),
    unmergedPaths: report.entries.filter((e) => e.kind === 'unmerged').map((e) => e.path),
    operation,
  };
}

/**
 * A staged version that neither HEAD nor the work tree holds: a path changed in both (`MM`, `AD`,
 * `RM`), or a staged deletion (`git rm --cached`, a rename's old path) of a file that is still in
 * the work tree, untracked, where staging the work tree would track it again and drop the deletion.
 */
async function partlyStaged(topLevel: string, entries: readonly StatusEntry[]): Promise<boolean> {
  if (entries.some((e) => (e.kind === 'ordinary' || e.kind === 'renamed') && !e.xy.includes('.')))
    return true;
  const untracked = entries.flatMap((e) => (e.kind === 'untracked' ? [e.path] : []));
  if (untracked.length === 0) return false;
  const deleted = entries.flatMap((e) =>
    e.kind === 'ordinary' && e.xy[0] === 'D'
      ? [e.path]
      : e.kind === 'renamed' && e.xy[0] === 'R'
        ? [e.origPath]
        : [],
  );
  if (deleted.some((path) => untracked.includes(path))) return true;
  // An untracked directory is listed once, as `dir/`: whether the file is in it, the disk says.
  const under = deleted.filter((path) => untracked.some((u) => u.endsWith('/') && path.startsWith(u)));
  const found = await Promise.all(
    under.map((path) =>
      lstat(fsPath(join(topLevel, path))).then(
        (st) => !st.isDirectory(),
        () => false,
      ),
    ),
  );
  return found.includes(true);
}

/** HEAD, conflicts and operations, without scanning the work tree. */
export interface RepoHead {
  headState: HeadState;
  /** The full ref HEAD points to (refs/heads/x), or null when detached. */
  ref: string | null;
  branch: string | null;
  sha: string | null;
  unmergedPaths: string[];
  operation: RepoOperation | null;
}

/**
 * Everything getRepoState tells except dirtiness, read from HEAD and the index alone: two small
 * processes and a few file reads instead of a status pass over every file, which on a large
 * work tree costs as much as staging it. For callers that stage everything next anyway. `index`:
 * the index file's bytes as the caller reads them (IndexState.bytes), for the conflicts.
 */
export async function getRepoHead(repo: Repo, index?: Promise<Buffer | undefined>): Promise<RepoHead> {
  const [head, unmergedPaths, operation] = await Promise.all([
    readHead(repo),
    (index ?? Promise.resolve(undefined)).then((bytes) => readUnmergedPaths(repo, bytes)),
    detectOperation(repo.gitDir),
  ]);
  // HEAD on a ref outside refs/heads/ (a remote-tracking ref, one of ours), or on a branch whose
  // name is not UTF-8, is no branch to commit on: it is handled as detached, so the iteration gets
  // a branch of its own.
  const branchRef =
    head.ref?.startsWith('refs/heads/') === true && !hasEscapedBytes(head.ref) ? head.ref : null;
  const headState: HeadState = head.sha === null ? 'unborn' : branchRef === null ? 'detached' : 'branch';
  const branch = branchRef === null ? null : branchRef.slice('refs/heads/'.length);
  return {
    headState,
    ref: branchRef,
    branch,
    sha: head.sha,
    unmergedPaths,
    operation,
  };
}

/**
 * Whether a status path lies in one of `excludes` (workspace-relative directories, such as our own
 * artifacts directory inside the workspace).
 */
export function excludedBy(excludes: readonly string[]): (path: string) => boolean {
  const prefixes = excludes.map((x) => x.split(sep).join('/').replace(/\/+$/, ''));
  return (path) => prefixes.some((x) => path === x || path.startsWith(`${x}/`));
}

/**
 * An uncompared entry and what lies at its path now: a file, a link, anything else (a directory put
 * in its place), or nothing.
 */
export type HiddenUncompared = UncomparedEntry & { onDisk: 'file' | 'symlink' | 'other' | 'absent' };

/**
 * The tracked paths git does not compare with the work tree (`update-index --assume-unchanged`,
 * `--skip-worktree`) that may not hold the index's content: status, diff and add never look at
 * them, so a change there (new content, a link pointing elsewhere, a directory in a file's place,
 * the file deleted) is invisible to every check built on them. Only a sparse checkout leaves a
 * tracked file out: a skip-worktree path that is absent is left out of the list only when the
 * repository has sparse checkout on. `index`: the entries, when the caller has read them already.
 */
export async function listUncompared(repo: Repo, index?: readonly IndexEntry[]): Promise<HiddenUncompared[]> {
  const all = uncomparedOf(index ?? (await readIndexEntries(repo, 'marked')));
  const found = await Promise.all(
    all.map((e) =>
      lstat(fsPath(join(repo.topLevel, e.path))).then(
        (st) => (st.isFile() ? 'file' : st.isSymbolicLink() ? 'symlink' : 'other'),
        () => 'absent' as const,
      ),
    ),
  );
  const listed = all.map((e, i) => ({ ...e, onDisk: found[i] ?? 'absent' }));
  // The setting is asked only when it decides something: no git process in a repository without one.
  const leftOut = (e: HiddenUncompared) => e.onDisk === 'absent' && e.skipWorktree;
  if (listed.some(leftOut) && (await sparseCheckoutOn(repo))) return listed.filter((e) => !leftOut(e));
  return listed;
}

/** `core.sparseCheckout` as git reads it for this repository (its own config, worktree config included). */
async function sparseCheckoutOn(repo: Repo): Promise<boolean> {
  const res = await runGit(repo, ['config', '--type=bool', '--get', 'core.sparseCheckout'], {
    okExitCodes: [1],
  });
  return res.exitCode === 0 && res.stdout.trim() === 'true';
}

/** What the work tree holds that `git status` (as readStatus runs it) does not show, inside submodules. */
export interface SubmoduleFindings {
  /** Status entries (tracked changes, untracked files), named from the top level (`lib/s.txt`). */
  changes: StatusEntry[];
  /** Marked paths that may hide a change (listUncompared), named from the top level. */
  uncompared: HiddenUncompared[];
}

/**
 * What changed inside the submodules, recursively, as `git status` finds it by default
 * (`--ignore-submodules=none`): tracked changes ("modified content") and untracked files that are
 * not ignored ("untracked content"), each as a status entry whose path is the top level's
 * (`lib/s.txt`), and the marked paths of each (listUncompared), which status does not compare.
 * readStatus leaves them out (`--ignore-submodules=dirty`); here each submodule is opened as a
 * repository of its own, so its own config's filters are switched off as ours are. A submodule
 * that cannot be opened as itself is reported whole, as changed: nothing vouches for it. One not
 * checked out (no `.git` there) holds nothing of the tree: anything in its directory is reported
 * as untracked content, though git status says nothing of it.
 */
export async function submoduleChanges(
  repo: Repo,
  untracked: UntrackedListing = 'normal',
  index?: readonly IndexEntry[],
): Promise<SubmoduleFindings> {
  const gitlinks = (index ?? (await readIndexEntries(repo, 'marked'))).filter((e) => e.mode === GITLINK_MODE);
  const found = await Promise.all(gitlinks.map(({ path }) => oneSubmodule(repo, path, untracked)));
  return { changes: found.flatMap((f) => f.changes), uncompared: found.flatMap((f) => f.uncompared) };
}

/**
 * Whether a submodule's directory is checked out (a `.git` there); or not (deinitialised, never
 * initialised) and `empty` (no directory at all is that too: git status sees what lies in its
 * place); or not and yet `filled`, whose content git status and add pass over in silence, as if
 * the directory were the submodule's. A directory we cannot list is `filled`: nothing vouches for it.
 */
export async function submoduleCheckout(dir: string): Promise<'checked-out' | 'empty' | 'filled'> {
  if ((await lstat(fsPath(join(dir, '.git'))).catch(() => null)) !== null) return 'checked-out';
  if ((await lstat(fsPath(dir)).catch(() => null))?.isDirectory() !== true) return 'empty';
  const entries = await readdir(fsPath(dir)).catch(() => null);
  return entries?.length === 0 ? 'empty' : 'filled';
}

/**
 * The marked submodules (assume-unchanged, skip-worktree: `hidden`'s gitlinks) whose commit is no
 * longer the index's: add leaves a marked gitlink as it is, so a submodule moved to another commit,
 * deleted, or replaced by a file or link would be recorded as it was, in silence. A directory not
 * checked out is taken as add takes an unmarked one (submoduleSkips names a filled one); a
 * checkout that cannot be opened as itself counts as moved: nothing vouches for it.
 */
export async function movedGitlinks(
  repo: Repo,
  hidden: readonly HiddenUncompared[],
): Promise<HiddenUncompared[]> {
  const gitlinks = hidden.filter((e) => e.mode === GITLINK_MODE);
  const moved = await Promise.all(
    gitlinks.map(async (e) => {
      if (e.onDisk !== 'other') return true;
      const dir = join(repo.topLevel, e.path);
      if ((await submoduleCheckout(dir)) !== 'checked-out') return false;
      const opened = await openRepo(dir, { identity: repo.identity, timeoutMs: repo.timeoutMs }).catch(
        () => null,
      );
      if (opened === null || opened.topLevel !== dir) return true;
      return (await readHead(likeParent(repo, opened))).sha !== e.oid;
    }),
  );
  return gitlinks.filter((_, i) => moved[i]);
}

/** One submodule's findings (see submoduleChanges), named from the top level of `repo`. */
async function oneSubmodule(
  repo: Repo,
  path: string,
  untracked: UntrackedListing,
): Promise<SubmoduleFindings> {
  const dir = join(repo.topLevel, path);
  const whole = (submodule: string): SubmoduleFindings => ({
    changes: [{ kind: 'ordinary', xy: '.M', submodule, path }],
    uncompared: [],
  });
  const checkout = await submoduleCheckout(dir);
  // Not checked out: nothing in its directory is the tree's ("untracked content").
  if (checkout !== 'checked-out')
    return checkout === 'filled' ? whole('S..U') : { changes: [], uncompared: [] };
  const opened = await openRepo(dir, { identity: repo.identity, timeoutMs: repo.timeoutMs }).catch(
    () => null,
  );
  if (opened === null || opened.topLevel !== dir) return whole('S.M.');
  const sub = likeParent(repo, opened);
  const [status, beyond] = await Promise.all([readStatus(sub, untracked), beyondStatus(sub, untracked)]);
  return {
    changes: [...status.entries, ...beyond.changes]
      .filter((e) => e.kind !== 'ignored')
      .map((e) => ({
        ...e,
        path: `${path}/${e.path}`,
        ...(e.kind === 'renamed' ? { origPath: `${path}/${e.origPath}` } : {}),
      })),
    uncompared: beyond.uncompared.map((e) => ({ ...e, path: `${path}/${e.path}` })),
  };
}

/**
 * What readStatus does not show in `repo`, from one reading of its index: its marked paths
 * (listUncompared) and what lies inside its submodules, their marked paths included
 * (submoduleChanges).
 */
export async function beyondStatus(
  repo: Repo,
  untracked: UntrackedListing,
  read?: readonly IndexEntry[],
): Promise<SubmoduleFindings> {
  const index = read ?? (await readIndexEntries(repo, 'marked'));
  const [marked, inside] = await Promise.all([
    listUncompared(repo, index),
    submoduleChanges(repo, untracked, index),
  ]);
  return { changes: inside.changes, uncompared: [...marked, ...inside.uncompared] };
}

/**
 * The first tracked file under one of `dirs` (workspace-relative directories), or null: the index
 * is asked, not the work tree.
 */
export async function firstTrackedIn(repo: Repo, dirs: readonly string[]): Promise<string | null> {
  if (dirs.length === 0) return null;
  const specs = dirs.map((d) => `:(top,literal)${d.split(sep).join('/')}`);
  const listed = await runGitBuffer(repo, ['ls-files', '-z', '--cached', '--', ...specs]);
  const first = listed.stdout.indexOf(0);
  return first <= 0 ? null : decodeBytes(listed.stdout.subarray(0, first));
}

/**
 * How untracked files are listed: `normal` names a directory holding only untracked files once
 * (`dir/`); `all` names each file, so that one file can be left out of a dirtiness check.
 */
export type UntrackedListing = 'normal' | 'all';

/** `sub` compared as its parent is: with EXACT_TREE_CONFIG when the parent has it. */
function likeParent(parent: GitOptions, sub: Repo): Repo {
  const pinned = parent.config?.includes(EXACT_TREE_CONFIG[0] as string) === true;
  return pinned ? exactly(sub) : sub;
}

/**
 * Runs `git status --porcelain=v2 -z --branch` and parses it. The options a repository's config
 * could change (untracked listing, submodule ignoring) are set explicitly.
 *
 * Submodules count as changed when their checked-out commit moved (`--ignore-submodules=dirty`),
 * not for edits inside them: finding those makes git run `status` inside each submodule, under
 * the submodule's own config, whose filters we have not neutralised (its clean filter would run).
 * A snapshot records only the submodule's commit anyway.
 */
export async function readStatus(
  opts: GitOptions,
  untracked: UntrackedListing = 'normal',
): Promise<StatusReport> {
  const args = [
    '--no-optional-locks',
    'status',
    '--porcelain=v2',
    '-z',
    '--branch',
    `--untracked-files=${untracked}`,
    '--ignore-submodules=dirty',
  ];
  // Decoded losslessly: a branch or file name that is not UTF-8 keeps its bytes (escaped).
  return parseStatusV2(decodeBytes((await runGitBuffer(opts, args)).stdout));
}

/**
 * Which operation, if any, is stopped half-way in this work tree: the same marker files git's own
 * status uses. A rebase is checked first, because it leaves cherry-pick markers behind while it runs.
 */
export async function detectOperation(gitDir: string): Promise<RepoOperation | null> {
  const names = [
    'rebase-merge',
    'rebase-apply',
    'rebase-apply/applying',
    'MERGE_HEAD',
    'CHERRY_PICK_HEAD',
    'REVERT_HEAD',
    'BISECT_LOG',
  ] as const;
  const found = await Promise.all(names.map((n) => exists(join(gitDir, n))));
  const has = (n: (typeof names)[number]): boolean => found[names.indexOf(n)] === true;
  if (has('rebase-apply/applying')) return 'am';
  if (has('rebase-merge') || has('rebase-apply')) return 'rebase';
  if (has('MERGE_HEAD')) return 'merge';
  if (has('CHERRY_PICK_HEAD')) return 'cherry-pick';
  if (has('REVERT_HEAD')) return 'revert';
  const sequenced = await sequencerOperation(gitDir);
  if (sequenced !== null) return sequenced;
  return has('BISECT_LOG') ? 'bisect' : null;
}

/** A multi-commit cherry-pick or revert that stopped between commits leaves only its todo list. */
async function sequencerOperation(gitDir: string): Promise<'cherry-pick' | 'revert' | null> {
  let todo: string;
  try {
    todo = await readFile(join(gitDir, 'sequencer', 'todo'), 'utf8');
  } catch {
    return null;
  }
  const first = todo.split('\n').find((l) => l.trim() !== '' && !l.startsWith('#'));
  if (first === undefined) return null;
  return /^revert\s/.test(first) ? 'revert' : 'cherry-pick';
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
