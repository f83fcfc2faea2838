/**
 * How one run explains one file of a commit's change: the claims of the link engine (engine.ts),
 * strongest first: the file is a version the run made (ancestry, tree, blob), the run's change
 * with its context (patch-id), or some of the run's lines carried by git's diff (lines).
 */
import type { AnchorMethod } from '../../types/anchor.js';
import { isNullId } from '../git/ids.js';
import type { PairDiff, PairFile } from '../git/parsers/diff-stdin.js';
import { diffTreePairs, diffTreePairsPicked, type CommitNode } from '../git/provenance.js';
import type { Repo } from '../git/repo.js';
import type { Iteration, RunChain } from './candidates.js';
import { changeId } from './change-id.js';
import type { Aliases } from './aliases.js';
import { enoughBlocks } from './evidence.js';
import { addedLines, applyHunks, type FileState } from './lines.js';
import type { TreeState } from './replay.js';

/** How one run explains one file of a commit's change. */
export interface RunClaim {
  runId: string;
  method: Exclude<AnchorMethod, 'none'>;
  /** The iteration whose version of the file the link was made with. */
  iteration: Iteration;
  /** For each line the commit adds (in `added` order): the iteration that wrote it (a wipOrigin: a WIP commit), or null. */
  origins: Array<number | null>;
  /** The iteration whose change left the file as matched (a wipOrigin: a WIP commit; null: no iteration's). */
  writer: number | null;
}

export interface FileLink {
  file: PairFile;
  /** Line numbers the commit adds to the file, in its version of it. */
  added: number[];
  claims: RunClaim[];
}

export interface CommitLinks {
  node: CommitNode;
  files: FileLink[];
  /** Iterations whose after tree is the commit's tree. */
  treeMatches: Iteration[];
}

/** The methods, strongest first: what a file's `method` is, and which run's claim on a line `trace` names. */
export const STRENGTH: Readonly<Record<AnchorMethod, number>> = {
  ancestry: 5,
  tree: 4,
  blob: 3,
  'patch-id': 2,
  lines: 1,
  none: 0,
};

export interface RunReplay {
  chain: RunChain;
  /** The state at each iteration's after commit. */
  states: Map<number, TreeState>;
  /** The state at each iteration's WIP before commit. */
  wips: Map<number, TreeState>;
  /** The state at each iteration's staged WIP commit (under its WIP before commit). */
  staged: Map<number, TreeState>;
}

/** Lines of context in the patches `patch-id` compares (git's default): where a change lands counts. */
export const CONTEXT = 3;

/** Pathspecs beyond this many cost git more than they save (each tree entry is matched against every one). */
export const MAX_PATHSPECS = 16;

/**
 * The pairs' diffs, keeping only the files of interest. The pairs here are the runs' own steps,
 * whose diffs hold only what the run changed, so with many paths git is not given a pathspec
 * (matching thousands of them against every entry of every changed tree grows with the
 * repository) and the files are picked here instead.
 */
export async function diffOfInterest(
  repo: Repo,
  pairs: ReadonlyArray<{ from: string; to: string }>,
  paths: readonly string[],
  context = 0,
): Promise<PairDiff[]> {
  return paths.length <= MAX_PATHSPECS
    ? diffTreePairs(repo, pairs, paths, context)
    : diffTreePairsPicked(repo, pairs, paths, context);
}

function blobOf(f: PairFile): string | null {
  return isNullId(f.entry.dstId) ? null : f.entry.dstId;
}

/**
 * The run's commits from the newest (each iteration's after commit, then its WIP before commit and
 * the staged commit under it),
 * with the file's state there when the run ever changed it.
 */
function versions(
  r: RunReplay,
  path: string,
): Array<{ it: Iteration; commit: CommitNode; state: FileState }> {
  const out = [];
  for (const it of [...r.chain.iterations].reverse()) {
    const state = r.states.get(it.iteration)?.get(path);
    if (state !== undefined) out.push({ it, commit: it.after, state });
    const wip = r.wips.get(it.iteration)?.get(path);
    if (it.wip !== null && wip !== undefined) out.push({ it, commit: it.wip.commit, state: wip });
    const staged = r.staged.get(it.iteration)?.get(path);
    if (it.wip?.staged && staged !== undefined) out.push({ it, commit: it.wip.staged, state: staged });
  }
  return out;
}

/**
 * Whether a claim says anything of the run: some line of the change is an iteration's, or an
 * iteration (or the WIP commit) left the file as matched. A version that only a commit between
 * iterations made (a person's) is nobody's, whatever tree or branch it reached.
 */
export function explains(claim: Pick<RunClaim, 'origins' | 'writer'>): boolean {
  return claim.writer !== null || claim.origins.some((o) => o !== null);
}

/** The run's WIP before commits and staged commits under them (the lines they hold are iteration 0). */
export function wipCommits(chain: RunChain): string[] {
  return chain.iterations.flatMap((it) =>
    it.wip === null ? [] : [it.wip.commit.commit, ...(it.wip.staged ? [it.wip.staged.commit] : [])],
  );
}

/**
 * Whether run `chain` may explain file `f` of a commit that brought in `brought`: its records name
 * the file (an iteration changed it, under this name or the one it was renamed from), or its WIP
 * before commit is the commit or came in with it. A file that only the WIP commit changed is the
 * run's (iteration 0) only when that commit is in the history: squashed, nothing says its lines
 * came through the run, and `trace` (which finds runs by the file or by the commit blame names)
 * must give the same answer.
 */
export function mayClaim(chain: RunChain, f: PairFile, brought: ReadonlySet<string>): boolean {
  const e = f.entry;
  return (
    chain.paths.has(e.path) ||
    (e.oldPath !== null && chain.paths.has(e.oldPath)) ||
    wipCommits(chain).some((w) => brought.has(w))
  );
}

/**
 * The file is a version the run made (its blob and mode), under one of `names` (the file's own,
 * or the run's name for a file no run names: aliases.ts): ancestry, tree or blob, the strongest.
 */
export function blobClaim(
  node: CommitNode,
  f: FileLink,
  r: RunReplay,
  brought: Set<string>,
  names: readonly string[] = [f.file.entry.path],
): RunClaim | null {
  const blob = blobOf(f.file);
  let best: RunClaim | null = null;
  for (const v of names.flatMap((name) => versions(r, name))) {
    // Content and mode: a person's chmod of the run's file is not the run's version of it.
    if (v.state.blob !== blob || v.state.mode !== f.file.entry.dstMode) continue;
    const method: RunClaim['method'] = brought.has(v.commit.commit)
      ? 'ancestry'
      : v.commit.tree === node.tree
        ? 'tree'
        : 'blob';
    const claim = {
      runId: r.chain.runId,
      method,
      iteration: v.it,
      origins: f.added.map((n) => v.state.origins[n - 1] ?? null),
      writer: v.state.writer,
    };
    if (explains(claim) && (best === null || STRENGTH[method] > STRENGTH[best.method])) best = claim;
  }
  return best;
}

/**
 * The file's change is the run's change to it (from the run's start, from its WIP commit, or one
 * iteration's), applied where the base moved: the same lines added and removed between the same
 * neighbours (changeId of the `-U3` patches). Without the context, a person's line anywhere in
 * the file would be the run's when the run added the same line elsewhere.
 */
export async function patchIdClaims(
  repo: Repo,
  links: CommitLinks[],
  replays: RunReplay[],
  paths: readonly string[],
  brought: Map<string, Set<string>>,
): Promise<void> {
  const open = links.flatMap((l) =>
    l.files.flatMap((f) =>
      replays.filter((r) => !f.claims.some((c) => c.runId === r.chain.runId)).map((r) => ({ l, f, r })),
    ),
  );
  if (open.length === 0) return;
  const pairs = new Map<string, { from: string; to: string; it: Iteration }>();
  for (const { r } of open) {
    const first = r.chain.iterations[0] as Iteration;
    const starts = [first.wip?.base.tree ?? first.before.tree, ...(first.wip ? [first.wip.commit.tree] : [])];
    for (const it of r.chain.iterations)
      for (const from of [...starts, it.before.tree])
        pairs.set(`${from} ${it.after.tree} ${it.snapshot.id}`, { from, to: it.after.tree, it });
  }
  const list = [...pairs.values()];
  const diffs: PairDiff[] = await diffOfInterest(repo, list, paths, CONTEXT);
  const runIds = diffs.flatMap((d, i) =>
    d.files.map((file) => ({ it: (list[i] as { it: Iteration }).it, file, id: changeId(file) })),
  );
  for (const { l, f, r } of open) {
    const id = changeId(f.file);
    if (id === null) continue;
    const match = runIds
      .filter(
        (x) =>
          x.id === id && x.it.snapshot.runId === r.chain.runId && x.file.entry.path === f.file.entry.path,
      )
      .sort((a, b) => b.it.iteration - a.it.iteration)[0];
    if (match === undefined) continue;
    const state = r.states.get(match.it.iteration)?.get(f.file.entry.path);
    const theirs = addedLines(match.file.hunks);
    const claim: RunClaim = {
      runId: r.chain.runId,
      method: (brought.get(l.node.commit) as Set<string>).has(match.it.after.commit)
        ? 'ancestry'
        : 'patch-id',
      iteration: match.it,
      origins: f.added.map((_, k) =>
        theirs[k] === undefined ? null : (state?.origins[(theirs[k] as number) - 1] ?? null),
      ),
      // From the run's start, the change may be a person's between iterations: the state says who.
      writer: state?.writer ?? null,
    };
    if (explains(claim)) f.claims.push(claim);
  }
}

/**
 * What is left: the lines of the run's newest version of the file carried onto the commit's version
 * by git's diff between the two; lines the diff keeps keep their iteration, the rest have none, and
 * so have kept lines in a block too small to say where it came from (enoughBlocks). A version whose
 * commit the commit brought in (a merge whose conflict a person resolved, or that a person edited)
 * is taken first: its lines came through history (`ancestry`, as blame gives them to `trace`), so
 * no block is too small.
 */
export async function lineClaims(
  repo: Repo,
  links: CommitLinks[],
  replays: RunReplay[],
  paths: readonly string[],
  brought: ReadonlyMap<string, ReadonlySet<string>>,
  aliases: Aliases = new Map(),
): Promise<void> {
  type Open = {
    l: CommitLinks;
    f: FileLink;
    r: RunReplay;
    v: ReturnType<typeof versions>[number];
    name: string;
  };
  const open: Open[] = [];
  for (const l of links)
    for (const f of l.files) {
      if (f.added.length === 0) continue;
      // The run's version under the file's name, or under the name it had before the commit renamed
      // it, or under the run's own name for a file no run names (aliases.ts).
      const own = [f.file.entry.path, ...(f.file.entry.oldPath === null ? [] : [f.file.entry.oldPath])];
      for (const r of replays) {
        if (f.claims.some((c) => c.runId === r.chain.runId)) continue;
        const names = [...own, ...(aliases.get(r.chain.runId)?.get(f.file.entry.path) ?? [])];
        const had = brought.get(l.node.commit);
        for (const name of names) {
          const all = versions(r, name).filter((x) => x.state.blob !== null);
          const v = all.find((x) => had?.has(x.commit.commit) === true) ?? all[0];
          if (v === undefined) continue;
          if (v.state.origins.some((o) => o !== null)) open.push({ l, f, r, v, name });
          break;
        }
      }
    }
  if (open.length === 0) return;
  const pairs = new Map<string, { from: string; to: string }>();
  for (const o of open)
    pairs.set(`${o.v.commit.tree} ${o.l.node.tree}`, { from: o.v.commit.tree, to: o.l.node.tree });
  // From a run's version to the commit's, main's own changes come too: only the open files are asked for.
  const asked = open.flatMap((o) => [o.f.file.entry.path, o.name]);
  const openPaths = [...new Set(asked)].filter((p) => paths.includes(p));
  const diffs = await diffTreePairs(repo, [...pairs.values()], openPaths);
  const byPair = new Map(diffs.map((d) => [`${d.from} ${d.to}`, d.files]));
  for (const { l, f, r, v, name } of open) {
    const path = f.file.entry.path;
    const change = (byPair.get(`${v.commit.tree} ${l.node.tree}`) ?? []).find(
      (x) => x.entry.path === path && (x.entry.oldPath ?? path) === name,
    );
    // Renamed, the file must come from the run's one by git's own rename detection; else no line carries.
    if (change === undefined && name !== path) continue;
    const lines = v.state.origins;
    const carried = change === undefined ? lines : applyHunks(lines, change.hunks, null);
    const history = brought.get(l.node.commit)?.has(v.commit.commit) === true;
    const kept = f.added.map((n) => carried[n - 1] ?? null);
    const origins = history ? kept : enoughBlocks(f, kept);
    if (origins.some((o) => o !== null))
      f.claims.push({
        runId: r.chain.runId,
        method: history ? 'ancestry' : 'lines',
        iteration: v.it,
        origins,
        writer: v.state.writer,
      });
  }
}
