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
