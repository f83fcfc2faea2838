import type { PairFile } from '../git/parsers/diff-stdin.js';
import { isNullId } from '../git/ids.js';
import type { CommitNode } from '../git/provenance.js';
import type { Iteration, RunChain } from './candidates.js';
import { applyHunks, wipOrigin, type FileState } from './lines.js';

/** A file's state at each point of a run: path -> who wrote each line and the blob. */
export type TreeState = ReadonlyMap<string, FileState>;

/** The state at each iteration's after commit, and at the WIP before commit (and staged commit) of those that have one. */
export interface RunStates {
  after: Map<number, TreeState>;
  wip: Map<number, TreeState>;
  staged: Map<number, TreeState>;
}

/** The diff between two trees, as the caller has it (restricted to the paths of interest). */
export type TreeDiff = (fromTree: string, toTree: string) => readonly PairFile[];

/**
 * Walks a run's chain of commits: from where it started, through its WIP before commit (and the
 * staged commit under it: lines of its wipOrigin, reported as iteration 0), each iteration's change (lines of iteration n), and whatever happened between
 * iterations (a restart, a person's commit: lines of no iteration). Returns the state at each
 * iteration's after commit, and at its WIP before commit. The walk depends on commit ids alone, so
 * a first call with a diff that records what it is asked for plans every pair one `diff-tree
 * --stdin` answers.
 */
export function replayRun(chain: RunChain, diff: TreeDiff): RunStates {
  const at = new Map<string, { node: CommitNode; state: TreeState }>();
  const first = chain.iterations[0] as Iteration;
  const start = first.wip?.base ?? first.before;
  at.set(start.commit, { node: start, state: new Map() });
  let latest = start.commit;
  const out: RunStates = { after: new Map(), wip: new Map(), staged: new Map() };
  for (const it of chain.iterations) {
    const from = it.wip?.base ?? it.before;
    let cur = at.get(from.commit)?.state;
    if (cur === undefined) {
      const prev = at.get(latest) as { node: CommitNode; state: TreeState };
      cur = applyDiff(prev.state, diff(prev.node.tree, from.tree), null);
    }
    if (it.wip !== null) {
      const { base, staged } = it.wip;
      if (staged !== null) {
        cur = applyDiff(cur, diff(base.tree, staged.tree), wipOrigin(it.iteration));
        at.set(staged.commit, { node: staged, state: cur });
        out.staged.set(it.iteration, cur);
      }
      cur = applyDiff(cur, diff((staged ?? base).tree, it.wip.commit.tree), wipOrigin(it.iteration));
      at.set(it.wip.commit.commit, { node: it.wip.commit, state: cur });
      out.wip.set(it.iteration, cur);
    }
    cur = applyDiff(cur, diff(it.before.tree, it.after.tree), it.iteration);
    at.set(it.after.commit, { node: it.after, state: cur });
    latest = it.after.commit;
    out.after.set(it.iteration, cur);
  }
  return out;
}

/** The mode git gives a file that is not there. */
const ABSENT = '000000';

/** The state after one diff: changed files get new origins (`origin` for the lines it adds), the rest are shared. */
export function applyDiff(state: TreeState, files: readonly PairFile[], origin: number | null): TreeState {
  if (files.length === 0) return state;
  const next = new Map(state);
  const old = (p: string): ReadonlyArray<number | null> => state.get(p)?.origins ?? [];
  for (const { entry: e, hunks } of files) {
    const blob = isNullId(e.dstId) ? null : e.dstId;
    const mode = e.dstMode;
    switch (e.status) {
      case 'D':
        next.set(e.path, { origins: [], blob: null, mode, writer: origin });
        break;
      case 'A':
        next.set(e.path, { origins: applyHunks([], hunks, origin), blob, mode, writer: origin });
        break;
      case 'T':
        // Two patches: the old content removed, the new one added whole.
        next.set(e.path, {
          origins: applyHunks(
            [],
            hunks.filter((h) => h.oldCount === 0),
            origin,
          ),
          blob,
          mode,
          writer: origin,
        });
        break;
      case 'R':
      case 'C':
        next.set(e.path, {
          origins: applyHunks(old(e.oldPath ?? e.path), hunks, origin),
          blob,
          mode,
          writer: origin,
        });
        if (e.status === 'R' && e.oldPath !== null)
          next.set(e.oldPath, { origins: [], blob: null, mode: ABSENT, writer: origin });
        break;
      default:
        next.set(e.path, { origins: applyHunks(old(e.path), hunks, origin), blob, mode, writer: origin });
    }
  }
  return next;
}
