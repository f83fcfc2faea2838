/** Provenance test set-ups: a repository with a recorded run on a branch, merged back the ways people do. */
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openRepo, type Repo } from '../../src/git/repo.js';
import { provenanceSources, type ProvenanceSources } from '../../src/provenance/sources.js';
import type { Snapshotter } from '../../src/snapshotter/snapshotter.js';
import type { Snapshot } from '../../types/snapshot.js';
import { runCli, type CliResult } from './cli.js';
import { commitAll, git, remove, repoWithCommit, writeFiles } from './repo.js';
import { newSnapshotter } from './snapshotter.js';

export interface RunSetup {
  dir: string;
  snap: Snapshotter;
  src: ProvenanceSources;
  repo: Repo;
  snapshots: Snapshot[];
  cleanup: () => void;
}

/** `n` lines `prefix i` joined, with a final newline. */
export function lines(prefix: string, n: number, from = 1): string {
  return Array.from({ length: n }, (_, i) => `${prefix} ${from + i}\n`).join('');
}

/**
 * A repository on `main` with `base`, and a run `runId` recorded on branch `agent` (created from
 * main): each entry of `iterations` is written, then snapshotted as the next iteration. `dirty`
 * files are left uncommitted before the first iteration (they become the WIP before commit).
 */
export async function recordRun(
  iterations: Array<Record<string, string | null>>,
  opts: {
    base?: Record<string, string>;
    runId?: string;
    dirty?: Record<string, string>;
    setup?: RunSetup;
  } = {},
): Promise<RunSetup> {
  const setup = opts.setup ?? (await freshSetup(opts.base ?? { 'README.md': 'hello\n' }));
  const runId = opts.runId ?? 'run-a';
  git(setup.dir, ['checkout', '-q', '-B', `agent-${runId}`]);
  if (opts.dirty) writeFiles(setup.dir, opts.dirty);
  let n = 0;
  for (const files of iterations) {
    await setup.snap.captureBeforeState(setup.dir, { runId });
    for (const [path, content] of Object.entries(files))
      if (content === null) remove(join(setup.dir, path));
      else writeFiles(setup.dir, { [path]: content });
    n += 1;
    setup.snapshots.push(
      await setup.snap.captureAfterState(setup.dir, null, { runId, iteration: n, taskPrompt: `task ${n}` }),
    );
  }
  git(setup.dir, ['checkout', '-q', 'main']);
  return setup;
}

async function freshSetup(base: Record<string, string>): Promise<RunSetup> {
  const dir = repoWithCommit(base);
  const snap = newSnapshotter();
  return {
    dir,
    snap,
    src: provenanceSources(snap),
    repo: await openRepo(dir),
    snapshots: [],
    cleanup: () => {
      remove(dir);
      remove(snap.options.home);
    },
  };
}

/** The CLI on a set-up's workspace and home, with no artifacts directory or Actions context from outside. */
export function setupCli(s: RunSetup | undefined, args: string[]): CliResult {
  if (s === undefined) throw new Error('no setup');
  return runCli(['-C', s.dir, '--home', s.snap.options.home, ...args], {
    env: { AGENTGATE_ARTIFACTS_DIR: '', GITHUB_ACTIONS: '' },
  });
}

/** `git merge --squash` of `branch` onto the checked-out branch, committed; returns the commit. */
export function squash(dir: string, branch: string, message = 'squash'): string {
  git(dir, ['merge', '--squash', '-q', branch]);
  return commitAll(dir, message);
}

/**
 * `recordRun` for a test file: every set-up it makes is cleaned up after each test. Call it once,
 * at the file's top level (it registers the `afterEach`).
 */
export function recordRunsCleanedUp(): typeof recordRun {
  let setups: RunSetup[] = [];
  afterEach(() => {
    for (const s of setups) s.cleanup();
    setups = [];
  });
  return async (...args) => {
    const s = await recordRun(...args);
    // A run added to an earlier set-up (`setup`) is cleaned up with it.
    if (!setups.includes(s)) setups.push(s);
    return s;
  };
}

export { commitAll, git, writeFiles };
