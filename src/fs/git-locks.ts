import { readdir, readFile, readlink, realpath, rm, stat } from 'node:fs/promises';
import { isAbsolute, join, resolve, sep } from 'node:path';

/**
 * Stale git lock recovery, in one place. git takes `<file>.lock` before changing the index, HEAD,
 * packed-refs or a loose ref, and a git killed half-way leaves it behind, refusing every later call.
 * Such a file is provably ours, and dead, only when our own lock's previous holder died while
 * holding it: call this from a lock takeover (LockHandle.recovered), never otherwise.
 */
export interface OrphanedLocks {
  gitDir: string;
  /** The index file git used (a private index for a checkpoint store); default `<gitDir>/index`. */
  indexFile?: string;
  /**
   * When the dead holder took our lock (ms since the epoch). A lock file older than that belongs to
   * someone else (the user's own git) and is left alone; 0 when nobody else ever uses this git dir.
   */
  ownerSince: number;
}

/**
 * git's lock files that a dead holder of our lock may have left behind: each created while it held
 * our lock. A kill of node alone leaves its git children running, so one may still be in use.
 */
export async function orphanedGitLocks(o: OrphanedLocks): Promise<string[]> {
  if (!Number.isFinite(o.ownerSince)) return [];
  const common = await commonDir(o.gitDir);
  const refLocks = (await readdir(join(common, 'refs'), { recursive: true }).catch(() => []))
    .filter((name) => name.endsWith('.lock'))
    .map((name) => join(common, 'refs', name));
  const candidates = [
    `${o.indexFile ?? join(o.gitDir, 'index')}.lock`,
    join(o.gitDir, 'HEAD.lock'),
    join(common, 'packed-refs.lock'),
    ...refLocks,
  ];
  const found: string[] = [];
  for (const path of candidates) {
    const info = await stat(path).catch(() => null);
    // One second of slack for filesystems with coarse timestamps.
    if (info?.isFile() && info.mtimeMs >= o.ownerSince - 1000) found.push(path);
  }
  return found;
}

/**
 * Removes git's lock files that a dead holder of our lock left behind, for a git dir that only our
 * calls use (a checkpoint store's), whose git calls end with their caller. Returns the removed paths.
 */
export async function removeOrphanedGitLocks(o: OrphanedLocks): Promise<string[]> {
  const found = await orphanedGitLocks(o);
  for (const path of found) await rm(path, { force: true });
  return found;
}

/**
 * Removes one lock file older than `olderThanMs`. For a git dir only we use, while holding our
 * lock: a git call of ours times out sooner than that, so its owner was killed.
 */
export async function removeLockOlderThan(path: string, olderThanMs: number): Promise<boolean> {
  const info = await stat(path).catch(() => null);
  if (info === null || Date.now() - info.mtimeMs < olderThanMs) return false;
  await rm(path, { force: true });
  return true;
}

/** The repository's common dir, where refs live: a linked worktree's git dir names it in its `commondir` file. */
export async function commonDir(gitDir: string): Promise<string> {
  const named = (await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => '')).trim();
  if (named === '') return gitDir;
  return isAbsolute(named) ? named : join(gitDir, named);
}

/** How long a lock must stay unowned before it counts as abandoned (git renames it away at once). */
const LOCK_SETTLE_MS = 300;

/** The repository a lock belongs to: a git whose directory or `GIT_DIR` is here may own it. */
export interface LockRepository {
  workTree: string;
  gitDir: string;
}

/**
 * A lock file that stays with no possible owner was left by a git that died (a crash, a killed
 * job): it is removed. A possible owner is a process holding it open, or a live git working in
 * this repository: `git commit` closes `index.lock` while the user's editor is open and still
 * renames it into place afterwards. While one exists (or nobody can tell: no /proc), we wait up to
 * `waitMs`; 'held' if it is still there then.
 */
export async function removeAbandonedLock(
  path: string,
  repository: LockRepository,
  waitMs: number,
): Promise<'absent' | 'removed' | 'held'> {
  const repo = {
    workTree: await realOrSelf(repository.workTree),
    gitDir: await realOrSelf(repository.gitDir),
  };
  const deadline = Date.now() + waitMs;
  let unowned = 0;
  for (;;) {
    if ((await stat(path).catch(() => null)) === null) return 'absent';
    unowned = (await mayBeOwned(path, repo)) ? 0 : unowned + 1;
    // Two looks with no owner, a moment apart: git closes a lock file just before renaming it.
    if (unowned === 2) {
      await rm(path, { force: true });
      return 'removed';
    }
    if (Date.now() >= deadline) return 'held';
    await new Promise((resolve) => setTimeout(resolve, LOCK_SETTLE_MS));
  }
}

/**
 * Waits up to `waitMs` while a live git names `gitDir` (absolute) with `--git-dir`, as every git
 * of a checkpoint store, a repository only our calls use, is run: the git children of a killed
 * holder of our lock keep running after it (a kill of node alone), its lock files and temporary
 * packs still theirs. True once none does (or nobody can tell: no /proc, as before this wait);
 * false when one still does at the deadline. Read from each process's command line (or, for a git
 * that git started, its GIT_DIR): another user's git cannot make us wait (its environment is not
 * ours to read), nor a person's git in the workspace, which names another git dir or none.
 */
export async function gitsEnded(gitDir: string, waitMs: number): Promise<boolean> {
  const real = await realOrSelf(gitDir);
  const deadline = Date.now() + waitMs;
  for (;;) {
    const pids = await readdir('/proc').catch(() => null);
    if (pids === null) return true;
    let busy = false;
    for (const pid of pids)
      if (/^\d+$/.test(pid) && Number(pid) !== process.pid && (await namesGitDir(pid, real))) busy = true;
    if (!busy) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, LOCK_SETTLE_MS));
  }
}

/** Whether process `pid` is a live git run with `--git-dir=<gitDir>` (a real path). */
async function namesGitDir(pid: string, gitDir: string): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const name = /\((.*)\) (\S)/s.exec(status);
  if (name === null || !name[1]?.startsWith('git') || 'ZX'.includes(name[2] ?? 'X')) return false;
  const args = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
  // A git that git starts (repack's pack-objects) is told its repository in GIT_DIR.
  const env = async () => (await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => '')).split('\0');
  const named =
    args.find((a) => a.startsWith('--git-dir='))?.slice('--git-dir='.length) ??
    (await env()).find((e) => e.startsWith('GIT_DIR='))?.slice('GIT_DIR='.length);
  return named !== undefined && isAbsolute(named) && (await realOrSelf(named)) === gitDir;
}

/** Whether a live process may own the lock (Linux: /proc); true when that cannot be known. */
async function mayBeOwned(path: string, repo: LockRepository): Promise<boolean> {
  const pids = await readdir('/proc').catch(() => null);
  if (pids === null || (await stat('/proc/self/fd').catch(() => null)) === null) return true;
  for (const pid of pids) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    if ((await holdsOpen(pid, path)) || (await isGitIn(pid, repo))) return true;
  }
  return false;
}

async function holdsOpen(pid: string, path: string): Promise<boolean> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
  for (const fd of fds) if ((await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '')) === path) return true;
  return false;
}

/**
 * A live git (or git-* helper) whose repository may be this one: its `--git-dir` or `GIT_DIR` names
 * this git dir, or, with neither, it runs inside the work tree or the git dir. A git whose
 * directory or environment cannot be read counts as one (in doubt).
 */
async function isGitIn(pid: string, repo: LockRepository): Promise<boolean> {
  const status = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => '');
  const name = /\((.*)\) (\S)/s.exec(status);
  if (name === null || !name[1]?.startsWith('git') || 'ZX'.includes(name[2] ?? 'X')) return false;
  const cwd = await readlink(`/proc/${pid}/cwd`).catch(() => null);
  const environ = await readFile(`/proc/${pid}/environ`, 'utf8').catch(() => null);
  const cmdline = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null);
  if (cwd === null || environ === null || cmdline === null) return true;
  const args = cmdline.split('\0');
  if (args.some((a) => DAEMONS.includes(a))) return false;
  const option = args.findIndex((a) => a === '--git-dir' || a.startsWith('--git-dir='));
  const named =
    option >= 0
      ? (args[option]?.slice('--git-dir='.length) ?? '') || (args[option + 1] ?? '')
      : environ
          .split('\0')
          .find((e) => e.startsWith('GIT_DIR='))
          ?.slice('GIT_DIR='.length);
  if (named !== undefined && named !== '') return (await realOrSelf(resolve(cwd, named))) === repo.gitDir;
  return within(cwd, repo.workTree) || within(cwd, repo.gitDir);
}

/** Long-lived git helpers that stay in a repository but never take its index lock. */
const DAEMONS = ['fsmonitor--daemon', 'credential-cache--daemon'];

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : `${dir}${sep}`);
}

async function realOrSelf(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}
