import type { Identity, OnDirty } from '../../types/config.js';
import type { RunRecord } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { SnapshotStore } from '../store/snapshot-store.js';

export interface SnapshotterOptions {
  home: string;
  artifactsDir: string;
  identity: Identity;
  gitTimeoutMs: number;
  lockTimeoutMs: number;
  onDirty: OnDirty;
  /**
   * A workspace on this machine (the CLI's `-C`) that stands in for a recorded workspace that is not
   * here: a store copied from, or fetched from, another machine.
   */
  localWorkspace?: string;
  /** The local workspace stands in for any recorded one (a command about one run, given -C). */
  localWorkspaceWins?: boolean;
}

/**
 * What the snapshotter's parts (before, after, iterate, patches, verify, maintenance) share: the
 * `Snapshotter` itself, seen through the few members they use.
 */
export interface SnapshotterCore {
  readonly options: SnapshotterOptions;
  readonly store: SnapshotStore;
  gitOptions(): { identity: Identity; timeoutMs: number };
  withLocalPaths(snapshot: Snapshot): Promise<Snapshot>;
  withLocalWorkspace(run: RunRecord): Promise<RunRecord>;
  getSnapshot(idOrSha: string, opts?: { exact?: boolean }): Promise<Snapshot>;
}

/** The branch an initialised repository, or a start with no branch, gets. */
export const DEFAULT_BRANCH = 'main';

/** Where each run's iterations are kept reachable in the workspace's repository. */
export const RUNS_PREFIX = 'refs/agentgate/runs/';

/** The ref that keeps an iteration's after commit reachable, and names it for `verify`. */
export function iterationRef(runId: string, iteration: number): string {
  return `${RUNS_PREFIX}${runId}/iteration-${iteration}`;
}

/**
 * The ref that keeps a WIP commit `before` made of uncommitted work reachable, one per commit: an
 * agent may reset past it and a later `before` records another state, but the work stays until
 * the user deletes the ref (local only, as the iteration refs: it never travels on its own).
 */
export function wipRef(runId: string, sha: string): string {
  return `${RUNS_PREFIX}${runId}/wip-${sha}`;
}
