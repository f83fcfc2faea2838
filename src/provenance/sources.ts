import {
  OpenRepoOptionsArg,
  ProvenanceSourcesArg,
  RecordSourcesArg,
  RepoArg,
  SnapshotterArg,
  WorkspaceArg,
} from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { openRepo, type OpenOptions, type Repo } from '../git/repo.js';
import type { Snapshotter } from '../snapshotter/snapshotter.js';
import { GateStore } from '../store/gate-store.js';
import { AnchorStore } from './anchor-store.js';

/**
 * What reading the records takes (`trace`): the store of snapshots and runs, a run's snapshots as
 * the snapshotter lists them, and the gate verdicts. A Snapshotter is one; the CLI's `trace` gives
 * the store alone and loads the snapshotter only if a run's verdicts need ordering.
 */
export interface RecordSources {
  snapshotter: Pick<Snapshotter, 'store' | 'listByRun'>;
  gates: GateStore;
}

/** What provenance reads and writes: the snapshots and runs, the gate verdicts and the recorded anchors of one home. */
export interface ProvenanceSources extends RecordSources {
  snapshotter: Snapshotter;
  anchors: AnchorStore;
}

export function provenanceSources(snapshotter: Snapshotter): ProvenanceSources {
  checkArgument(SnapshotterArg, snapshotter, 'snapshotter');
  const home = snapshotter.options.home;
  return {
    snapshotter,
    gates: new GateStore(home, { lockTimeoutMs: snapshotter.options.lockTimeoutMs }),
    anchors: new AnchorStore(home),
  };
}

/** RecordSources of one home without the snapshotter's code: `listByRun` loads it when first called. */
export function recordSources(
  store: Snapshotter['store'],
  lockTimeoutMs: number,
  snapshotter: () => Promise<Pick<Snapshotter, 'listByRun'>>,
): RecordSources {
  return {
    snapshotter: { store, listByRun: async (runId) => (await snapshotter()).listByRun(runId) },
    gates: new GateStore(store.home, { lockTimeoutMs }),
  };
}

/** What every provenance entry point takes first, checked: its sources (all of them, or the records alone) and the repository. */
export function checkSources(src: unknown, repo: unknown, records: 'all' | 'records' = 'all'): void {
  checkArgument(records === 'all' ? ProvenanceSourcesArg : RecordSourcesArg, src, 'src');
  checkArgument(RepoArg, repo, 'repo');
}

/**
 * Opens the repository that contains `dir`, as every command opens it (src/git/repo.ts), for the
 * provenance functions: the library exports this as `openRepo`. Its arguments are checked here,
 * where only a library caller comes, not in `openRepo`, which nearly every command calls.
 */
export async function openCheckedRepo(dir: string, opts: OpenOptions = {}): Promise<Repo> {
  checkArgument(WorkspaceArg, dir, 'dir');
  checkArgument(OpenRepoOptionsArg, opts, 'opts');
  return openRepo(dir, opts);
}
