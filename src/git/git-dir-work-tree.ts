import { readFile, realpath } from 'node:fs/promises';
import { basename, dirname, resolve } from 'node:path';
import { isInside } from '../fs/inside.js';
import { probeWorkspace, revParseLines, type ProbeOptions } from './checkpoint-repo.js';

/**
 * The top level of the work tree whose git dir holds `dir` (`hook install --project` run from
 * inside a `.git`): `<repo>/.git/refs` gives `<repo>`, a linked worktree's `<repo>/.git/worktrees/<name>`
 * the worktree its `gitdir` file names, a submodule's `<super>/.git/modules/<name>` the work tree
 * its `core.worktree` names. Each only when git, run there, takes it for its top level with this
 * very git dir (a worktree moved or removed since, a `core.worktree` naming another checkout, is
 * not). null for a git dir with no such work tree (a bare repository); undefined when `dir` lies
 * in no git dir.
 */
export async function workTreeOfGitDir(
  dir: string,
  opts: ProbeOptions = {},
): Promise<string | null | undefined> {
  const [bare, gitDir] = (await revParseLines(dir, opts, ['--is-bare-repository', '--absolute-git-dir']))
    .lines;
  if (!gitDir) return undefined;
  const own = await realpath(gitDir);
  if (!isInside(own, await realpath(dir))) return undefined;
  if (bare === 'true') return null;
  // core.worktree (a submodule's git dir), then a linked worktree's `gitdir`, then beside `.git`.
  const [configured] = (await revParseLines(dir, opts, ['--show-toplevel'])).lines;
  const named = await readFile(resolve(own, 'gitdir'), 'utf8').catch(() => '');
  const candidates = [
    configured,
    named.trim() === '' ? undefined : dirname(resolve(own, named.trim())),
    basename(own) === '.git' ? dirname(own) : undefined,
  ];
  for (const candidate of candidates)
    if (candidate && (await isWorkTreeOf(candidate, own, opts))) return realpath(candidate);
  return null;
}

/** Whether git in `top` takes it for its top level, with `gitDir` (a real path) as its git dir. */
async function isWorkTreeOf(top: string, gitDir: string, opts: ProbeOptions): Promise<boolean> {
  const real = await realpath(top).catch(() => null);
  if (real === null) return false;
  const [shown, itsGitDir] = (await revParseLines(real, opts, ['--show-toplevel', '--absolute-git-dir']))
    .lines;
  if (!shown || !itsGitDir || (await realpath(itsGitDir)) !== gitDir) return false;
  const probe = await probeWorkspace(real, opts);
  return probe.isRepository && probe.root === real;
}
