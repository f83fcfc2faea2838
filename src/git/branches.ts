import { lstat, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BranchExistsError,
  ConcurrentUpdateError,
  GitFailedError,
  InvalidArgumentError,
  UnsafeWorkspaceError,
} from '../errors.js';
import { commonDir } from '../fs/git-locks.js';
import { decodeBytes, hasEscapedBytes } from '../fs/path-bytes.js';
import { assertBranchCanBeMade } from './branch-name.js';
import { listRefs, readHead, readRef, updateRef } from './refs.js';
import type { Repo } from './repo.js';
import { runGit, runGitBuffer, type GitOptions } from './runner.js';

/*
 * Branches: a name checked as git checks it, HEAD put on a branch without a checkout, a symbolic
 * ref's end, and whether another worktree has a branch checked out.
 */

/**
 * `refs/heads/NAME` for a branch name, checked with git's own rules: a revision expression
 * (`main~1`, `main@{1}`, `x^0`) or a malformed name is INVALID_ARGUMENT before anything is done.
 */
export async function branchRef(repo: GitOptions, name: string): Promise<string> {
  const ref = `refs/heads/${name}`;
  const valid = /[\0\n\r]/.test(name)
    ? null
    : await runGit(repo, ['check-ref-format', ref], { okExitCodes: [1] });
  if (valid?.exitCode !== 0 || name.startsWith('-') || name === 'HEAD')
    throw new InvalidArgumentError(`${JSON.stringify(name)} is not a valid branch name`, {
      details: { name },
    });
  return ref;
}

/**
 * Puts HEAD on `refs/heads/<name>` without a checkout, so files and index stay as they are: the
 * branch is created at HEAD's commit `sha` when it does not exist, and must already be at `sha`
 * when it does. On an unborn HEAD (`sha` null) the branch must not exist; the first commit makes it.
 * Returns the branch the commits will land on: `name`, or for a symbolic ref (`alias` -> `main`)
 * the branch at the end of its chain. HEAD is left as it is (not even rewritten) when it already
 * leads there, directly or through a chain. Throws INVALID_ARGUMENT (bad name, or a symbolic ref
 * to no branch), BRANCH_EXISTS (the branch is at another commit) or CONCURRENT_UPDATE (HEAD moved,
 * or the branch appeared, meanwhile).
 */
export async function switchToBranch(repo: Repo, name: string, sha: string | null): Promise<string> {
  const ref = await branchRef(repo, name);
  const [head, existing, target] = await Promise.all([
    readHead(repo),
    readRef(repo, ref),
    symbolicTarget(repo, ref),
  ]);
  if (head.sha !== sha)
    throw new ConcurrentUpdateError(
      `HEAD is at ${head.sha ?? '(none)'}, not ${sha ?? '(none)'}; it moved meanwhile`,
      { details: { ref: 'HEAD', expected: sha, actual: head.sha } },
    );
  const lands = landsOn(name, ref, target, 'choose another branch name');
  if (head.ref === lands) return lands.slice('refs/heads/'.length);
  await assertNotCheckedOut(repo, lands, 'run before in that worktree, or choose another branch name');
  if (existing !== null && existing !== sha) {
    throw new BranchExistsError(
      `branch ${name} already exists at ${existing.slice(0, 12)}, but HEAD is at ${sha === null ? 'no commit yet' : sha.slice(0, 12)}; check it out first ("git switch ${name}") or choose another branch name`,
      {
        details: { branch: name, branchSha: existing, headSha: sha },
      },
    );
  }
  if (existing === null && target === null)
    assertBranchCanBeMade(
      name,
      ref,
      (await listRefs(repo, 'refs/heads/')).map((r) => r.ref),
    );
  if (existing === null && sha !== null)
    await updateRef(repo, ref, sha, null, { message: 'agentgate: branch for the run' });
  await runGit(repo, ['symbolic-ref', '-m', `agentgate: switch to ${name}`, 'HEAD', ref]);
  return lands.slice('refs/heads/'.length);
}

/**
 * The branch commits on `name` (its `ref`) land on: `ref` itself, or for a symbolic ref (`alias` ->
 * `main`) the branch at the end of its chain, `target`. INVALID_ARGUMENT (`hint`: what to do) when
 * that chain ends at no branch.
 */
export function landsOn(name: string, ref: string, target: string | null, hint: string): string {
  const lands = target ?? ref;
  if (!lands.startsWith('refs/heads/') || hasEscapedBytes(lands))
    throw new InvalidArgumentError(
      `${name} is a symbolic ref to ${lands}, which is no branch to commit on; ${hint}`,
      {
        details: { branch: name, target: lands },
      },
    );
  return lands;
}

/**
 * The kind of special file (a FIFO, a socket, a device) standing where `ref`'s loose file lies, or
 * null. git opens a loose ref to read it, and a FIFO there holds every git call that reads the ref
 * until gitTimeoutMs: a check looks here first and never asks git about such a ref.
 */
export async function specialRefFile(repo: Repo, ref: string): Promise<string | null> {
  const info = await stat(await looseRefFile(repo, ref)).catch(() => null);
  if (info === null || info.isFile() || info.isDirectory()) return null;
  return info.isFIFO() ? 'FIFO' : info.isSocket() ? 'socket' : 'device';
}

/**
 * `ref`'s commit, or null when there is none; UNSAFE_WORKSPACE, before git is asked anything that
 * would hang or fail half-way, when a loose file stands there that git cannot read as a ref: a FIFO,
 * socket or device (git would wait on it until gitTimeoutMs), or a file left empty or garbled, which
 * git neither resolves nor replaces ("reference broken"). For a ref a capture is about to make.
 */
export async function readableRef(repo: Repo, ref: string): Promise<string | null> {
  const file = await looseRefFile(repo, ref);
  const special = await specialRefFile(repo, ref);
  if (special !== null) throw unreadableRef(repo, ref, file, `a ${special}`);
  const sha = await readRef(repo, ref);
  if (
    sha === null &&
    (await lstat(file).catch(() => null))?.isFile() === true &&
    (await garbled(repo, ref, sha))
  )
    throw unreadableRef(repo, ref, file, 'a file git cannot read as a ref (empty or garbled)');
  return sha;
}

/** Where `ref`'s loose file lies: refs live in the common dir, a linked worktree's too. */
async function looseRefFile(repo: Repo, ref: string): Promise<string> {
  return join(await commonDir(repo.gitDir), ref);
}

/**
 * Whether `ref`, whose loose file is a regular one and which resolves to `sha` (readRef's answer),
 * is neither a ref git resolves nor a symbolic ref: a file left empty or garbled.
 */
async function garbled(repo: Repo, ref: string, sha: string | null): Promise<boolean> {
  return sha === null && (await symbolicTarget(repo, ref)) === null;
}

function unreadableRef(repo: Repo, ref: string, file: string, what: string): UnsafeWorkspaceError {
  return new UnsafeWorkspaceError(
    `${ref} is ${what}, so no capture can make that ref: nothing was committed. Remove it once you know what it is ("rm ${file}"), then retry`,
    { details: { ref, file, workspace: repo.topLevel } },
  );
}

/**
 * Removes `ref`'s loose file when git cannot read it as a ref: a FIFO, socket or device standing
 * there, or a file left empty or garbled, which git neither resolves nor takes for a symbolic ref,
 * and refuses to delete ("reference broken"). For a ref of ours whose capture is being deleted: what
 * stands there is nobody's, and left, it would refuse that iteration's next capture. True when a
 * file was removed.
 */
export async function removeUnreadableRef(repo: Repo, ref: string): Promise<boolean> {
  const file = await looseRefFile(repo, ref);
  const info = await lstat(file).catch(() => null);
  if (info === null || info.isDirectory() || info.isSymbolicLink()) return false;
  if (info.isFile() && !(await garbled(repo, ref, await readRef(repo, ref)))) return false;
  await rm(file, { force: true });
  return true;
}

/**
 * The ref at the end of `ref`'s chain when it is a symbolic ref (git follows every link), else null.
 * A loose ref git cannot read (left empty or garbled by a power loss or a hand edit) is no link
 * either: git says "No such ref" (exit 128), and the caller finds it pointing at nothing.
 */
export async function symbolicTarget(repo: GitOptions, ref: string): Promise<string | null> {
  const res = await runGitBuffer(repo, ['symbolic-ref', '-q', ref], { okExitCodes: [1] }).catch(
    (error: unknown) => {
      if (error instanceof GitFailedError && /^fatal: No such ref/m.test(String(error.details.stderr ?? '')))
        return null;
      throw error;
    },
  );
  return res?.exitCode === 0 ? decodeBytes(res.stdout).trim() : null;
}

/**
 * Moving (or committing on) a branch that another worktree has checked out would make that
 * worktree see the change as reverted edits: INVALID_ARGUMENT, with what to do instead.
 */
export async function assertNotCheckedOut(repo: Repo, ref: string, hint: string): Promise<void> {
  const { stdout } = await runGit(repo, ['worktree', 'list', '--porcelain', '-z']);
  const records = stdout.split('\0');
  const at = records.indexOf(`branch ${ref}`);
  if (at >= 0) {
    const worktree = records
      .slice(0, at)
      .reverse()
      .find((r) => r.startsWith('worktree '))
      ?.slice('worktree '.length);
    throw new InvalidArgumentError(
      `${ref} is checked out in the worktree ${worktree ?? '(unknown)'}; ${hint}`,
      { details: { ref, worktree } },
    );
  }
}
