import type { AnchorMethod } from '../../types/anchor.js';
import { isNullId } from '../git/ids.js';
import type { PairDiff, PairFile } from '../git/parsers/diff-stdin.js';
import { commitsBroughtIn, diffTreePairs, diffTreePairsPicked, type CommitNode } from '../git/provenance.js';
import { batchCheck } from '../git/record-objects.js';
import { emptyTreeId } from '../git/empty-tree.js';
import type { Repo } from '../git/repo.js';
import type { Iteration, RunChain } from './candidates.js';
import { changeId } from './change-id.js';
import { addedLines, applyHunks, type FileState } from './lines.js';
import { replayRun, type TreeState } from './replay.js';

/** How one run explains one file of a commit's change. */
export interface RunClaim {
  runId: string;
  method: Exclude<AnchorMethod, 'none'>;
  /** The iteration whose version of the file the link was made with. */
  iteration: Iteration;
  /** For each line the commit adds (in `added` order): the iteration that wrote it, or null. */
  origins: Array<number | null>;
  /** The iteration whose change left the file as matched (0: the WIP commit; null: no iteration's). */
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

interface RunReplay {
  chain: RunChain;
  /** The state at each iteration's after commit. */
  states: Map<number, TreeState>;
  /** The state at each iteration's WIP before commit. */
  wips: Map<number, TreeState>;
}

/**
 * Links each commit's change to its first parent with the recorded runs, file by file: a fixed
 * number of git processes for any number of commits, files and runs (one diff of the commits, one
 * of every run's chain, one `patch-id`, one diff carrying the runs' lines onto the commits).
 * `known`: commits already read (the runs'), whose trees need no second look.
 */
export async function linkCommits(
  repo: Repo,
  nodes: readonly CommitNode[],
  chains: readonly RunChain[],
  only?: { paths: readonly string[]; keep: (commit: string, path: string) => boolean },
  known: ReadonlyMap<string, CommitNode> = new Map(),
): Promise<CommitLinks[]> {
  const empty = nodes.some((n) => n.parents.length === 0) ? await emptyTreeId(repo) : '';
  const parentTrees = await parentTreesOf(repo, nodes, empty, known);
  const ownPairs = nodes.map((n) => ({ from: parentTrees.get(n.commit) as string, to: n.tree }));
  let own: PairDiff[];
  let started: ReturnType<typeof startReplays>;
  if (only === undefined) {
    // The runs to replay depend on the commits' own diff: one after the other.
    own = await diffTreePairs(repo, ownPairs, null, CONTEXT);
    const wanted = own.flatMap((d) =>
      d.files.flatMap((f) => [f.entry.path, f.entry.oldPath ?? f.entry.path]),
    );
    started = startReplays(repo, chains, wanted);
  } else {
    ({ own, started } = await ownAndReplays(repo, ownPairs, chains, only.paths));
  }
  const files = nodes.map((n, i) =>
    (own[i]?.files ?? []).filter((f) => only === undefined || only.keep(n.commit, f.entry.path)),
  );
  const { relevant, paths, replays: replaying } = started;
  const [replays, brought] = await Promise.all([replaying, broughtIn(repo, nodes)]);
  const links = nodes.map((node, i) => ({
    node,
    files: (files[i] ?? []).map((file) => ({
      file,
      added: addedLines(file.hunks),
      claims: [] as RunClaim[],
    })),
    treeMatches: relevant
      .concat(chains.filter((c) => !relevant.includes(c)))
      .flatMap((c) => c.iterations.filter((it) => it.after.tree === node.tree)),
  }));
  // 1. The file's content is an iteration's: ancestry, tree, blob.
  for (const link of links)
    for (const f of link.files)
      for (const r of replays) {
        const claim = blobClaim(link.node, f, r, brought.get(link.node.commit) as Set<string>);
        if (claim !== null) f.claims.push(claim);
      }
  await patchIdClaims(repo, links, replays, paths, brought);
  await lineClaims(repo, links, replays, paths);
  for (const link of links)
    for (const f of link.files)
      f.claims.sort((a, b) => STRENGTH[b.method] - STRENGTH[a.method] || cmp(a.runId, b.runId));
  return links;
}

/** The runs that changed any of `wanted` (renames followed), replayed over those paths. */
function startReplays(
  repo: Repo,
  chains: readonly RunChain[],
  wanted: readonly string[],
): { relevant: RunChain[]; paths: string[]; replays: Promise<RunReplay[]> } {
  const set = new Set(wanted);
  const relevant = chains.filter((c) => [...c.paths].some((p) => set.has(p)));
  const paths = renameClosure(set, relevant);
  return { relevant, paths, replays: replayAll(repo, relevant, paths) };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function parentTreesOf(
  repo: Repo,
  nodes: readonly CommitNode[],
  empty: string,
  known: ReadonlyMap<string, CommitNode>,
): Promise<Map<string, string>> {
  // A parent already read gives its tree; the others' by name (`<parent>^{tree}`): one batch-check.
  const trees = new Map<string, string>();
  for (const n of nodes) {
    const tree = n.parents[0] === undefined ? empty : known.get(n.parents[0])?.tree;
    if (tree !== undefined) trees.set(n.commit, tree);
  }
  const ask = nodes.filter((n) => !trees.has(n.commit));
  const answers = await batchCheck(
    repo,
    ask.map((n) => `${n.parents[0] as string}^{tree}`),
  );
  ask.forEach((n, i) => trees.set(n.commit, answers[i]?.found === true ? answers[i].id : empty));
  return trees;
}

/** Paths of interest, with every name a relevant run gave them (renames both ways). */
function renameClosure(wanted: Set<string>, chains: readonly RunChain[]): string[] {
  const out = new Set(wanted);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of chains)
      for (const it of c.iterations)
        for (const f of it.snapshot.files)
          if (f.oldPath !== null && out.has(f.path) !== out.has(f.oldPath)) {
            out.add(f.path);
            out.add(f.oldPath);
            grew = true;
          }
  }
  return [...out].sort();
}

/** Every run's chain replayed over the paths of interest: one `diff-tree --stdin` for all of them. */
async function replayAll(
  repo: Repo,
  chains: readonly RunChain[],
  paths: readonly string[],
): Promise<RunReplay[]> {
  const diffs = await diffOfInterest(repo, replayPairs(chains), paths);
  return statesOf(chains, new Map(diffs.map((d) => [pairKey(d), d.files])));
}

function pairKey(p: { from: string; to: string }): string {
  return `${p.from} ${p.to}`;
}

/** Each step of the runs' chains, once. */
function replayPairs(chains: readonly RunChain[]): Array<{ from: string; to: string }> {
  const pairs = new Map<string, { from: string; to: string }>();
  for (const c of chains)
    replayRun(c, (from, to) => {
      pairs.set(pairKey({ from, to }), { from, to });
      return [];
    });
  return [...pairs.values()];
}

function statesOf(chains: readonly RunChain[], byPair: ReadonlyMap<string, PairFile[]>): RunReplay[] {
  return chains.map((chain) => {
    const { after, wip } = replayRun(chain, (from, to) => byPair.get(pairKey({ from, to })) ?? []);
    return { chain, states: after, wips: wip };
  });
}

/**
 * With a path filter (`trace`): the commits' own diff, and the runs that changed those paths
 * replayed. When both give git the same few paths (no rename widened them), one `diff-tree
 * --stdin` answers both, each pair once: the commits `trace` blames are mostly the runs' own steps.
 */
async function ownAndReplays(
  repo: Repo,
  ownPairs: ReadonlyArray<{ from: string; to: string }>,
  chains: readonly RunChain[],
  onlyPaths: readonly string[],
): Promise<{ own: PairDiff[]; started: ReturnType<typeof startReplays> }> {
  const set = new Set(onlyPaths);
  const spec = [...set].sort();
  const relevant = chains.filter((c) => [...c.paths].some((p) => set.has(p)));
  const paths = renameClosure(set, relevant);
  if (paths.length > MAX_PATHSPECS || paths.join('\0') !== spec.join('\0')) {
    const started = { relevant, paths, replays: replayAll(repo, relevant, paths) };
    return { own: await diffTreePairs(repo, ownPairs, onlyPaths, CONTEXT), started };
  }
  const union = new Map([...ownPairs, ...replayPairs(relevant)].map((p) => [pairKey(p), p]));
  const diffs = await diffTreePairs(repo, [...union.values()], paths, CONTEXT);
  const byPair = new Map(diffs.map((d) => [pairKey(d), d.files]));
  return {
    own: ownPairs.map((p) => ({ ...p, files: byPair.get(pairKey(p)) ?? [] })),
    started: { relevant, paths, replays: Promise.resolve(statesOf(relevant, byPair)) },
  };
}

/** Lines of context in the patches `patch-id` compares (git's default): where a change lands counts. */
const CONTEXT = 3;

/** Pathspecs beyond this many cost git more than they save (each tree entry is matched against every one). */
const MAX_PATHSPECS = 16;

/**
 * The pairs' diffs, keeping only the files of interest. The pairs here are the runs' own steps,
 * whose diffs hold only what the run changed, so with many paths git is not given a pathspec
 * (matching thousands of them against every entry of every changed tree grows with the
 * repository) and the files are picked here instead.
 */
async function diffOfInterest(
  repo: Repo,
  pairs: ReadonlyArray<{ from: string; to: string }>,
  paths: readonly string[],
  context = 0,
): Promise<PairDiff[]> {
  return paths.length <= MAX_PATHSPECS
    ? diffTreePairs(repo, pairs, paths, context)
    : diffTreePairsPicked(repo, pairs, paths, context);
}

/** What each commit brought in: itself, and for a merge what its other parents add to the first. */
async function broughtIn(repo: Repo, nodes: readonly CommitNode[]): Promise<Map<string, Set<string>>> {
  const out = new Map<string, Set<string>>();
  for (const n of nodes) {
    const set = new Set([n.commit]);
    if (n.parents.length > 1)
      for (const c of await commitsBroughtIn(repo, n.commit, n.parents.slice(0, 1))) set.add(c);
    out.set(n.commit, set);
  }
  return out;
}

function blobOf(f: PairFile): string | null {
  return isNullId(f.entry.dstId) ? null : f.entry.dstId;
}

/**
 * The run's commits from the newest (each iteration's after commit, then its WIP before commit),
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

function blobClaim(node: CommitNode, f: FileLink, r: RunReplay, brought: Set<string>): RunClaim | null {
  const blob = blobOf(f.file);
  let best: RunClaim | null = null;
  for (const v of versions(r, f.file.entry.path)) {
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
async function patchIdClaims(
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
 * by git's diff between the two; lines the diff keeps keep their iteration, the rest have none.
 */
async function lineClaims(
  repo: Repo,
  links: CommitLinks[],
  replays: RunReplay[],
  paths: readonly string[],
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
      // The run's version under the file's name, or under the name it had before the commit renamed it.
      const names = [f.file.entry.path, ...(f.file.entry.oldPath === null ? [] : [f.file.entry.oldPath])];
      for (const r of replays) {
        if (f.claims.some((c) => c.runId === r.chain.runId)) continue;
        for (const name of names) {
          const v = versions(r, name).find((x) => x.state.blob !== null);
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
    const origins = f.added.map((n) => carried[n - 1] ?? null);
    if (origins.some((o) => o !== null))
      f.claims.push({
        runId: r.chain.runId,
        method: 'lines',
        iteration: v.it,
        origins,
        writer: v.state.writer,
      });
  }
}
