import { realpath } from 'node:fs/promises';
import type { Identity } from '../../../types/config.js';
import { runGit } from '../runner.js';

/** What git says about a workspace directory. The workspace's `.git` is only ever read. */
export interface WorkspaceProbe {
  /** Real path of the work tree's top level, or of the directory itself when it is not in a repository. */
  root: string;
  isRepository: boolean;
  /** Absolute path of the repository's `info/exclude` (the common dir's, for a linked worktree). */
  excludesFile: string | null;
}

export interface ProbeOptions {
  identity?: Identity;
  timeoutMs?: number;
}

/**
 * Finds the repository `dir` belongs to, if any. A directory outside any work tree (including one
 * where git refuses to look, e.g. owned by another user) is a plain directory: checkpoints work
 * there too.
 */
export async function probeWorkspace(dir: string, opts: ProbeOptions = {}): Promise<WorkspaceProbe> {
  const res = await runGit({ cwd: dir, ...opts }, ['rev-parse', '--path-format=absolute', '--show-toplevel', '--git-path', 'info/exclude'], { okExitCodes: [128] });
  const [top, exclude] = res.stdout.split('\n');
  if (res.exitCode !== 0 || !top || !exclude) return { root: dir, isRepository: false, excludesFile: null };
  return { root: await realpath(top), isRepository: true, excludesFile: exclude };
}

/**
 * The root commit that identifies a repository's history: the first one `rev-list
 * --max-parents=0 HEAD` lists (a history with merged-in unrelated roots has several). Null when
 * HEAD is unborn or the history cannot be read.
 */
export async function rootCommit(root: string, opts: ProbeOptions = {}): Promise<string | null> {
  const res = await runGit({ cwd: root, ...opts }, ['rev-list', '--max-parents=0', 'HEAD', '--'], { okExitCodes: [128] });
  if (res.exitCode !== 0) return null;
  const roots = res.stdout.split('\n').filter((line) => /^[0-9a-f]{40,64}$/.test(line));
  return roots[0] ?? null;
}
