import { lstat, readdir, readFile, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import type { Identity } from '../../types/config.js';
import {
  GitFailedError,
  NotARepositoryError,
  UnsafeWorkspaceError,
  WorkspaceNotFoundError,
} from '../errors.js';
import { isInside } from '../fs/inside.js';
import { decodeBytes, hasEscapedBytes } from '../fs/path-bytes.js';
import { configFiles, configPath, driverKeys } from './config-scan.js';
import { neutraliseDrivers, parseConfigEntries } from './hardening.js';
import { isRepositoryEntry } from './dot-git.js';
import { assertIndexNotSpecial, assertNoLinksWhereWeWrite } from './git-dir-links.js';
import { indexIsOfWorkTree } from './index-owner.js';
import { runGit, runGitBuffer, USER_CONTENT_PATTERN, userContentConfig, type GitOptions } from './runner.js';

/** Where a path lies relative to another: kept here too, where most git code looks for it. */
export { isInside };

/** A workspace repository, opened once per operation: where it is and how to run git on it safely. */
export interface Repo extends GitOptions {
  /** Real path of the work tree's top level; every command runs here. */
  topLevel: string;
  /** Absolute path of this work tree's git dir (for a linked worktree, its private dir). */
  gitDir: string;
  /** The object format git names (`sha1`, `sha256`): how long an object id is. */
  objectFormat: string;
  /** The core.attributesFile our git applies (the repository's, else the user's, else git's default), absolute; null for none. */
  attributesFile: string | null;
  /**
   * The core.autocrlf our git applies when no config file of the repository (or one it includes)
   * sets it: the user's, null for none. Absent when one does: git alone applies its includes' conditions.
   */
  autocrlf?: string | null;
}

export interface OpenOptions {
  identity?: Identity;
  timeoutMs?: number;
}

const ATTRIBUTES_KEY = 'core.attributesfile';
const AUTOCRLF_KEY = 'core.autocrlf';

/**
 * Opens the repository that contains `dir`. Reads the driver names in the repository's config so
 * that every later call can switch their programs off (the config is read, never executed).
 * Throws WORKSPACE_NOT_FOUND, NOT_A_REPOSITORY or UNSAFE_WORKSPACE: the latter also when the
 * repository's config, its `.git` file or a symbolic link in its git dir would make git work on
 * files outside the workspace.
 */
export async function openRepo(dir: string, opts: OpenOptions = {}): Promise<Repo> {
  const real = await resolveWorkspaceDir(dir);
  const base: GitOptions = { cwd: real, ...opts };
  // Most workspaces are the top level of a plain `.git` directory: its config is read while
  // rev-parse runs, and used only if rev-parse names that very directory (one git round less).
  const guess = join(real, '.git');
  const early = driverKeys(base, configFiles(guess, guess));
  early.catch(() => undefined);
  let paths: string[];
  try {
    paths = await refusedFirst(early, (signal) => repoPaths({ ...base, signal }));
  } catch (cause) {
    const stderr = cause instanceof GitFailedError ? String(cause.details.stderr) : '';
    // A `.git` file git cannot read as one (empty, not `gitdir: PATH`) ends its search there too.
    if (
      /not a git repository|invalid gitfile format|no path in gitfile|too large to be a \.git file/i.test(
        stderr,
      )
    ) {
      throw new NotARepositoryError(
        `${real} is not inside a git repository; run "git init" there or give the path of a repository`,
        { cause, details: { workspace: real } },
      );
    }
    if (NO_WORK_TREE.test(stderr)) throw noWorkTree(real, cause);
    throw cause;
  }
  const [topLevel, gitDir, commonDir, objectFormat] = paths;
  if (!topLevel || !gitDir || !commonDir || !objectFormat) throw noWorkTree(real);
  assertUtf8GitDir(real, gitDir, commonDir);
  assertSafeWorkspace(topLevel);
  if (!isInside(topLevel, real)) {
    throw new UnsafeWorkspaceError(
      `git places the work tree of ${real} at ${topLevel} (core.worktree?); refusing to snapshot outside the workspace`,
      { details: { workspace: real, topLevel } },
    );
  }
  await assertOwnWorkTree(real, topLevel, gitDir, commonDir);
  await assertNoLinksWhereWeWrite(real, gitDir, commonDir);
  await assertIndexNotSpecial(real, gitDir);
  const keys =
    gitDir === guess && commonDir === guess
      ? await early
      : await driverKeys(base, configFiles(commonDir, gitDir));
  let own: Promise<Map<string, string>> | undefined;
  const ownContent = () => (own ??= ownContentSettings({ ...base, cwd: topLevel }));
  const content = await userContentConfig(async () => new Set((await ownContent()).keys()));
  // Most repositories set no core.attributesFile of their own: then no git call asks for it.
  const ownAttributes = keys.includes(ATTRIBUTES_KEY) ? (await ownContent()).get(ATTRIBUTES_KEY) : undefined;
  const config = [...neutraliseDrivers(keys), ...content];
  const attributesFile = attributesFileOf(topLevel, ownAttributes, content);
  const autocrlf = keys.includes(AUTOCRLF_KEY) ? {} : { autocrlf: userValue(content, AUTOCRLF_KEY) };
  return { ...base, cwd: topLevel, topLevel, gitDir, objectFormat, config, attributesFile, ...autocrlf };
}

/** The value of `key` among the user's `key=value` pairs (userContentConfig), null when none sets it. */
function userValue(pairs: readonly string[], key: string): string | null {
  const pair = pairs.findLast((p) => p.startsWith(`${key}=`));
  return pair === undefined ? null : pair.slice(key.length + 1);
}

/**
 * The attributes file our git reads besides the work tree's and info/attributes: the repository's
 * own core.attributesFile, else the user's (its `content` pair, userContentConfig), else git's
 * default under $HOME (our calls pass no XDG_CONFIG_HOME). Relative to the top level, where every
 * call runs.
 */
function attributesFileOf(
  topLevel: string,
  own: string | undefined,
  content: readonly string[],
): string | null {
  const prefix = `${ATTRIBUTES_KEY}=`;
  const value = own ?? content.find((pair) => pair.startsWith(prefix))?.slice(prefix.length);
  if (value === undefined)
    return process.env.HOME ? join(process.env.HOME, '.config', 'git', 'attributes') : null;
  return value === '' ? null : configPath(value, topLevel);
}

/** The attributes file a directory `--init` is about to make a repository of will read (no config of its own yet). */
export async function userAttributesFile(dir: string): Promise<string | null> {
  return attributesFileOf(dir, undefined, await userContentConfig(() => Promise.resolve(new Set())));
}

/** git's words (LC_ALL=C) for a directory that lies in a git dir: a bare repository, or inside a `.git`. */
export const NO_WORK_TREE = /must be run in a work tree/i;

/**
 * A bare repository, or a directory inside a git dir: no work tree to snapshot or checkpoint (its
 * refs and objects would be taken for files). Never NOT_A_REPOSITORY, which `--init` would answer
 * with a `git init` inside the git dir.
 */
export function noWorkTree(real: string, cause?: unknown): UnsafeWorkspaceError {
  return new UnsafeWorkspaceError(
    `${real} is a bare repository or lies inside a git dir, so it has no work tree to snapshot or checkpoint; give the path of a checked-out work tree`,
    { cause, details: { workspace: real } },
  );
}

/**
 * A git dir whose path is not UTF-8 (its bytes kept by decodeBytes) is UNSAFE_WORKSPACE: it would
 * reach every file operation and git call after this one (checkpoints, locks, state), which take
 * paths as UTF-8 text. `paths` are the git dir and what lies in it (common dir, info/exclude).
 */
export function assertUtf8GitDir(real: string, gitDir: string, ...paths: string[]): void {
  const odd = [gitDir, ...paths].find(hasEscapedBytes);
  if (odd === undefined) return;
  throw new UnsafeWorkspaceError(
    `the git dir of ${real} lies at ${JSON.stringify(odd)}, a path that is not UTF-8, which agentgate cannot work with; move it to a UTF-8 path (git init --separate-git-dir=<new path>)`,
    { details: { workspace: real, gitDir } },
  );
}

/**
 * `ask`, unless `early` (the scan of the config we guessed) refuses the repository first: a FIFO
 * there would hold `ask`'s git until its timeout, reading it. Then `ask` is stopped.
 */
async function refusedFirst<T>(
  early: Promise<unknown>,
  ask: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const stop = new AbortController();
  const refused = early.then(
    () => new Promise<never>(() => undefined),
    (cause: unknown) => {
      if (!(cause instanceof UnsafeWorkspaceError)) return new Promise<never>(() => undefined);
      stop.abort();
      throw cause;
    },
  );
  return Promise.race([ask(stop.signal), refused]);
}

const PATH_QUESTIONS = ['--show-toplevel', '--git-dir', '--git-common-dir', '--show-object-format'];

/**
 * The work tree's top level, the git dir and the common dir, absolute, and the object format, in
 * one rev-parse; one each when a path holds a line break (rev-parse has no -z: its lines could not
 * be told apart).
 */
async function repoPaths(base: GitOptions): Promise<string[]> {
  const ask = async (questions: string[]) =>
    decodeBytes((await runGitBuffer(base, ['rev-parse', '--path-format=absolute', ...questions])).stdout);
  const lines = (await ask(PATH_QUESTIONS)).split('\n');
  if (lines.length <= PATH_QUESTIONS.length + 1) return lines;
  const one = await Promise.all(PATH_QUESTIONS.map((q) => ask([q])));
  return one.map((o) => (o.endsWith('\n') ? o.slice(0, -1) : o));
}

/**
 * The work tree git uses must be the one its `.git` sits in. `core.worktree` can point a
 * repository at a parent directory (a WIP commit would sweep up siblings), and a `.git` file can
 * point into an unrelated repository (our commits would land there). Allowed: a plain `.git`
 * directory, a linked worktree (`git worktree add`: its git dir names our `.git` file back), a
 * submodule (its git dir's `core.worktree` names us back) and a separate git dir that is not
 * another checkout's: neither inside its `.git` nor holding an index written for other files.
 */
export async function assertOwnWorkTree(
  real: string,
  topLevel: string,
  gitDir: string,
  commonDir: string = gitDir,
): Promise<void> {
  const owner = await dotGitOwner(real);
  const refuse = (why: string): never => {
    throw new UnsafeWorkspaceError(`${why}; refusing to work outside the workspace ${real}`, {
      details: { workspace: real, topLevel, gitDir },
    });
  };
  if (owner === null)
    return refuse(`no .git was found from ${real} upwards, yet git found the repository at ${gitDir}`);
  if (owner.dir !== topLevel) {
    // A .git git takes for no repository (empty, half made, naming nothing): git took the one above it.
    return refuse(
      !isRepositoryEntry(join(owner.dir, '.git'))
        ? `${join(owner.dir, '.git')} is no repository to git, so git took the repository at ${topLevel} above it; remove that .git, or run "git init" in ${owner.dir}`
        : `the repository in ${owner.dir} puts its work tree at ${topLevel} (core.worktree)`,
    );
  }
  const dotGit = join(owner.dir, '.git');
  const realGitDir = await realpath(gitDir);
  // A common dir elsewhere holds the objects and branches our commits would move: only a linked worktree has one.
  const shared = (await realpathOrNull(commonDir)) !== realGitDir;
  const sharing = () =>
    refuse(`${dotGit} takes its objects and branches from another repository (commondir: ${commonDir})`);
  if (owner.kind === 'dir') return shared ? sharing() : undefined;
  if (owner.kind === 'link') {
    if (shared) return sharing();
    if (realGitDir !== dotGit && realGitDir.split(sep).includes('.git'))
      return refuse(`${dotGit} is a symbolic link into another repository's git dir (${realGitDir})`);
    return assertOwnIndex(topLevel, realGitDir, refuse);
  }
  const named = await readPointer(join(realGitDir, 'gitdir'));
  if (named !== null && (await realpathOrNull(resolve(realGitDir, named))) === dotGit) return; // a linked worktree
  if (shared) return sharing();
  // `git sparse-checkout` in a submodule moves its core.worktree into config.worktree.
  const worktree =
    (await configValue(join(realGitDir, 'config.worktree'), 'core.worktree')) ??
    (await configValue(join(realGitDir, 'config'), 'core.worktree'));
  if (worktree !== null && (await realpathOrNull(resolve(realGitDir, worktree))) === owner.dir) return; // a submodule
  if (realGitDir.split(sep).includes('.git')) {
    refuse(`${join(owner.dir, '.git')} points into another repository's git dir (${realGitDir})`);
  }
  await assertOwnIndex(topLevel, realGitDir, refuse);
}

/**
 * A separate git dir (no linked worktree's, no submodule's) names no work tree of its own: it is
 * another checkout's when its index describes none of the files here (indexIsOfWorkTree).
 */
async function assertOwnIndex(
  topLevel: string,
  gitDir: string,
  refuse: (why: string) => never,
): Promise<void> {
  if ((await indexIsOfWorkTree(topLevel, gitDir)) !== false) return;
  refuse(
    `the git dir ${gitDir} is another checkout's: its index was written for files that are not in ${topLevel}. If it really is this work tree's own git dir, run "git status" in ${topLevel} to refresh its index, then retry; otherwise remove ${join(topLevel, '.git')}`,
  );
}

/** The nearest directory from `dir` upwards that holds a `.git` entry, and what that entry is. */
async function dotGitOwner(dir: string): Promise<{ dir: string; kind: 'dir' | 'file' | 'link' } | null> {
  for (let at = dir; ; at = dirname(at)) {
    const info = await lstat(join(at, '.git')).catch(() => null);
    if (info !== null)
      return { dir: at, kind: info.isSymbolicLink() ? 'link' : info.isFile() ? 'file' : 'dir' };
    if (dirname(at) === at) return null;
  }
}

/**
 * The content settings (USER_CONTENT_PATTERN) this repository sets itself, as git applies them:
 * an include on its condition, the worktree config only when enabled. Our calls read no system
 * or global config, and the command line sets none of these keys.
 */
async function ownContentSettings(repo: GitOptions): Promise<Map<string, string>> {
  const res = await runGit(repo, ['config', '-z', '--get-regexp', USER_CONTENT_PATTERN], {
    okExitCodes: [1],
  });
  // The last value of a key is the one git applies.
  return new Map(parseConfigEntries(res.stdout).map((e) => [e.key.toLowerCase(), e.value]));
}

async function configValue(file: string, key: string): Promise<string | null> {
  if ((await stat(file).catch(() => null))?.isFile() !== true) return null;
  const res = await runGit({ cwd: dirname(file) }, ['config', '--file', file, '--get', key], {
    okExitCodes: [1],
  });
  return res.exitCode === 0 ? res.stdout.trim() : null;
}

/** The path a `gitdir` file (or a `.git` file's `gitdir:` line) names, or null. */
async function readPointer(file: string): Promise<string | null> {
  const text = await readFile(file, 'utf8').catch(() => null);
  if (text === null) return null;
  return text.replace(/^gitdir: /, '').trim() || null;
}

async function realpathOrNull(path: string): Promise<string | null> {
  return realpath(path).catch(() => null);
}

/** Initialises a repository in `dir` on `branch` and returns it opened. */
export async function initRepo(dir: string, branch: string, opts: OpenOptions = {}): Promise<Repo> {
  const real = await resolveWorkspaceDir(dir);
  assertSafeWorkspace(real);
  await assertInitStaysHere(real);
  await runGit({ cwd: real, ...opts }, ['init', '--quiet', `--initial-branch=${branch}`]);
  return openRepo(real, opts);
}

/**
 * `git init` follows what it finds at `.git`: a symbolic link (to an empty directory anywhere) gets
 * the new repository, and the workspace's first commit, written where it points; a link inside a
 * half-made `.git` directory (`config`, `HEAD`, `hooks`, `refs`) has git write that file or
 * directory outside the workspace. A `.git` that is not a repository must be a plain directory
 * with no link in it, or absent.
 */
async function assertInitStaysHere(workspace: string): Promise<void> {
  const dotGit = join(workspace, '.git');
  const info = await lstat(dotGit).catch(() => null);
  if (info === null) return;
  const inside = info.isDirectory()
    ? (await readdir(dotGit, { withFileTypes: true }).catch(() => [])).find((e) => e.isSymbolicLink())
    : undefined;
  if (info.isDirectory() && inside === undefined) {
    await assertNoLinksWhereWeWrite(workspace, dotGit, dotGit);
    return;
  }
  const link = inside === undefined ? dotGit : join(dotGit, inside.name);
  throw new UnsafeWorkspaceError(
    `${link} is ${info.isDirectory() || info.isSymbolicLink() ? 'a symbolic link' : 'not a directory'} and ${workspace} is no repository yet: git init would write the new repository through it, outside the workspace; remove it, or run "git init" there yourself`,
    { details: { workspace, link } },
  );
}

/**
 * Resolves `dir` to its real path, or throws WORKSPACE_NOT_FOUND if it is missing or not a
 * directory, UNSAFE_WORKSPACE if its path holds a name that is not UTF-8.
 */
export async function resolveWorkspaceDir(dir: string): Promise<string> {
  const abs = resolve(dir);
  try {
    const real = await realpath(abs);
    if ((await stat(real)).isDirectory()) return real;
  } catch (cause) {
    const odd = await notUtf8Component(abs);
    if (odd !== null)
      throw new UnsafeWorkspaceError(
        `the path ${abs} holds a name that is not UTF-8 (${JSON.stringify(odd)}, shown with U+FFFD); Node.js cannot pass such a path on its command line or as its working directory, so rename that directory to a UTF-8 name`,
        { cause, details: { workspace: abs, name: odd } },
      );
    throw new WorkspaceNotFoundError(
      `workspace ${abs} does not exist; give the path of an existing directory`,
      { cause, details: { workspace: abs } },
    );
  }
  throw new WorkspaceNotFoundError(`workspace ${abs} is not a directory; give the path of a directory`, {
    details: { workspace: abs },
  });
}

/**
 * Node decodes argv and the working directory as UTF-8, so a directory whose name is not UTF-8
 * reaches us with U+FFFD in its place and is not found. The first such component of `abs` whose
 * directory holds an entry with that very (mis)decoding, as bytes that are not UTF-8; else null.
 */
async function notUtf8Component(abs: string): Promise<string | null> {
  if (!abs.includes('\ufffd')) return null;
  let at: string = sep;
  for (const part of abs.split(sep).filter((p) => p !== '')) {
    if (part.includes('\ufffd')) {
      const entries = await readdir(at, { encoding: 'buffer' }).catch(() => []);
      const odd = entries.some((e) => e.toString('utf8') === part && !Buffer.from(part, 'utf8').equals(e));
      if (odd) return part;
    }
    at = join(at, part);
  }
  return null;
}

/** Whether `dir` is `/` or a home directory, which no workspace may be (assertSafeWorkspace). */
export function isRootOrHome(dir: string): boolean {
  const home = process.env.HOME ? resolve(process.env.HOME) : homedir();
  return dir === sep || dir === resolve('/') || dir === home || dir === homedir();
}

/** Snapshotting `/` or a home directory has filled disks in other tools: refuse. */
export function assertSafeWorkspace(dir: string): void {
  if (isRootOrHome(dir)) {
    throw new UnsafeWorkspaceError(
      `refusing to use ${dir} as a workspace: it is the filesystem root or a home directory; give the path of a project directory`,
      { details: { workspace: dir } },
    );
  }
}
