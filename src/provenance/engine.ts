import type { PairDiff, PairFile } from '../git/parsers/diff-stdin.js';
import { commitsBroughtIn, diffTreePairs, parentTrees, type CommitNode } from '../git/provenance.js';
import type { Repo } from '../git/repo.js';
import { assertWhole, type RunChain } from './candidates.js';
import {
  blobClaim,
  CONTEXT,
  diffOfInterest,
  lineClaims,
  MAX_PATHSPECS,
  mayClaim,
  patchIdClaims,
  STRENGTH,
  type CommitLinks,
  type RunClaim,
  type RunReplay,
  wipCommits,
} from './claims.js';
import { dropUnbacked, isWeak } from './evidence.js';
import { dropPredating } from './predating.js';
import { addedLines } from './lines.js';
import { replayRun } from './replay.js';
import { blobAliases, type Aliases } from './aliases.js';

export { explains, STRENGTH, type CommitLinks, type FileLink, type RunClaim } from './claims.js';

/**
 * Links each commit's change to its first parent with the recorded runs, file by file: a fixed
 * number of git processes for any number of commits, files and runs (one diff of the commits, one
 * of every run's chain, one of their changes with context, one diff carrying the runs' lines onto the
 * commits).
 * `known`: commits already read (the runs'), whose trees need no second look.
 */
export async function linkCommits(
  repo: Repo,
  nodes: readonly CommitNode[],
  chains: readonly RunChain[],
  only?: { paths: readonly string[]; keep: (commit: string, path: string) => boolean },
  known: ReadonlyMap<string, CommitNode> = new Map(),
): Promise<CommitLinks[]> {
  const fromTrees = await parentTrees(repo, nodes, known);
  const ownPairs = nodes.map((n) => ({ from: fromTrees.get(n.commit) as string, to: n.tree }));
  let own: PairDiff[];
  let started: ReturnType<typeof startReplays>;
  let aliases: Aliases;
  // Files moved on main while a run worked: the run's name for each (aliases.ts).
  const moved: Aliases = new Map();
  if (only === undefined) {
    // The runs to replay depend on the commits' own diff: one after the other.
    own = await diffTreePairs(repo, ownPairs, null, CONTEXT);
    aliases = await blobAliases(
      repo,
      own.flatMap((d) => d.files),
      chains,
      moved,
    );
    const wanted = own.flatMap((d) =>
      d.files.flatMap((f) => [f.entry.path, f.entry.oldPath ?? f.entry.path]),
    );
    const names = [...wanted, ...aliasNames(aliases)];
    started = startReplays(repo, relevantRuns(chains, new Set(wanted), nodes, aliases), names);
  } else {
    const relevant = relevantRuns(chains, new Set(only.paths), nodes);
    ({ own, started } = await ownAndReplays(repo, ownPairs, relevant, only.paths));
    // A file no run names, byte for byte a run's version of another: that run is replayed too.
    const kept = own.flatMap((d, i) =>
      d.files.filter((f) => only.keep(nodes[i]?.commit as string, f.entry.path)),
    );
    aliases = await blobAliases(repo, kept, chains, moved);
    if (aliases.size > 0) started = withAliased(repo, started, chains, aliases);
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
  // 1. The file's content is an iteration's: ancestry, tree, blob (under the run's own name for it).
  for (const link of links)
    for (const f of link.files)
      for (const r of replays) {
        const names = [f.file.entry.path, ...(aliases.get(r.chain.runId)?.get(f.file.entry.path) ?? [])];
        const claim = blobClaim(link.node, f, r, brought.get(link.node.commit) as Set<string>, names);
        if (claim !== null) f.claims.push(claim);
      }
  await patchIdClaims(repo, links, replays, paths, brought);
  await lineClaims(repo, links, replays, paths, brought, moved);
  const byRun = new Map(chains.map((c) => [c.runId, c]));
  await dropPredating(repo, links, byRun);
  for (const link of links) {
    const had = brought.get(link.node.commit) as Set<string>;
    for (const f of link.files)
      f.claims = f.claims.filter(
        (c) =>
          mayClaim(byRun.get(c.runId) as RunChain, f.file, had) ||
          aliases.get(c.runId)?.has(f.file.entry.path) === true,
      );
    if (only === undefined) dropUnbacked(link, byRun);
  }
  if (only !== undefined) await backFromWhole(repo, links, chains, only.keep, known);
  for (const link of links)
    for (const f of link.files)
      f.claims.sort((a, b) => STRENGTH[b.method] - STRENGTH[a.method] || cmp(a.runId, b.runId));
  return links;
}

/**
 * Whether a weak claim stands depends on the commit's other files (dropUnbacked), which a link
 * restricted to some paths (`trace`) does not hold: the commits with one are linked again whole,
 * and their files take the whole link's claims, which are the anchor's.
 */
async function backFromWhole(
  repo: Repo,
  links: CommitLinks[],
  chains: readonly RunChain[],
  keep: (commit: string, path: string) => boolean,
  known: ReadonlyMap<string, CommitNode>,
): Promise<void> {
  const pending = links.filter((l) => l.files.some((f) => f.claims.some((c) => isWeak(c, f))));
  if (pending.length === 0) return;
  const whole = await linkCommits(
    repo,
    pending.map((l) => l.node),
    chains,
    undefined,
    known,
  );
  pending.forEach((l, i) => {
    l.files = (whole[i]?.files ?? []).filter((f) => keep(l.node.commit, f.file.entry.path));
  });
}

/**
 * The runs that may explain a file of `nodes`: those whose records name one of `wanted`, those
 * whose WIP before commit is one of the commits, and, when one is a merge, every run with a WIP
 * before commit (the merge may bring it in; mayClaim decides per file). OBJECT_MISSING when one
 * of them lacks some of its commits here (assertWhole).
 */
function relevantRuns(
  chains: readonly RunChain[],
  wanted: ReadonlySet<string>,
  nodes: readonly CommitNode[],
  aliases: Aliases = new Map(),
): RunChain[] {
  const commits = new Set(nodes.map((n) => n.commit));
  const merge = nodes.some((n) => n.parents.length > 1);
  const relevant = chains.filter(
    (c) =>
      [...c.paths].some((p) => wanted.has(p)) ||
      aliases.has(c.runId) ||
      wipCommits(c).some((w) => merge || commits.has(w)),
  );
  assertWhole(relevant);
  return relevant;
}

/** The runs `relevant` (relevantRuns), replayed over `wanted` and the names the runs gave them. */
function startReplays(
  repo: Repo,
  relevant: RunChain[],
  wanted: readonly string[],
): { relevant: RunChain[]; paths: string[]; replays: Promise<RunReplay[]> } {
  const paths = renameClosure(new Set(wanted), relevant);
  return { relevant, paths, replays: replayAll(repo, relevant, paths) };
}

/** The runs' own names of the files `aliases` found. */
function aliasNames(aliases: Aliases): string[] {
  return [...aliases.values()].flatMap((run) => [...run.values()].flat());
}

/** `started` with the aliased runs it lacks replayed too (over their names for the files), in one more diff. */
function withAliased(
  repo: Repo,
  started: ReturnType<typeof startReplays>,
  chains: readonly RunChain[],
  aliases: Aliases,
): ReturnType<typeof startReplays> {
  const more = chains.filter((c) => aliases.has(c.runId) && !started.relevant.includes(c));
  if (more.length === 0) return started;
  assertWhole(more);
  const extra = startReplays(repo, more, aliasNames(aliases));
  return {
    relevant: [...started.relevant, ...more],
    paths: started.paths,
    replays: Promise.all([started.replays, extra.replays]).then(([a, b]) => [...a, ...b]),
  };
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
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
    const { after, wip, staged } = replayRun(chain, (from, to) => byPair.get(pairKey({ from, to })) ?? []);
    return { chain, states: after, wips: wip, staged };
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
  relevant: RunChain[],
  onlyPaths: readonly string[],
): Promise<{ own: PairDiff[]; started: ReturnType<typeof startReplays> }> {
  const set = new Set(onlyPaths);
  const spec = [...set].sort();
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
