import { access, realpath } from 'node:fs/promises';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { InvalidArgumentError, PathOutsideWorkspaceError, UnsafeWorkspaceError } from '../errors.js';
import { commonDir } from '../fs/git-locks.js';
import { realPathOf } from '../fs/inside.js';
import { gitDirsInside } from '../git/dot-git.js';
import { assertSafeWorkspace, isInside } from '../git/repo.js';
import { isOwnData } from '../store/paths.js';

/** Workspace-relative path with `/` separators, as git prints it; `''` for the root. */
export function toGitPath(root: string, abs: string): string {
  return relative(root, abs).split(sep).join('/');
}

/** Absolute path of a git path inside the workspace. */
export function toAbsolute(root: string, gitPath: string): string {
  return gitPath === '' ? root : join(root, ...gitPath.split('/'));
}

/**
 * The physical location of `abs` without following `abs` itself: its parent directories are
 * resolved through symbolic links (the deepest one that exists), the last component is kept. A
 * link inside the workspace that leads outside therefore resolves outside.
 */
async function physical(abs: string): Promise<string> {
  const tail: string[] = [basename(abs)];
  let head = dirname(abs);
  for (;;) {
    try {
      return join(await realpath(head), ...tail.reverse());
    } catch {
      const up = dirname(head);
      if (up === head) return abs;
      tail.push(basename(head));
      head = up;
    }
  }
}

/**
 * Turns a user-given path (absolute, or relative to the workspace root) into a git path, refusing
 * with PATH_OUTSIDE_WORKSPACE anything that is, physically, outside the workspace, inside a `.git`
 * directory, or inside one of `forbidden` (our own home). Nothing is touched.
 */
export async function toWorkspaceGitPath(
  root: string,
  input: string,
  forbidden: readonly string[],
): Promise<string> {
  const refuse = (why: string): never => {
    throw new PathOutsideWorkspaceError(`${JSON.stringify(input)} ${why}; give a path inside ${root}`, {
      details: { path: input, workspace: root },
    });
  };
  if (input === '')
    throw new InvalidArgumentError(
      'an empty path names nothing; give a file or directory inside the workspace (or no path to mean all)',
      { details: { path: input } },
    );
  if (input.includes('\0')) refuse('is not a usable path');
  const abs = resolve(root, input);
  const real = abs === root ? root : await physical(abs);
  if (!isInside(root, real)) refuse('is outside the workspace');
  const gitPath = toGitPath(root, real);
  if (gitPath.split('/').some((c) => c.toLowerCase() === '.git'))
    refuse("is inside the repository's .git directory");
  if (forbidden.some((dir) => isInside(dir, real)))
    refuse("is inside agentgate's own data (its home or an excluded directory) or the repository's git dir");
  return gitPath;
}

/** True if `path` is `prefix` or below it (git paths; `''` contains everything). */
export function isUnder(path: string, prefix: string): boolean {
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * A checkpoint workspace's root must be a project directory: not `/` or a home directory
 * (assertSafeWorkspace), a `.git` directory, or the agentgate home's own data. UNSAFE_WORKSPACE.
 */
export function assertCheckpointRoot(root: string, home: string): void {
  assertSafeWorkspace(root);
  if (root.split(sep).includes('.git') || isOwnData(home, root))
    throw new UnsafeWorkspaceError(
      `refusing to use ${root} as a workspace: it is a .git directory or agentgate's own data; give the path of a project directory`,
      { details: { workspace: root } },
    );
}

/**
 * What a checkpoint store of `root` never captures, writes or deletes, and refuses as a path to
 * revert (`forbidden`, absolute, the home first): our home, the extra excludes, and the
 * repository's git dirs that lie inside the work tree under another name than `.git` (a `.git`
 * file naming `.realgit`: its config, refs and index are no workspace files). `excluded`: those
 * inside the workspace as git paths; `gitDirs`: the git dirs among them.
 */
export async function untouchable(
  root: string,
  home: string,
  excludePaths: readonly string[] = [],
  gitDir?: string,
): Promise<{ forbidden: string[]; excluded: string[]; gitDirs: string[] }> {
  if (gitDir !== undefined) await assertHomeOutsideGitDir(root, home, gitDir);
  const inner = gitDir === undefined ? [] : await gitDirsInside(root, gitDir);
  const gitDirs = inner.map((rel) => join(root, rel));
  const forbidden = [home, ...(await Promise.all(excludePaths.map(physicalPath))), ...gitDirs];
  const inside = (paths: string[]) =>
    paths.filter((p) => p !== root && isInside(root, p)).map((p) => toGitPath(root, p));
  return { forbidden, excluded: inside(forbidden), gitDirs: inside(gitDirs) };
}

/**
 * UNSAFE_WORKSPACE for a home inside the workspace's git dir or its common dir, as run snapshots
 * refuse one (assertOutsideGitDir): the store made there would land among the repository's own
 * files (`--home .git/refs/x`: every store file a broken ref of the workspace).
 */
async function assertHomeOutsideGitDir(root: string, home: string, gitDir: string): Promise<void> {
  const [realHome, ...gitDirs] = await Promise.all([
    realPathOf(home),
    realPathOf(gitDir),
    commonDir(gitDir).then(realPathOf),
  ]);
  const inside = gitDirs.find((g) => isInside(g, realHome));
  if (inside === undefined) return;
  throw new UnsafeWorkspaceError(
    `the agentgate home ${home} lies inside the git dir ${inside} of ${root}, so the checkpoint store would land among git's refs and objects; put it outside the git dir (--home)`,
    { details: { workspace: root, home, gitDir: inside } },
  );
}

/** The real path when it exists (so that comparisons with real workspace paths hold), else the resolved one. */
export async function physicalPath(path: string): Promise<string> {
  try {
    await access(path);
    return await realpath(path);
  } catch {
    return path;
  }
}
