import type { RunRecord } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import { AgentgateError, ObjectMissingError, RunNotFoundError, StoreCorruptError } from '../errors.js';
import { emptyTreeId } from '../git/empty-tree.js';
import { readCommitNodes, type CommitNode } from '../git/provenance.js';
import type { Repo } from '../git/repo.js';
import { trailer, wipMessage, wipStagedMessage } from '../snapshotter/message.js';
import { assertSafeId } from '../store/paths.js';
import { byRunThenIteration } from '../store/snapshot-store.js';
import type { RecordSources } from './sources.js';

/** One recorded iteration, with what git says of its commits here. */
export interface Iteration {
  snapshot: Snapshot;
  iteration: number;
  before: CommitNode;
  after: CommitNode;
  /**
   * The run's WIP before commit this iteration started from (its lines are iteration 0) and the
   * commit the run found (`base`; on an unborn branch, none: the null id and the empty tree), or
   * null; `staged`: the commit of what was staged that `before` made
   * under the WIP commit (its lines are iteration 0 too; `base` is then its parent), or null.
   */
  wip: { commit: CommitNode; base: CommitNode; staged: CommitNode | null } | null;
}

/** A run whose iterations' commits are in this repository, its iterations in order. */
export interface RunChain {
  runId: string;
  iterations: Iteration[];
  /** Every path (and rename source) any iteration changed, from the records alone. */
  paths: Set<string>;
  /**
   * The first of the run's commits that is not in this repository (an iteration's ref deleted and
   * its commits pruned, a shallow boundary), while other iterations are: the chain then holds part
   * of the run, whose answer would be wrong (assertWhole). Null when every commit is here.
   */
  missing: { iteration: number; commit: string } | null;
}

/**
 * OBJECT_MISSING when one of `chains` lacks a commit of its run: lines of the missing iteration
 * would be nobody's, and `anchor` would record that over the right answer. Only the runs that may
 * explain the commit or line asked about are given, so a partial run elsewhere stops nothing.
 */
export function assertWhole(chains: readonly RunChain[]): void {
  const c = chains.find((x) => x.missing !== null);
  if (c?.missing === undefined || c.missing === null) return;
  const { iteration, commit } = c.missing;
  throw new ObjectMissingError(
    `commit ${commit.slice(0, 12)} of iteration ${iteration} of run ${c.runId} is not in this repository, so which lines that iteration wrote cannot be worked out and an answer from the rest of the run would be wrong; fetch the run's commits (agentgate-snapshot fetch, git fetch --unshallow) and retry, or name only other runs with --run`,
    { details: { runId: c.runId, iteration, commit } },
  );
}

/**
 * The candidate runs: every run in the store (or only `runIds`) that has an iteration whose before
 * and after commits are in this repository, with the nodes of every commit read (the runs' and
 * `alsoRead`, the caller's own) in one `cat-file --batch`, so the cost grows with the runs in the
 * store, never with the repository. RUN_NOT_FOUND for an unknown --run.
 */
export async function loadRunChains(
  src: RecordSources,
  repo: Repo,
  runIds?: readonly string[],
  alsoRead: readonly string[] = [],
): Promise<{ chains: RunChain[]; nodes: Map<string, CommitNode> }> {
  return readChains(repo, await candidateSnapshots(src, runIds), alsoRead);
}

/**
 * The chains of `snapshots` (candidateSnapshots' answer), their commits and `alsoRead` read in one
 * process; `alsoRead` may come in batches later (git reads the runs' commits meanwhile).
 */
export async function readChains(
  repo: Repo,
  snapshots: readonly Snapshot[],
  alsoRead: readonly string[] | AsyncIterable<readonly string[]> = [],
): Promise<{ chains: RunChain[]; nodes: Map<string, CommitNode> }> {
  const runs = snapshots.flatMap((s) => [s.beforeSha, s.afterSha]);
  const nodes = Array.isArray(alsoRead)
    ? await readCommitNodes(repo, [...runs, ...alsoRead])
    : await readCommitNodes(repo, runs, alsoRead as AsyncIterable<readonly string[]>);
  // Only a WIP before commit needs its parent: most runs have none, and then no second process runs.
  const wips = snapshots.filter((s) => nodes.get(s.beforeSha)?.message === wipMessage(s.runId));
  const wipParents = await readCommitNodes(
    repo,
    wips.flatMap((s) => nodes.get(s.beforeSha)?.parents ?? []).filter((c) => !nodes.has(c)),
  );
  for (const [id, node] of wipParents) nodes.set(id, node);
  // A WIP commit made on the run's staged commit: the commit the run found is one further back.
  const staged = wips.flatMap((s) => {
    const parent = soleParent(nodes.get(s.beforeSha), nodes);
    return parent?.message === wipStagedMessage(s.runId) ? parent.parents : [];
  });
  for (const [id, node] of await readCommitNodes(
    repo,
    staged.filter((c) => !nodes.has(c)),
  ))
    nodes.set(id, node);
  // A WIP (or staged) commit made on an unborn branch is a root: the run found nothing there.
  const roots = wips.some((s) => {
    const wip = nodes.get(s.beforeSha);
    return wip?.parents.length === 0 || soleParent(wip, nodes)?.parents.length === 0;
  });
  const unborn = roots ? unbornBase(await emptyTreeId(repo)) : undefined;
  return { chains: chainsOf(snapshots, nodes, unborn), nodes };
}

/**
 * What a run found on an unborn branch: no commit (the null id, which no commit has, keys it in
 * a replay) and the empty tree.
 */
function unbornBase(emptyTree: string): CommitNode {
  return { commit: '0'.repeat(emptyTree.length), tree: emptyTree, parents: [], message: '' };
}

/** The one parent of `node`, when it has one and it was read. */
function soleParent(
  node: CommitNode | undefined,
  nodes: ReadonlyMap<string, CommitNode>,
): CommitNode | undefined {
  return node?.parents.length === 1 ? nodes.get(node.parents[0] as string) : undefined;
}

/** Whether `message` is run `runId`'s WIP before commit's, or that of the commit of what was staged under it. */
export function isWipMessage(message: string, runId: string): boolean {
  return message === wipMessage(runId) || message === wipStagedMessage(runId);
}

/**
 * The chains of the runs that `commits` name as their WIP before commit (a commit whose message is
 * exactly its run's WIP message, or its staged WIP commit's) and that `have` lacks: `trace` finds a run by the commit blame
 * names when the run's records do not name the file (a file only the WIP commit changed). The
 * message only says where to look: the run's records must name the commit as a before commit
 * (chainsOf), or it is no WIP commit of theirs. A name that is no run here (or not in `runIds`)
 * is left out.
 */
export async function chainsOfWipCommits(
  src: RecordSources,
  repo: Repo,
  commits: Iterable<string>,
  nodes: ReadonlyMap<string, CommitNode>,
  have: ReadonlySet<string>,
  runIds?: readonly string[],
): Promise<{ chains: RunChain[]; nodes: Map<string, CommitNode> }> {
  const ids = new Set<string>();
  for (const commit of commits) {
    const message = nodes.get(commit)?.message ?? '';
    const id = trailer(message, 'Agentgate-Run');
    if (id !== null && isWipMessage(message, id) && !have.has(id) && (runIds?.includes(id) ?? true))
      ids.add(id);
  }
  const snapshots: Snapshot[] = [];
  for (const id of ids)
    try {
      snapshots.push(...(await candidateSnapshots(src, [id])));
    } catch (error) {
      // A message names any text: not a run id, or a run this home does not hold. A run it holds
      // whose records do not load stops the trace, as everywhere.
      if (!(error instanceof AgentgateError) || error instanceof StoreCorruptError) throw error;
    }
  return snapshots.length === 0 ? { chains: [], nodes: new Map() } : readChains(repo, snapshots);
}

/** Whether the snapshot's records name one of `paths` (a file it changed, or a rename's source). */
function names(s: Snapshot, paths: ReadonlySet<string>): boolean {
  return s.files.some((f) => paths.has(f.path) || (f.oldPath !== null && paths.has(f.oldPath)));
}

/**
 * The snapshots of the candidate runs (every run, or `runIds`; with `touching`, only runs whose
 * records name one of those paths), from the store alone. RUN_NOT_FOUND for an unknown --run.
 * Every provenance command reads the store so: STORE_CORRUPT for a snapshot file or run record
 * that does not load, or a run's link to a snapshot that is gone, where it may change the answer
 * (an answer from part of a run would be wrong, and an anchor recorded from it wrong for good).
 */
export async function candidateSnapshots(
  src: RecordSources,
  runIds?: readonly string[],
  touching?: ReadonlySet<string>,
): Promise<Snapshot[]> {
  const store = src.snapshotter.store;
  if (runIds === undefined && touching !== undefined) {
    // Only runs whose records name one of these paths, and all of their snapshots: the files that
    // may name a path are parsed, then those that may name such a run; the rest are read, not parsed.
    const [scan, listed] = await Promise.all([store.scan(), store.listRuns()]);
    // A run whose link's file is gone names no path here, yet that file may have named one: any
    // such run stops the command, as everywhere (a record that does not load is checked only when named).
    const gone = listed.runs.find((r) => r.snapshotIds.some((id) => !scan.has(id)));
    if (gone !== undefined) await store.loadByRun(gone.runId);
    const runs = [
      ...new Set(
        scan
          .pick([...touching])
          .filter((s) => names(s, touching))
          .map((s) => s.runId),
      ),
    ];
    if (runs.length === 0) return [];
    const set = new Set(runs);
    // In `list`'s order: a re-captured iteration's snapshots keep their order in the chain.
    const snapshots = scan
      .pick(runs)
      .filter((s) => set.has(s.runId))
      .sort(sameAsList);
    const records = await Promise.all(runs.map((r) => store.loadRun(r)));
    await assertLinked(
      store,
      records.filter((r) => r !== null),
      snapshots,
    );
    return snapshots;
  }
  let snapshots: Snapshot[] = [];
  if (runIds !== undefined) {
    for (const runId of new Set(runIds)) {
      assertSafeId(runId, 'run id');
      if ((await store.loadRun(runId)) === null)
        throw new RunNotFoundError(`no run ${runId} in this home; "runs" lists the recorded runs`, {
          details: { runId },
        });
      snapshots.push(...(await store.loadByRun(runId)));
    }
  } else snapshots = await wholeStore(store);
  if (touching !== undefined) {
    const runs = new Set(snapshots.filter((s) => names(s, touching)).map((s) => s.runId));
    snapshots = snapshots.filter((s) => runs.has(s.runId));
  }
  return snapshots;
}

type Store = RecordSources['snapshotter']['store'];

/** Every snapshot of the store, with every run record and link: STORE_CORRUPT for the first that does not load. */
async function wholeStore(store: Store): Promise<Snapshot[]> {
  const [snapshots, runs] = await Promise.all([store.listStrict(), store.listRunsStrict()]);
  await assertLinked(store, runs, snapshots);
  return snapshots;
}

/**
 * STORE_CORRUPT when a run links a snapshot that `snapshots` lacks (its file is gone, or holds
 * another run's): `loadByRun` says which, as it does for the run's gate verdicts in `trace`.
 */
async function assertLinked(
  store: Store,
  runs: readonly RunRecord[],
  snapshots: readonly Snapshot[],
): Promise<void> {
  const have = new Set(snapshots.map((s) => `${s.runId}/${s.id}`));
  for (const run of runs)
    if (run.snapshotIds.some((id) => !have.has(`${run.runId}/${id}`))) await store.loadByRun(run.runId);
}

/**
 * An order that keeps a run's snapshots of one iteration (a re-captured iteration) as `list` has
 * them, which is all a chain keeps of that order; the rest by code unit, without a locale compare.
 */
function sameAsList(a: Snapshot, b: Snapshot): number {
  if (a.runId !== b.runId) return a.runId < b.runId ? -1 : 1;
  return a.iteration - b.iteration || byRunThenIteration(a, b);
}

/**
 * The runs of `snapshots` with an iteration here, each iteration whose commits are. A run with none
 * here (another repository's, or a branch this clone never fetched) is no chain; one with some is
 * a chain that names what it lacks (`missing`).
 */
function chainsOf(
  snapshots: readonly Snapshot[],
  nodes: ReadonlyMap<string, CommitNode>,
  unborn: CommitNode | undefined,
): RunChain[] {
  const byRun = new Map<string, Iteration[]>();
  const missing = new Map<string, RunChain['missing']>();
  for (const s of snapshots) {
    const before = nodes.get(s.beforeSha);
    const after = nodes.get(s.afterSha);
    if (before === undefined || after === undefined) {
      if (!missing.has(s.runId))
        missing.set(s.runId, {
          iteration: s.iteration,
          commit: before === undefined ? s.beforeSha : s.afterSha,
        });
      continue;
    }
    const wip = before.message === wipMessage(s.runId) ? wipOf(before, s.runId, nodes, unborn) : null;
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
      return { runId, iterations, paths, missing: missing.get(runId) ?? null };
    });
}

/**
 * The WIP of a before commit with the run's WIP message: what it was made on, through a staged
 * commit; `unborn` for a root (the branch had no commit yet).
 */
function wipOf(
  before: CommitNode,
  runId: string,
  nodes: ReadonlyMap<string, CommitNode>,
  unborn: CommitNode | undefined,
): Iteration['wip'] {
  const below = (node: CommitNode) => (node.parents.length === 0 ? unborn : soleParent(node, nodes));
  const parent = below(before);
  if (parent === undefined) return null;
  if (parent.message !== wipStagedMessage(runId)) return { commit: before, base: parent, staged: null };
  const base = below(parent);
  return base === undefined ? null : { commit: before, base, staged: parent };
}
