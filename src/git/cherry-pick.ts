import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CommitInfo } from '../../types/snapshot.js';
import {
  CherryPickConflictError,
  DirtyWorkspaceError,
  GitFailedError,
  OperationInProgressError,
  RevisionNotFoundError,
} from '../errors.js';
import { getCommitInfo } from './commit-info.js';
import { hiddenChanges } from './commit.js';
import { previewPick, untrackedInTheWay } from './pick-collisions.js';
import { assertNotCheckedOut, branchRef, landsOn, symbolicTarget } from './branches.js';
import { readHead, resolveRevision, updateRef } from './refs.js';
import { sweepPickWorktrees, withPickWorktree } from './cherry-pick-worktree.js';
import type { Repo } from './repo.js';
import { runGit, type GitOptions } from './runner.js';
import { readIndexEntries } from './index-entries.js';
import { detectOperation, getRepoState, operationInProgress, readStatus } from './state.js';

export interface CherryPickOptions {
  /** Branch to apply onto (short name or refs/heads/...). Default: the checked-out branch (or detached HEAD). */
  onto?: string;
  /** Workspace-relative directories whose untracked or changed files do not make the workspace dirty (our own artifacts). */
  ignore?: readonly string[];
}

/**
 * Applies one commit (its change against its first parent) as a new commit on `onto`.
 *
 * Onto the checked-out branch: the workspace must be clean and idle (a marked file's change, or an
 * untracked or ignored path where the pick writes, counts); branch, index and files move. The pick
 * is previewed first (src/git/pick-collisions.ts): a conflict foreseen touches nothing at all.
 * Onto any other branch: the workspace's files and index are never touched; the pick runs in a
 * throw-away linked worktree outside the workspace and the branch then moves by compare-and-swap
 * (src/git/cherry-pick-worktree.ts; the worktrees a killed pick left are swept first).
 * On a conflict nothing is left changed (no moved ref, no CHERRY_PICK_HEAD, no stray worktree) and
 * CHERRY_PICK_CONFLICT is thrown with `details.files`. Also throws DIRTY_WORKSPACE,
 * OPERATION_IN_PROGRESS, REVISION_NOT_FOUND, AMBIGUOUS_ID, CONCURRENT_UPDATE.
 */
export async function cherryPick(repo: Repo, rev: string, opts: CherryPickOptions = {}): Promise<CommitInfo> {
  const onto = opts.onto?.replace(/^refs\/heads\//, '');
  const ontoRef = onto === undefined ? null : await landingRef(repo, onto);
  const source = await getCommitInfo(repo, rev);
  const head = await readHead(repo);
  const ignore = opts.ignore ?? [];
  // What a pick killed in its worktree left behind (each worktree's owner is checked, not our lock).
  await sweepPickWorktrees(repo);
  if (ontoRef === null) return pickInWorkspace(repo, source, ignore);
  if (ontoRef === head.ref) return pickInWorkspace(repo, source, ignore);
  return pickInWorktree(repo, source, ontoRef);
}

/**
 * The branch a pick `--onto NAME` lands on: for a symbolic ref, the branch at the end of its chain,
 * so that a checked-out branch is never moved from a temporary worktree behind its work tree's back.
 */
async function landingRef(repo: Repo, name: string): Promise<string> {
  const ref = await branchRef(repo, name);
  return landsOn(name, ref, await symbolicTarget(repo, ref), 'give a branch name');
}

async function pickInWorkspace(
  repo: Repo,
  source: CommitInfo,
  ignore: readonly string[],
): Promise<CommitInfo> {
  const state = await getRepoState(repo, ignore);
  if (state.operation !== null) {
    const op = operationInProgress(state.operation);
    throw new OperationInProgressError(
      `${op.what} in ${repo.topLevel}; finish it or give it up (${op.giveUp}) first`,
      { details: { operation: state.operation } },
    );
  }
  const before = state.sha;
  if (before === null)
    throw new RevisionNotFoundError(`branch ${state.branch ?? 'HEAD'} has no commits to cherry-pick onto`, {
      details: { rev: 'HEAD' },
    });
  if (state.isDirty) {
    throw new DirtyWorkspaceError(
      `${repo.topLevel} has uncommitted or untracked changes; commit or stash them, or cherry-pick --onto another branch`,
      { details: { workspace: repo.topLevel } },
    );
  }
  await assertNothingInTheWay(repo, source, before, state.branch ?? 'HEAD');
  // `cherry-pick --abort` rewrites ORIG_HEAD, which the user may still want for `git reset ORIG_HEAD`.
  const origHead = join(repo.gitDir, 'ORIG_HEAD');
  const savedOrigHead = await readFile(origHead).catch(() => null);
  const abort = async (): Promise<void> => {
    await runGit(pickOptions(repo), ['cherry-pick', '--abort']);
    await (savedOrigHead === null ? rm(origHead, { force: true }) : writeFile(origHead, savedOrigHead));
    await assertRestored(repo, before);
  };
  let files: string[] | null;
  try {
    files = await runPick(repo, source);
  } catch (error) {
    // A failure other than a conflict normally changes nothing; if it left a pick behind, undo it.
    if ((await detectOperation(repo.gitDir)) === 'cherry-pick') await abort();
    throw overwriteRefused(repo, error) ?? error;
  }
  if (files === null) return getCommitInfo(repo, 'HEAD');
  await abort();
  throw conflict(source, state.branch ?? 'HEAD', files);
}

async function pickInWorktree(repo: Repo, source: CommitInfo, ontoRef: string): Promise<CommitInfo> {
  const old = await resolveRevision(repo, ontoRef);
  await assertNotCheckedOut(repo, ontoRef, 'cherry-pick there instead');
  return withPickWorktree(repo, old, async (path) => {
    const worktree = worktreeOptions(repo, path);
    const files = await runPick(worktree, source);
    if (files !== null) throw conflict(source, ontoRef.slice('refs/heads/'.length), files);
    const sha = await resolveRevision(worktree, 'HEAD');
    await updateRef(repo, ontoRef, sha, old, { message: `agentgate: cherry-pick ${source.sha}` });
    return getCommitInfo(repo, sha);
  });
}

/**
 * What `git status` does not show but the pick would lose: a change to a file marked
 * assume-unchanged or skip-worktree (git would stop on it, exit 128), and an untracked or ignored
 * path where the pick writes (git overwrites an ignored file, and an abort then removes it). A
 * conflict the preview foresees is thrown before the work tree is touched at all.
 */
async function assertNothingInTheWay(
  repo: Repo,
  source: CommitInfo,
  head: string,
  onto: string,
): Promise<void> {
  // Every entry: the tracked paths tell what is not in the way (the marked ones alone would not).
  const index = await readIndexEntries(repo);
  const hidden = (await hiddenChanges(repo, null, index)).filter((e) => e.reason === 'not-compared');
  if (hidden.length > 0) {
    const paths = hidden.map((e) => e.path);
    throw new DirtyWorkspaceError(
      `${repo.topLevel} has changes to ${paths.length} file(s) marked assume-unchanged or skip-worktree (${paths.slice(0, 5).join(', ')}); commit or undo them, or cherry-pick --onto another branch`,
      { details: { workspace: repo.topLevel, paths } },
    );
  }
  const preview = await previewPick(repo, source, head);
  if (preview.conflicted.length > 0) throw conflict(source, onto, preview.conflicted);
  const tracked = new Set(index.map((e) => e.path));
  const paths = await untrackedInTheWay(repo, preview.writes, tracked);
  if (paths.length > 0) {
    throw new DirtyWorkspaceError(
      `the cherry-pick would overwrite or remove ${paths.length} untracked or ignored path(s) in ${repo.topLevel} (${paths.slice(0, 5).join(', ')}); move them away, or cherry-pick --onto another branch`,
      { details: { workspace: repo.topLevel, paths } },
    );
  }
}

/**
 * git's own refusal to overwrite a local change the checks before the pick cannot see: a file
 * marked assume-unchanged or skip-worktree that holds the index's content but whose stat data
 * the index no longer matches (git compares stat data alone there, and stops with exit 128).
 */
function overwriteRefused(repo: Repo, error: unknown): DirtyWorkspaceError | null {
  if (!(error instanceof GitFailedError)) return null;
  const stderr = String(error.details.stderr ?? '');
  if (!stderr.includes('would be overwritten by merge')) return null;
  const paths = [...stderr.matchAll(/^\t(.+)$/gm)].map((m) => m[1] as string);
  return new DirtyWorkspaceError(
    `git refuses to overwrite local changes in ${repo.topLevel} (${paths.slice(0, 5).join(', ')}); for a file marked assume-unchanged or skip-worktree, "git update-index --really-refresh" shows whether it changed; commit or undo the changes, or cherry-pick --onto another branch`,
    { cause: error, details: { workspace: repo.topLevel, paths } },
  );
}

/**
 * Runs the porcelain cherry-pick (the only porcelain here: it needs the merge machinery).
 * Returns null on success or the conflicted paths when it stopped on conflicts.
 */
async function runPick(opts: GitOptions, source: CommitInfo): Promise<string[] | null> {
  const mainline = source.parents.length > 1 ? ['-m', '1'] : [];
  const args = [
    'cherry-pick',
    '--no-edit',
    '--allow-empty',
    '--keep-redundant-commits',
    '--no-rerere-autoupdate',
    ...mainline,
    source.sha,
  ];
  try {
    await runGit(pickOptions(opts), args);
    return null;
  } catch (error) {
    if (!(error instanceof GitFailedError) || error.details.exitCode !== 1) throw error;
    const report = await readStatus(opts);
    const files = report.entries.filter((e) => e.kind === 'unmerged').map((e) => e.path);
    if (files.length === 0) throw error;
    return files;
  }
}

/**
 * How to run git in the temporary worktree. A Repo carries its own `gitDir` (passed as --git-dir),
 * which must not leak here: it would point the pick at the workspace's index and HEAD.
 */
function worktreeOptions(repo: Repo, path: string): GitOptions {
  const { identity, timeoutMs, config, binary } = repo;
  return {
    cwd: path,
    ...(identity && { identity }),
    ...(timeoutMs !== undefined && { timeoutMs }),
    ...(config && { config }),
    ...(binary !== undefined && { binary }),
  };
}

/** rerere could silently "resolve" a conflict from a recorded resolution: keep it out. */
function pickOptions(opts: GitOptions): GitOptions {
  return { ...opts, config: [...(opts.config ?? []), 'rerere.enabled=false'] };
}

/** After an abort, prove the workspace is back where it was; otherwise say so loudly. */
async function assertRestored(repo: Repo, sha: string): Promise<void> {
  const after = await getRepoState(repo);
  if (after.sha !== sha || after.isDirty || after.operation !== null) {
    throw new GitFailedError(
      `cherry-pick --abort did not restore ${repo.topLevel} (HEAD ${after.sha ?? 'none'}, expected ${sha}); inspect it by hand`,
      {
        details: {
          args: ['cherry-pick', '--abort'],
          expected: sha,
          actual: after.sha,
          operation: after.operation,
        },
      },
    );
  }
}

function conflict(source: CommitInfo, onto: string, files: string[]): CherryPickConflictError {
  return new CherryPickConflictError(
    `cherry-picking ${source.sha.slice(0, 12)} onto ${onto} conflicts in ${files.length} file(s): ${files.slice(0, 5).join(', ')}; nothing was changed`,
    {
      details: { sha: source.sha, onto, files },
    },
  );
}
