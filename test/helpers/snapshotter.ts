/**
 * Test-side helpers for the run-snapshot suites: a Snapshotter with a home of its own, and a
 * fingerprint of everything a user could see change in a repository (checked with the oracle git).
 */
import { existsSync, readdirSync, readFileSync, lstatSync, readlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import { Snapshotter, type SnapshotterOptions } from '../../src/snapshotter/snapshotter.js';
import type { Snapshot } from '../../types/snapshot.js';
import { git, gitRaw, tempDir, writeFiles } from './repo.js';

/** A Snapshotter on a fresh temporary home (artifacts under it unless overridden). */
export function newSnapshotter(overrides: Partial<SnapshotterOptions> = {}): Snapshotter {
  const home = overrides.home ?? tempDir('agentgate-home-');
  return new Snapshotter({
    home,
    artifactsDir: join(home, 'artifacts'),
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 60_000,
    lockTimeoutMs: 10_000,
    onDirty: 'wip-commit',
    ...overrides,
  });
}

/**
 * Everything a user could see change in a repository: HEAD and ORIG_HEAD, every ref, the index
 * (mode, object, stage, path), status, worktrees, git's in-progress markers and every work-tree
 * file's bytes, mode and link target. Two equal fingerprints mean nothing visible has changed.
 */
export function fingerprint(dir: string): string {
  const files: Record<string, string> = {};
  const walk = (d: string): void => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (name === '.git' && d === dir) continue;
      const st = lstatSync(p);
      if (st.isSymbolicLink()) files[relative(dir, p)] = `-> ${readlinkSync(p)}`;
      else if (st.isDirectory()) walk(p);
      else files[relative(dir, p)] = `${st.mode.toString(8)} ${readFileSync(p).toString('base64')}`;
    }
  };
  walk(dir);
  const gitDir = join(dir, '.git');
  const read = (name: string): string | null =>
    existsSync(join(gitDir, name)) ? readFileSync(join(gitDir, name), 'utf8') : null;
  return JSON.stringify(
    {
      head: read('HEAD'),
      origHead: read('ORIG_HEAD'),
      refs: git(dir, ['for-each-ref', '--format=%(refname) %(objectname)']),
      // Stat times may change (files rewritten with the same bytes): mode, object, stage, path only.
      index: git(dir, ['ls-files', '-s']),
      status: git(dir, ['status', '--porcelain=v2', '--branch', '--untracked-files=all']),
      worktrees: git(dir, ['worktree', 'list', '--porcelain']),
      adminDirs: existsSync(join(gitDir, 'worktrees')) ? readdirSync(join(gitDir, 'worktrees')).sort() : [],
      markers: [
        'MERGE_HEAD',
        'MERGE_MSG',
        'CHERRY_PICK_HEAD',
        'REVERT_HEAD',
        'AUTO_MERGE',
        'sequencer',
        'rebase-merge',
        'rebase-apply',
      ].filter((n) => existsSync(join(gitDir, n))),
      files,
    },
    null,
    1,
  );
}

/** The full message of a commit, as git stores it. */
export function messageOf(dir: string, sha: string): string {
  const raw = gitRaw(dir, ['cat-file', 'commit', sha]).toString('utf8');
  return raw.slice(raw.indexOf('\n\n') + 2);
}

export { expectCode } from './codes.js';

/** One iteration `n` of run `runId` in `ws`: before, `files` written, after. */
export async function recordIteration(
  s: Snapshotter,
  ws: string,
  runId: string,
  n: number,
  files: Record<string, string>,
): Promise<Snapshot> {
  const before = await s.captureBeforeState(ws, { runId });
  writeFiles(ws, files);
  return s.captureAfterState(ws, before, { runId, iteration: n, taskPrompt: `task ${n}` });
}
