import type { Snapshot } from '../../types/snapshot.js';
import { RunNotFoundError } from '../errors.js';
import { readCommitNodes, type CommitNode } from '../git/provenance.js';
import type { Repo } from '../git/repo.js';
import { wipMessage } from '../snapshotter/message.js';
import { assertSafeId } from '../store/paths.js';
import type { ProvenanceSources } from './sources.js';

/** One recorded iteration, with what git says of its commits here. */
export interface Iteration {
  snapshot: Snapshot;
  iteration: number;
  before: CommitNode;
  after: CommitNode;
  /** The run's WIP before commit this iteration started from (its lines are iteration 0) and the commit it was made on, or null. */
  wip: { commit: CommitNode; base: CommitNode } | null;
}

/** A run whose iterations' commits are in this repository, its iterations in order. */
export interface RunChain {
  runId: string;
  iterations: Iteration[];
  /** Every path (and rename source) any iteration changed, from the records alone. */
  paths: Set<string>;
}

/**
 * The candidate runs: every run in the store (or only `runIds`) that has an iteration whose before
 * and after commits are in this repository. One `cat-file --batch` for all of them, so the cost
 * grows with the runs in the store, never with the repository. RUN_NOT_FOUND for an unknown --run.
 */
export async function loadRunChains(
  src: ProvenanceSources,
  repo: Repo,
  runIds?: readonly string[],
): Promise<RunChain[]> {
  const snapshots: Snapshot[] = [];
  if (runIds !== undefined) {
    for (const runId of new Set(runIds)) {
      assertSafeId(runId, 'run id');
      if ((await src.snapshotter.store.loadRun(runId)) === null)
        throw new RunNotFoundError(`no run ${runId} in this home; "runs" lists the recorded runs`, {
          details: { runId },
        });
      snapshots.push(...(await src.snapshotter.store.loadByRun(runId)));
    }
  } else snapshots.push(...(await src.snapshotter.store.list()).snapshots);
  const nodes = await readCommitNodes(
    repo,
    snapshots.flatMap((s) => [s.beforeSha, s.afterSha]),
  );
  const wipParents = await readCommitNodes(
    repo,
    [...nodes.values()].flatMap((n) => n.parents),
  );
  const byRun = new Map<string, Iteration[]>();
  for (const s of snapshots) {
    const before = nodes.get(s.beforeSha);
    const after = nodes.get(s.afterSha);
    if (before === undefined || after === undefined) continue;
    const parent = before.parents.length === 1 ? wipParents.get(before.parents[0] as string) : undefined;
    const wip =
      before.message === wipMessage(s.runId) && parent !== undefined
        ? { commit: before, base: parent }
        : null;
    const list = byRun.get(s.runId) ?? [];
    list.push({ snapshot: s, iteration: s.iteration, before, after, wip });
    byRun.set(s.runId, list);
  }
  return [...byRun.entries()]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([runId, iterations]) => {
      iterations.sort((a, b) => a.iteration - b.iteration);
      const paths = new Set<string>();
      for (const it of iterations)
        for (const f of it.snapshot.files) {
          paths.add(f.path);
          if (f.oldPath !== null) paths.add(f.oldPath);
        }
      return { runId, iterations, paths };
    });
}
