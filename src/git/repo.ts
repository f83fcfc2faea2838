import { realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import type { Identity } from '../../types/config.js';
import { GitFailedError, NotARepositoryError, UnsafeWorkspaceError, WorkspaceNotFoundError } from '../errors.js';
import { DRIVER_CONFIG_PATTERN, neutraliseDrivers } from './hardening.js';
import { runGit, type GitOptions } from './runner.js';

/** A workspace repository, opened once per operation: where it is and how to run git on it safely. */
export interface Repo extends GitOptions {
  /** Real path of the work tree's top level; every command runs here. */
  topLevel: string;
  /** Absolute path of this work tree's git dir (for a linked worktree, its private dir). */
  gitDir: string;
}

export interface OpenOptions {
  identity?: Identity;
  timeoutMs?: number;
}

/**
 * Opens the repository that contains `dir`. Reads the driver names in the repository's config so
 * that every later call can switch their programs off (the config is read, never executed).
 * Throws WORKSPACE_NOT_FOUND, NOT_A_REPOSITORY or UNSAFE_WORKSPACE.
 */
export async function openRepo(dir: string, opts: OpenOptions = {}): Promise<Repo> {
  const real = await resolveWorkspaceDir(dir);
  const base: GitOptions = { cwd: real, ...opts };
  // The driver names are read while rev-parse finds the top level (config works from any subdirectory).
  const driverKeys = runGit(base, ['config', '--name-only', '--get-regexp', DRIVER_CONFIG_PATTERN], { okExitCodes: [1] });
  driverKeys.catch(() => undefined);
  let out: string;
  try {
    out = (await runGit(base, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir'])).stdout;
  } catch (cause) {
    if (cause instanceof GitFailedError && /not a git repository/i.test(String(cause.details.stderr))) {
      throw new NotARepositoryError(`${real} is not inside a git repository; run "git init" there or give the path of a repository`, { cause, details: { workspace: real } });
    }
    throw cause;
  }
  const [topLevel, gitDir] = out.split('\n');
  if (!topLevel || !gitDir) {
    throw new NotARepositoryError(`${real} has no work tree (bare repository?); give the path of a checked-out repository`, { details: { workspace: real } });
  }
  assertSafeWorkspace(topLevel);
  if (!isInside(topLevel, real)) {
    throw new UnsafeWorkspaceError(`git places the work tree of ${real} at ${topLevel} (core.worktree?); refusing to snapshot outside the workspace`, { details: { workspace: real, topLevel } });
  }
  const config = neutraliseDrivers((await driverKeys).stdout.split('\n').filter(Boolean));
  return { ...base, cwd: topLevel, topLevel, gitDir, config };
}

/** Initialises a repository in `dir` on `branch` and returns it opened. */
export async function initRepo(dir: string, branch: string, opts: OpenOptions = {}): Promise<Repo> {
  const real = await resolveWorkspaceDir(dir);
  assertSafeWorkspace(real);
  await runGit({ cwd: real, ...opts }, ['init', '--quiet', `--initial-branch=${branch}`]);
  return openRepo(real, opts);
}

/** Resolves `dir` to its real path, or throws WORKSPACE_NOT_FOUND if it is missing or not a directory. */
export async function resolveWorkspaceDir(dir: string): Promise<string> {
  const abs = resolve(dir);
  try {
    const real = await realpath(abs);
    if ((await stat(real)).isDirectory()) return real;
  } catch (cause) {
    throw new WorkspaceNotFoundError(`workspace ${abs} does not exist; give the path of an existing directory`, { cause, details: { workspace: abs } });
  }
  throw new WorkspaceNotFoundError(`workspace ${abs} is not a directory; give the path of a directory`, { details: { workspace: abs } });
}

/** Snapshotting `/` or a home directory has filled disks in other tools: refuse. */
export function assertSafeWorkspace(dir: string): void {
  const home = process.env.HOME ? resolve(process.env.HOME) : homedir();
  if (dir === sep || dir === resolve('/') || dir === home || dir === homedir()) {
    throw new UnsafeWorkspaceError(`refusing to use ${dir} as a workspace: it is the filesystem root or a home directory; give the path of a project directory`, { details: { workspace: dir } });
  }
}

/** True if `child` is `parent` or below it. */
export function isInside(parent: string, child: string): boolean {
  const rel = relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
