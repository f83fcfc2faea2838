import { lstat, mkdir, readdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Identity } from '../../types/config.js';
import { OBJECT_ID_PATTERN } from '../../types/ids.js';
import { GitFailedError } from '../errors.js';
import { randomHex } from '../fs/random.js';
import { parseCountObjects, type ObjectCounts } from './parsers/count-objects.js';
import { decodeBytes } from '../fs/path-bytes.js';
import { assertOwnWorkTree, assertUtf8GitDir, isRootOrHome, NO_WORK_TREE } from './repo.js';
import { runGit, runGitBuffer, type GitOptions } from './runner.js';
import { makeDirs } from '../fs/make-dirs.js';

/**
 * How git reaches one private checkpoint repository: its own git dir and index, the workspace as
 * work tree. Every call names `--git-dir` and `--work-tree` explicitly (GitOptions.gitDir/workTree),
 * so nothing from the workspace's own `.git` or the caller's environment can redirect it.
 */
export interface CheckpointRepo extends GitOptions {
  /** The workspace root; git runs here, so relative pathspecs are workspace-relative. */
  cwd: string;
  gitDir: string;
  workTree: string;
  indexFile: string;
}

export interface CheckpointRepoParams {
  workspace: string;
  gitDir: string;
  indexFile: string;
  /** Ignore files honoured as if they were the repository's own `core.excludesFile` (info/exclude, the user's global one). */
  excludesFile: string | null;
  identity?: Identity;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * The index is split (git's split-index): the entries live in a shared index file in the git dir
 * (`sharedindex.<id>`) and the index file holds only what changed since. A track then rewrites a
 * few kilobytes, not every entry of a large tree twice (`update-index` and `write-tree` each took
 * 55 ms on 100,000 files, 20 ms split; docs/performance.md). git writes a new shared index once a
 * fifth of the entries changed; one that no index has used for an hour goes when it does.
 */
const INDEX_CONFIG = ['core.splitIndex=true', 'splitIndex.sharedIndexExpire=1.hour.ago'];

/** Builds the git options for a checkpoint repository. Pure. */
export function checkpointRepo(p: CheckpointRepoParams): CheckpointRepo {
  return {
    cwd: p.workspace,
    gitDir: p.gitDir,
    workTree: p.workspace,
    indexFile: p.indexFile,
    config: [...INDEX_CONFIG, ...(p.excludesFile === null ? [] : [`core.excludesFile=${p.excludesFile}`])],
    ...(p.identity === undefined ? {} : { identity: p.identity }),
    ...(p.timeoutMs === undefined ? {} : { timeoutMs: p.timeoutMs }),
    ...(p.signal === undefined ? {} : { signal: p.signal }),
  };
}

/**
 * The disk space the index takes: the index file and the shared index files beside the objects
 * (see INDEX_CONFIG), or null when there is no index file.
 */
export async function indexBytes(repo: CheckpointRepo): Promise<number | null> {
  const index = await stat(repo.indexFile).catch(() => null);
  if (index === null) return null;
  const names = await readdir(repo.gitDir).catch(() => [] as string[]);
  const shared = await Promise.all(
    names
      .filter((name) => name.startsWith('sharedindex.'))
      .map((name) =>
        stat(join(repo.gitDir, name)).then(
          (st) => st.size,
          () => 0,
        ),
      ),
  );
  return shared.reduce((sum, size) => sum + size, index.size);
}

/** Settings written into the repository's own config at creation. */
const REPO_CONFIG: ReadonlyArray<readonly [string, string]> = [
  // Checkpoints are byte-exact: no line-ending conversion in either direction.
  ['core.autocrlf', 'false'],
  ['core.quotePath', 'false'],
  // No reflogs: a removed checkpoint ref must not keep its objects alive past retention.
  ['core.logAllRefUpdates', 'false'],
  // We run gc ourselves, under our lock, with temporary packs swept afterwards.
  ['gc.auto', '0'],
  ['core.symlinks', 'true'],
];

/**
 * `info/attributes` outranks every `.gitattributes` in the work tree: the workspace cannot make
 * the repository convert line endings, expand `$Id$`, re-encode or filter content on capture or restore.
 */
const REPO_ATTRIBUTES = '* -text -eol -crlf -ident -filter -working-tree-encoding\n';

/**
 * Creates the git dir with its config and attributes, or re-initialises one that is there (which
 * is harmless). A new one is built beside its place and renamed into it whole: `git init` writes
 * HEAD before the objects directory, and a reader that looked in between (reads take no lock)
 * took the new store for a damaged one. The caller holds the checkpoint lock, so a building
 * directory still there is a killed creation's.
 * git records the work tree as `core.worktree`; we pass `--work-tree` on every call regardless.
 */
export async function initCheckpointRepo(repo: CheckpointRepo): Promise<void> {
  if ((await lstat(repo.gitDir).catch(() => null)) !== null) return configure(repo);
  const parent = dirname(repo.gitDir);
  const prefix = `${basename(repo.gitDir)}.init-`;
  await makeDirs(parent);
  for (const name of await readdir(parent))
    if (name.startsWith(prefix)) await rm(join(parent, name), { recursive: true, force: true });
  const building = join(parent, `${prefix}${randomHex(4)}`);
  await mkdir(building);
  await configure({ ...repo, gitDir: building });
  await rename(building, repo.gitDir);
}

async function configure(repo: CheckpointRepo): Promise<void> {
  await runGit(repo, ['init', '--quiet']);
  for (const [key, value] of REPO_CONFIG) await runGit(repo, ['config', key, value]);
  await makeDirs(join(repo.gitDir, 'info'));
  await writeFile(join(repo.gitDir, 'info', 'attributes'), REPO_ATTRIBUTES);
}

/** What git says about a workspace directory. The workspace's `.git` is only ever read. */
export interface WorkspaceProbe {
  /** Real path of the work tree's top level, or of the directory itself when it is not in a repository. */
  root: string;
  isRepository: boolean;
  /** Absolute path of the repository's `info/exclude` (the common dir's, for a linked worktree). */
  excludesFile: string | null;
  /** Set when `dir` lies in a git dir (a bare repository, or inside a `.git`): git shows it no work tree. */
  inGitDir?: true;
  /** Absolute path of the repository's git dir, as git named it (absent from a cached probe: there it is `<root>/.git`). */
  gitDir?: string;
}

export interface ProbeOptions {
  identity?: Identity;
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * Finds the repository `dir` belongs to, if any. A directory outside any work tree is a plain
 * directory: checkpoints work there too. A repository git refuses to open because another user
 * owns it is not taken for a plain directory: that is UNSAFE_REPOSITORY_OWNER, with the way to
 * allow it.
 */
export async function probeWorkspace(dir: string, opts: ProbeOptions = {}): Promise<WorkspaceProbe> {
  const { lines, inGitDir } = await revParseLines(
    dir,
    opts,
    ['--show-toplevel', ['--git-path', 'info/exclude'], '--git-dir'],
    ['--path-format=absolute'],
  );
  const [top, exclude, gitDir] = lines;
  if (!top || !exclude || !gitDir)
    return { root: dir, isRepository: false, excludesFile: null, ...(inGitDir ? { inGitDir: true } : {}) };
  assertUtf8GitDir(dir, gitDir, exclude);
  const root = await realpath(top);
  // A repository at the home directory or `/` (dotfiles kept with `git init ~`) is no workspace:
  // a project below it that has no repository of its own is a plain directory, as outside git.
  if (isRootOrHome(root) || isRootOrHome(top)) {
    const own = await realpath(dir);
    if (own !== root) return { root: own, isRepository: false, excludesFile: null };
  }
  // core.worktree or a foreign .git file must not widen the checkpoints beyond the workspace.
  await assertOwnWorkTree(await realpath(dir), root, gitDir);
  return { root, isRepository: true, excludesFile: exclude, gitDir };
}

/**
 * `rev-parse` answers in `dir`, one per question (a question is one option, or an option and its
 * argument: `['--git-path', 'info/exclude']`), decoded without loss; none where git fails there (no
 * repository, or a question about the work tree asked in a git dir: then `inGitDir`). rev-parse has
 * no -z: when a path holds a line break, each question is asked on its own.
 */
export async function revParseLines(
  dir: string,
  opts: ProbeOptions,
  questions: ReadonlyArray<string | readonly string[]>,
  flags: readonly string[] = [],
): Promise<{ lines: string[]; inGitDir: boolean }> {
  const ask = async (args: string[]) => {
    const res = await runGitBuffer({ cwd: dir, ...opts }, ['rev-parse', ...flags, ...args]).catch(
      (cause: unknown) => {
        if (cause instanceof GitFailedError) return cause;
        throw cause;
      },
    );
    return res instanceof GitFailedError ? res : decodeBytes(res.stdout);
  };
  const all = await ask(questions.flat());
  if (all instanceof GitFailedError)
    return { lines: [], inGitDir: NO_WORK_TREE.test(String(all.details.stderr ?? '')) };
  const lines = all.split('\n');
  if (lines.length <= questions.length + 1) return { lines, inGitDir: false };
  const one = await Promise.all(questions.map((q) => ask([q].flat())));
  if (one.some((o) => o instanceof GitFailedError)) return { lines: [], inGitDir: false };
  return { lines: one.map((o) => String(o).replace(/\n$/, '')), inGitDir: false };
}

/**
 * The entries whose state decides what probeWorkspace answers for `dir` (as long as git and its
 * environment, which the runner fixes, stay the same), or null when the answer is not one to
 * keep: a workspace below its top level, a `.git` file or a linked worktree. In a repository: the
 * work tree and its `.git` directory (their owners: safe.directory), the config that could set
 * core.worktree or core.bare, and `commondir`. Outside one: a `.git` or a bare repository's
 * `HEAD` in the directory or any above it, where discovery would stop.
 */
export function probeInputs(dir: string, probe: WorkspaceProbe): string[] | null {
  if (probe.isRepository) {
    const gitDir = join(dir, '.git');
    if (probe.root !== dir || probe.excludesFile !== join(gitDir, 'info', 'exclude')) return null;
    return [dir, gitDir, join(gitDir, 'config'), join(gitDir, 'config.worktree'), join(gitDir, 'commondir')];
  }
  const inputs: string[] = [];
  for (let p = dir; ; p = dirname(p)) {
    inputs.push(join(p, '.git'), join(p, 'HEAD'));
    if (dirname(p) === p) return inputs;
  }
}

/**
 * The root commit that identifies a repository's history: the first one `rev-list
 * --max-parents=0 HEAD` lists (a history with merged-in unrelated roots has several). Null when
 * HEAD is unborn or the history cannot be read.
 */
export async function rootCommit(root: string, opts: ProbeOptions = {}): Promise<string | null> {
  const res = await runGit({ cwd: root, ...opts }, ['rev-list', '--max-parents=0', 'HEAD', '--'], {
    okExitCodes: [128],
  });
  if (res.exitCode !== 0) return null;
  const roots = res.stdout.split('\n').filter((line) => OBJECT_ID_PATTERN.test(line));
  return roots[0] ?? null;
}

/**
 * Packs the repository and drops unreachable objects older than `pruneAge` (a git date such as
 * `2.weeks.ago` or `now`). The caller holds the checkpoint lock and sweeps temporary files afterwards.
 */
export async function gcCheckpointRepo(repo: CheckpointRepo, pruneAge: string): Promise<void> {
  await runGit(repo, ['gc', '--quiet', `--prune=${pruneAge}`]);
}

/** Whether git reads `value` as an expiry date, as `gc --prune=<date>` does: `now`, `2.weeks.ago`, `2025-01-31`. */
export async function isExpiryDate(repo: CheckpointRepo, value: string): Promise<boolean> {
  const res = await runGit(
    repo,
    ['config', '--file', '/dev/null', '--type=expiry-date', '--default', value, '--get', 'agentgate.prune'],
    { okExitCodes: [128] },
  );
  return res.exitCode === 0;
}

/** Loose and packed objects and their sizes (`git count-objects -v`). */
export async function countObjects(repo: CheckpointRepo): Promise<ObjectCounts> {
  return parseCountObjects((await runGit(repo, ['count-objects', '-v'])).stdout);
}

/**
 * What one loose object adds to count-objects' `size`: the blocks it takes on disk (its size where
 * the file system reports no blocks); 0 when it is not a loose object.
 */
export async function looseObjectBytes(repo: CheckpointRepo, oid: string): Promise<number> {
  const st = await stat(join(repo.gitDir, 'objects', oid.slice(0, 2), oid.slice(2))).catch(() => null);
  return st === null ? 0 : Math.max(st.blocks > 0 ? st.blocks * 512 : 0, st.size);
}

/**
 * Packs the loose objects into one new pack and removes them (`git repack -d`): the cheap upkeep
 * run when loose objects pile up; unreachable objects are left to gc. The caller holds the lock.
 */
export async function packLooseObjects(repo: CheckpointRepo): Promise<void> {
  await runGit(repo, ['repack', '-d', '-q']);
}
