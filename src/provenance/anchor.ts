import type { Anchor, AnchorFile, AnchorOrigin, AnchorRun, TreeMatch } from '../../types/anchor.js';
import { AnchorOptionsArg, TextArg, TextsArg } from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { InvalidArgumentError } from '../errors.js';
import { FILE_STATUS } from '../git/parsers/diff-raw.js';
import { firstParentRange, type CommitNode } from '../git/provenance.js';
import { resolveRevision } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { loadRunChains, type Iteration } from './candidates.js';
import { linkCommits, type FileLink } from './engine.js';
import { byIteration, isWip, reportedIteration, WIP_ORIGIN } from './lines.js';
import { checkSources, type ProvenanceSources } from './sources.js';
import { rankTreeMatches } from './tree-matches.js';

export interface AnchorOptions {
  /** Narrow the candidate runs to these (`anchor --run`); default: every run of this repository in the store. */
  runIds?: readonly string[];
  /** The anchor's createdAt (tests). */
  now?: Date;
}

/**
 * The anchor of one commit: which runs and iterations produced the change `rev` made to its first
 * parent, per file and in total. Computed, not recorded: `src.anchors.save` records it.
 * Throws REVISION_NOT_FOUND, AMBIGUOUS_ID, RUN_NOT_FOUND (an unknown --run).
 */
export async function computeAnchor(
  src: ProvenanceSources,
  repo: Repo,
  rev: string,
  opts: AnchorOptions = {},
): Promise<Anchor> {
  checkArgument(TextArg, rev, 'rev');
  const [anchor] = await computeAnchors(src, repo, [rev], opts);
  return anchor as Anchor;
}

/** computeAnchor for many commits at once (the git work is batched over all of them), in the order given. */
export async function computeAnchors(
  src: ProvenanceSources,
  repo: Repo,
  revs: readonly string[],
  opts: AnchorOptions = {},
): Promise<Anchor[]> {
  checkSources(src, repo);
  checkArgument(TextsArg, revs, 'revs');
  checkArgument(AnchorOptionsArg, opts, 'opts');
  const commits: string[] = [];
  for (const rev of revs) commits.push(await resolveRevision(repo, rev, 'commit'));
  // The commits are read with the runs' commits, in one process.
  const { chains, nodes } = await loadRunChains(src, repo, opts.runIds, commits);
  const links = await linkCommits(
    repo,
    commits.map((c) => nodes.get(c) as CommitNode),
    chains,
    undefined,
    nodes,
  );
  const createdAt = (opts.now ?? new Date()).toISOString();
  const onlyRuns = opts.runIds === undefined ? null : [...new Set(opts.runIds)].sort();
  const treeMatches = await Promise.all(links.map((l) => treeMatchOf(repo, l.treeMatches, l.node.commit)));
  return links.map((l, i) => {
    const runs = new Map<string, Set<number>>();
    const files = l.files.map((f) => anchorFile(f, runs));
    return {
      commit: l.node.commit,
      tree: l.node.tree,
      parents: l.node.parents,
      createdAt,
      treeMatch: treeMatches[i] ?? null,
      runs: runsOf(runs),
      files,
      coverage: {
        files: files.length,
        filesFromRuns: files.filter((f) => f.method !== 'none').length,
        linesAdded: files.reduce((n, f) => n + f.linesAdded, 0),
        linesFromRuns: files.reduce((n, f) => n + f.linesFromRuns, 0),
      },
      onlyRuns,
    };
  });
}

/** The anchors of every first-parent commit in `A..B`, oldest first (`anchor --range`); none for an empty range. */
export async function anchorRange(
  src: ProvenanceSources,
  repo: Repo,
  range: string,
  opts: AnchorOptions = {},
): Promise<Anchor[]> {
  checkSources(src, repo);
  checkArgument(TextArg, range, 'range');
  checkArgument(AnchorOptionsArg, opts, 'opts');
  // A...B (the commits on either side) has no first-parent order to anchor in: refused, not misread.
  const m = range.includes('...') ? null : /^(.+?)\.\.(.+)$/.exec(range);
  if (m === null)
    throw new InvalidArgumentError(`${JSON.stringify(range)} is not a range; give A..B (two revisions)`, {
      details: { range },
    });
  const from = await resolveRevision(repo, m[1] as string, 'commit');
  const to = await resolveRevision(repo, m[2] as string, 'commit');
  const commits = await firstParentRange(repo, from, to);
  // A push that brought no new first-parent commit (B already in A) has nothing to anchor: not an error.
  return commits.length === 0 ? [] : computeAnchors(src, repo, commits, opts);
}

/** The first of the iterations with REV's tree, ranked as `attest --commit` ranks them (rankTreeMatches). */
async function treeMatchOf(
  repo: Repo,
  matches: readonly Iteration[],
  commit: string,
): Promise<TreeMatch | null> {
  const [it] = matches.length > 1 ? await rankTreeMatches(repo, commit, matches) : matches;
  return it === undefined
    ? null
    : { runId: it.snapshot.runId, iteration: it.iteration, afterSha: it.after.commit };
}

/**
 * The origins (of anchors computed in this process) that are a WIP before commit's lines: reported
 * as iteration 0, as a recorded iteration 0 is, so the JSON cannot tell them apart; a report can.
 */
const wipOrigins = new WeakSet<AnchorOrigin>();

/** Whether `origin`, of an anchor computed in this process, is the lines of a run's WIP before commit. */
export function isWipOrigin(origin: AnchorOrigin): boolean {
  return wipOrigins.has(origin);
}

/**
 * One file of the anchor; adds to `runs` each run it names with the recorded iterations behind it
 * (the WIP's lines, iteration 0 in `origins`, are no iteration's: only an origin says which it is).
 */
function anchorFile(f: FileLink, runs: Map<string, Set<number>>): AnchorFile {
  const e = f.file.entry;
  const credited = creditedLines(f);
  const origins: AnchorOrigin[] = [];
  f.claims.forEach((claim, k) => {
    // The lines of all the run's WIP before commits are one origin here: iteration 0, not the agent's.
    const counts = new Map<number, number>();
    for (const o of credited[k] as Array<number | null>)
      if (o !== null) counts.set(oneWip(o), (counts.get(oneWip(o)) ?? 0) + 1);
    // Every line this run's content matched came through another run's own commit: not its.
    if (counts.size === 0 && claim.origins.some((o) => o !== null)) return;
    // No line of the change is the run's (a deletion, a binary or empty file): the iteration that
    // left the file so (every claim has one then: the engine keeps no claim that is nobody's).
    if (counts.size === 0 && claim.writer !== null) counts.set(oneWip(claim.writer), 0);
    const its = runs.get(claim.runId) ?? new Set<number>();
    if (counts.size > 0) runs.set(claim.runId, its);
    for (const [origin, lines] of [...counts].sort(([a], [b]) => a - b)) {
      if (byIteration(origin)) its.add(origin);
      const entry = { runId: claim.runId, iteration: reportedIteration(origin), lines };
      if (!byIteration(origin)) wipOrigins.add(entry);
      origins.push(entry);
    }
  });
  const fromRuns = f.added.filter((_, i) => credited.some((c) => byIteration(c[i]))).length;
  return {
    path: e.path,
    oldPath: e.oldPath,
    status: FILE_STATUS[e.status],
    linesAdded: f.added.length,
    linesFromRuns: fromRuns,
    method: f.claims[0]?.method ?? 'none',
    origins,
  };
}

/**
 * Each claim's origins with trace's preference applied: a line that came through a run's own
 * commit (an `ancestry` claim gives it an iteration, or a WIP commit's wipOrigin) is that run's alone,
 * never also a run whose content only matches it (the same text written by a run never merged).
 */
function creditedLines(f: FileLink): Array<Array<number | null>> {
  const own = f.added.map((_, i) =>
    f.claims.some((c) => c.method === 'ancestry' && (c.origins[i] ?? null) !== null),
  );
  return f.claims.map((c) =>
    c.method === 'ancestry' ? c.origins : c.origins.map((o, i) => (own[i] === true ? null : o)),
  );
}

function oneWip(origin: number): number {
  return isWip(origin) ? WIP_ORIGIN : origin;
}

function runsOf(runs: ReadonlyMap<string, ReadonlySet<number>>): AnchorRun[] {
  return [...runs]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([runId, its]) => ({ runId, iterations: [...its].sort((a, b) => a - b) }));
}
