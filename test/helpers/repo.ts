/**
 * Test-side git: an independent oracle that sets up repositories and checks results without going
 * through the code under test. Every repository lives in its own mkdtemp directory.
 */
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

/** Git reads /dev/null as an empty global config; no test writes one (a file here would outlive the worker). */
const EMPTY_GLOBAL = '/dev/null';

/** Environment for the oracle git: pinned identity and dates, no system or global config, gpg off. */
export function oracleEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('GIT_')) env[k] = v;
  return {
    ...env,
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: EMPTY_GLOBAL,
    GIT_AUTHOR_NAME: 'Test Author',
    GIT_AUTHOR_EMAIL: 'test@example.com',
    GIT_COMMITTER_NAME: 'Test Author',
    GIT_COMMITTER_EMAIL: 'test@example.com',
    ...extra,
  };
}

/** Runs the oracle git in `cwd` and returns trimmed stdout. */
export function git(cwd: string, args: string[], opts: ExecFileSyncOptions = {}): string {
  const out = execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'core.hooksPath=/dev/null', ...args], {
    cwd,
    env: oracleEnv(),
    maxBuffer: 512 * 1024 * 1024,
    ...opts,
  });
  return out.toString().trimEnd();
}

/** Raw stdout as a Buffer (for byte-exact comparisons). */
export function gitRaw(cwd: string, args: string[], input?: Buffer | string): Buffer {
  return execFileSync('git', args, { cwd, env: oracleEnv(), input, maxBuffer: 512 * 1024 * 1024 });
}

export function tempDir(prefix = 'agentgate-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A fresh repository on branch `main` with no commits. */
export function initRepo(dir = tempDir('agentgate-repo-')): string {
  git(dir, ['init', '-q', '-b', 'main']);
  git(dir, ['config', 'commit.gpgsign', 'false']);
  return dir;
}

/** A fresh repository with one commit holding `files`. */
export function repoWithCommit(files: Record<string, string> = { 'README.md': 'hello\n' }): string {
  const dir = initRepo();
  writeFiles(dir, files);
  commitAll(dir, 'initial');
  return dir;
}

/**
 * A repository whose `main` and `branch` diverged from one base commit: `branch` commits
 * `onBranch`, then `main` commits `onMain`. Returns it on `main`, with the branch's commit.
 */
export function divergedRepo(
  base: Record<string, string>,
  onBranch: Record<string, string>,
  onMain: Record<string, string>,
  branch = 'side',
): { dir: string; branchTip: string } {
  const dir = repoWithCommit(base);
  git(dir, ['checkout', '-q', '-b', branch]);
  writeFiles(dir, onBranch);
  const branchTip = commitAll(dir, branch);
  git(dir, ['checkout', '-q', 'main']);
  writeFiles(dir, onMain);
  commitAll(dir, 'main');
  return { dir, branchTip };
}

export function writeFiles(dir: string, files: Record<string, string | Buffer>): void {
  for (const [rel, content] of Object.entries(files)) {
    const path = join(dir, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
  }
}

export function commitAll(dir: string, message: string): string {
  git(dir, ['add', '-A']);
  git(dir, ['commit', '-q', '--allow-empty', '--no-verify', '-m', message]);
  return head(dir);
}

export function head(dir: string): string {
  return git(dir, ['rev-parse', 'HEAD']);
}

export function remove(path: string): void {
  rmSync(path, { recursive: true, force: true });
}
