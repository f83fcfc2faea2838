import type { Snapshotter } from '../snapshotter/snapshotter.js';
import { GateStore } from '../store/gate-store.js';
import { AnchorStore } from './anchor-store.js';

/** What provenance reads and writes: the snapshots and runs, the gate verdicts and the recorded anchors of one home. */
export interface ProvenanceSources {
  snapshotter: Snapshotter;
  gates: GateStore;
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
