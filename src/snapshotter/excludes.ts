import { readdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { UnsafeWorkspaceError } from '../errors.js';
import { isInside, openRepo, type OpenOptions, type Repo } from '../git/repo.js';
import { commonDir } from '../fs/git-locks.js';
import { gitDirsInside } from '../git/dot-git.js';
import { nestedExcludes } from '../git/nested-repos.js';
import { firstTrackedIn } from '../git/state.js';
import { assertNoLinkInside, realPathOf } from '../fs/inside.js';
import { makeOwnDir } from '../fs/own-dir.js';
import { layout } from '../store/paths.js';

/** Our own directories, as configured. */
export interface OwnDirs {
  home: string;
  artifactsDir: string;
}

/**
 * Workspace-relative paths that are never snapshotted: an artifacts directory or an agentgate
 * home inside the workspace would otherwise end up in the commit they describe. Compared by real
 * path, so a home reached through a symlinked path is still recognised. A home or artifacts
 * directory that is the workspace itself cannot be left out of it: UNSAFE_WORKSPACE. With them, the
 * nested repositories `before --init` left out that no `info/exclude` line could name.
 */
export async function workspaceExcludes(repo: Repo, dirs: OwnDirs): Promise<string[]> {
  const [inside, nested, gitDirs] = await Promise.all([
    ownDirsInside(repo.topLevel, dirs),
    nestedExcludes(repo),
    gitDirsInside(repo.topLevel, repo.gitDir),
  ]);
  return [...inside.map((d) => d.rel), ...nested, ...gitDirs];
}

/**
 * workspaceExcludes for a capture (`before`, `after`, `iterate`), before anything is written
 * (checkedExcludes). A home inside the workspace that this call is about to create is made now,
 * marked as ours (makeOwnDir), so that a later call with another home never commits it; an
 * artifacts directory may be the user's: only the run's directory in it is ours (makeRunArtifactsDir).
 */
export async function captureExcludes(repo: Repo, dirs: OwnDirs): Promise<string[]> {
  await assertOutsideGitDir(repo, dirs);
  const inside = await checkedOwnDirs(repo, dirs);
  if (inside.some((d) => d.what === 'agentgate home')) await makeOwnDir(dirs.home);
  const [nested, gitDirs] = await Promise.all([
    nestedExcludes(repo),
    gitDirsInside(repo.topLevel, repo.gitDir),
  ]);
  return [...inside.map((d) => d.rel), ...nested, ...gitDirs];
}

/**
 * A home inside the workspace is within the agent's reach: a record directory it replaced by a
 * symbolic link (`.agentgate/runs -> /elsewhere`) would have our records read from, and written,
 * outside the home. Refused as a patch artifact path through a link is (UNSAFE_WORKSPACE), before
 * the run's records are read. For a home outside the workspace, a realpath per directory.
 */
export async function assertRecordsNotLinked(repo: Repo, home: string): Promise<void> {
  const { snapshots, runs, locks } = layout(home);
  for (const dir of [snapshots, runs, locks]) await assertNoLinkInside(repo.topLevel, join(dir, 'x'));
}

/**
 * workspaceExcludes for a capture or a workspace gate: a directory of ours inside the workspace
 * that holds tracked files would silently take the agent's changes there out of every snapshot,
 * and out of what a gate compares with the after tree, so it is refused (UNSAFE_WORKSPACE).
 */
export async function checkedExcludes(repo: Repo, dirs: OwnDirs): Promise<string[]> {
  return (await checkedOwnDirs(repo, dirs)).map((d) => d.rel);
}

async function checkedOwnDirs(repo: Repo, dirs: OwnDirs): Promise<OwnDirInside[]> {
  const inside = await ownDirsInside(repo.topLevel, dirs);
  // One ls-files for both directories; the one holding the tracked file is named.
  const tracked = await firstTrackedIn(
    repo,
    inside.map((d) => d.rel),
  );
  if (tracked === null) return inside;
  const path = tracked.split('/').join(sep);
  const { what, dir } = inside.find((d) => path === d.rel || path.startsWith(`${d.rel}${sep}`)) ?? inside[0]!;
  throw new UnsafeWorkspaceError(
    `the ${what} ${dir} lies inside the workspace and holds tracked files (${tracked}), which would be left out of every snapshot; put it outside the workspace or in a directory of its own (--home, --artifacts-dir)`,
    { details: { workspace: repo.topLevel, [detailKey(what)]: dir, tracked } },
  );
}

/**
 * A home or artifacts directory inside the repository's git dir (this work tree's, or the common
 * one where refs and objects live) is UNSAFE_WORKSPACE, before anything is written there: our
 * files (a patch, a log, a lock, a `.gitignore`) would land among git's own, a broken ref under refs/.
 */
export async function assertOutsideGitDir(repo: Repo, dirs: OwnDirs): Promise<void> {
  const gitDirs = await Promise.all([realPathOf(repo.gitDir), commonDir(repo.gitDir).then(realPathOf)]);
  for (const [what, dir] of ownDirs(dirs)) {
    const real = await realPathOf(dir);
    const gitDir = gitDirs.find((g) => isInside(g, real));
    if (gitDir === undefined) continue;
    throw new UnsafeWorkspaceError(
      `the ${what} ${dir} lies inside the git dir ${gitDir} of ${repo.topLevel}, so what we write there would land among git's refs and objects; put it outside the git dir (--home, --artifacts-dir)`,
      { details: { workspace: repo.topLevel, [detailKey(what)]: dir, gitDir } },
    );
  }
}

/**
 * Makes the home, marked as ours (makeOwnDir), when it is not there yet and lies inside `dir` (a
 * workspace): for a call that writes into the home (a lock) before captureExcludes could mark it.
 * A home inside the workspace's git dir is refused first (assertOutsideGitDir).
 */
export async function makeHomeInside(dir: string, dirs: OwnDirs, git: OpenOptions): Promise<void> {
  const [real, realHome] = await Promise.all([realPathOf(dir), realPathOf(dirs.home)]);
  if (realHome === real || !isInside(real, realHome)) return;
  // Not a repository yet (`--init`): there is no git dir to be inside of.
  const repo = await openRepo(dir, git).catch(() => null);
  if (repo !== null) await assertOutsideGitDir(repo, dirs);
  await makeOwnDir(dirs.home);
}

type OwnDir = 'agentgate home' | 'artifacts directory';
type OwnDirInside = { what: OwnDir; dir: string; rel: string };

function detailKey(what: OwnDir): 'home' | 'artifactsDir' {
  return what === 'agentgate home' ? 'home' : 'artifactsDir';
}

function ownDirs(dirs: OwnDirs): Array<[OwnDir, string]> {
  return [
    ['agentgate home', dirs.home],
    ['artifacts directory', dirs.artifactsDir],
  ];
}

/** Our directories inside the workspace, with their workspace-relative paths. */
async function ownDirsInside(topLevel: string, dirs: OwnDirs): Promise<OwnDirInside[]> {
  const out: OwnDirInside[] = [];
  for (const [what, dir] of ownDirs(dirs)) {
    const real = await realPathOf(dir);
    if (real === topLevel) {
      throw new UnsafeWorkspaceError(
        `the ${what} ${dir} is the workspace itself, so its files would be snapshotted; put it outside the workspace (--home, --artifacts-dir)`,
        {
          details: { workspace: topLevel, [detailKey(what)]: dir },
        },
      );
    }
    if (isInside(topLevel, real)) out.push({ what, dir, rel: relative(topLevel, real) });
  }
  return out;
}

/** Whether a directory that is not a repository yet holds anything besides our own home or artifacts. */
export async function hasUserFiles(dir: string, dirs: OwnDirs): Promise<boolean> {
  const ours = [await realPathOf(dirs.home), await realPathOf(dirs.artifactsDir)];
  const entries = await readdir(dir);
  return entries.some((name) => !ours.some((own) => isInside(join(dir, name), own)));
}
