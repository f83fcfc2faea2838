import { basename, dirname, isAbsolute, join, posix } from 'node:path';
import type { Trace, TraceOrigin, TraceRange, TraceGate } from '../../types/anchor.js';
import { OBJECT_ID_PATTERN } from '../../types/ids.js';
import { TextArg, TraceOptionsArg } from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { PathNotFoundError } from '../errors.js';
import { realPathOf } from '../fs/inside.js';
import { readEscapedBytes } from '../fs/path-bytes.js';
import { binaryByContent } from '../git/diff-content.js';
import {
  BEYOND_BOUNDARY,
  blame,
  hiddenParents,
  missingParent,
  parentsSeen,
  parentTrees,
  type CommitNode,
} from '../git/provenance.js';
import { assertRevisionSyntax } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import type { BlameLine } from '../git/parsers/blame-porcelain.js';
import type { Snapshot } from '../../types/snapshot.js';
import {
  assertWhole,
  candidateSnapshots,
  chainsOfWipCommits,
  readChains,
  type Iteration,
  type RunChain,
} from './candidates.js';
import { wipCommits } from './claims.js';
import { linkCommits, STRENGTH, type CommitLinks, type FileLink } from './engine.js';
import { newestVerdicts } from './gates.js';
import { isWip, reportedIteration, wipIteration } from './lines.js';
import { fileAt, treePath } from './tree-path.js';
import { checkSources, type RecordSources } from './sources.js';
import { ancestryShortcut } from './trace-ancestry.js';
import { assertBoundaryOwnLines, unnamedFile } from './trace-unnamed.js';

export interface TraceOptions {
  /** Default HEAD. */
  rev?: string;
  /** Only lines START..END (1-based, inclusive), as `-L START,END`. */
  range?: { start: number; end: number };
  runIds?: readonly string[];
  /**
   * false: every blamed commit goes through the link engine, none through the ancestry shortcut
   * (the test that both give the same trace). Default true.
   */
  shortcut?: boolean;
}

interface LineOrigin {
  it: Iteration;
  /** A wipOrigin: the line comes from a WIP before commit of the run (reported as iteration 0). */
  iteration: number;
  others: string[];
}

/** A run's claim on a line, with how strongly the run explains the blamed commit's file. */
interface Found extends LineOrigin {
  strength: number;
}

/**
 * Blame by iteration: `git blame --porcelain` says which commit last changed each line at REV;
 * the anchor engine says which run and iteration wrote that line of that commit's change (the
 * run's chain of after commits replayed). A line no recorded iteration wrote has no origin.
 * A blamed commit that is exactly one iteration's own commit takes the ancestry shortcut
 * (trace-ancestry.ts): the same answer, with no diff and no replay.
 * Throws PATH_NOT_FOUND when PATH is no file at REV.
 */
export async function computeTrace(
  src: RecordSources,
  repo: Repo,
  givenPath: string,
  opts: TraceOptions = {},
): Promise<Trace> {
  return (await traceWithWip(src, repo, givenPath, opts)).trace;
}

/**
 * computeTrace, and which of its ranges are a run's WIP before commit: iteration 0 in the Trace, as
 * is a recorded iteration numbered 0, but lines that were there when the run began, not the agent's
 * (Agent Trace's `unknown`, `report --anchor`'s lines no run wrote).
 */
export async function traceWithWip(
  src: RecordSources,
  repo: Repo,
  givenPath: string,
  opts: TraceOptions = {},
): Promise<{ trace: Trace; wip: ReadonlySet<TraceRange> }> {
  checkSources(src, repo, 'records');
  checkArgument(TextArg, givenPath, 'givenPath');
  checkArgument(TraceOptionsArg, opts, 'opts');
  if (givenPath.includes('\0'))
    throw new PathNotFoundError(
      `${JSON.stringify(givenPath)} holds a NUL byte, which no file name can; give a file's path from the repository's top level`,
      { details: { path: givenPath } },
    );
  const given = opts.rev ?? 'HEAD';
  assertRevisionSyntax(given);
  // An absolute path may reach the top level through a symbolic link (macOS /tmp): its directory's real path counts.
  const named = isAbsolute(givenPath)
    ? join(await realPathOf(dirname(givenPath)), basename(givenPath))
    : givenPath;
  const asGiven = treePath(repo.topLevel, named) ?? notInRepository(givenPath, named, repo.topLevel);
  // A full object id names one commit whatever refs do meanwhile: its blame starts at once (unless
  // PATH may spell a name that is not UTF-8: fileAt says). Any other name is resolved first, so
  // that the trace and its `rev` name the same commit.
  const odd = readEscapedBytes(asGiven) !== null || asGiven.includes('\ufffd');
  const early =
    OBJECT_ID_PATTERN.test(given) && !odd ? blameAndRuns(src, repo, given, asGiven, opts) : undefined;
  const { rev, path } = await fileAt(repo, given, asGiven);
  const started = early ?? blameAndRuns(src, repo, rev, path, opts);
  const { lines, text, renames } = await started.blaming;
  const blamed = [...new Set(lines.map((l) => l.commit))];
  // Blame names every path the file had; only runs that changed one of them can have written a line.
  // ... and the path a blamed commit renamed it from: a run may have written the lines under that name.
  const names = new Set([...lines.map((l) => l.filename), ...renames.values()]);
  const touching = new Set([path, ...names]);
  const { chains, nodes, recorded } =
    touching.size === 1
      ? await started.chains
      : await chainsNaming(repo, await candidateSnapshots(src, opts.runIds, touching), blamed);
  // A line blamed on a run's WIP before commit is that run's (iteration 0), though its records may not name the file.
  const wip = await chainsOfWipCommits(
    src,
    repo,
    blamed,
    nodes,
    new Set(chains.map((c) => c.runId)),
    opts.runIds,
  );
  for (const [commit, node] of wip.nodes) nodes.set(commit, node);
  chains.push(...wip.chains);
  const blamedSet = new Set(blamed);
  const touched = chains.filter(
    (c) => [...names].some((n) => c.paths.has(n)) || wipCommits(c).some((w) => blamedSet.has(w)),
  );
  // The gates of every run that may be named are read while the engine works.
  const verdicts = new Map(touched.map((c) => [c.runId, newestVerdicts(src, c.runId)]));
  for (const v of verdicts.values()) v.catch(() => undefined);
  const shortcut =
    opts.shortcut === false
      ? new Map<string, Iteration>()
      : ancestryShortcut(path, names, touched, blamed, text);
  // The parents git sees (a shallow clone only: one rev-list), for the shortcut and the boundary below.
  const seen = parentsSeen(repo, blamed);
  if (shortcut.size > 0) {
    const [binary, parents] = await Promise.all([binaryDiffs(repo, path, shortcut), seen]);
    // A change git's diff takes as binary (by content: no attribute counts) has no lines: the engine says so.
    for (const commit of binary) shortcut.delete(commit);
    // A shallow clone's boundary is a root to blame, which gives it the older lines too (grafts: never read).
    if (parents !== null)
      for (const [commit, it] of shortcut)
        if (parents.get(commit)?.join(' ') !== it.before.commit) shortcut.delete(commit);
  }
  const rest = blamed.filter((c) => !shortcut.has(c));
  // A shallow boundary whose parent came in by other refs: blame gave it the older lines too.
  const restNodes = rest.flatMap((c) => nodes.get(c) ?? []);
  const hidden = hiddenParents(restNodes, await seen);
  let linkWith = touched;
  let linked = rest;
  // A run that names the file but that a shallow boundary cuts off here is no chain: a blamed
  // commit whose parent is missing may hold its lines, so it stops the trace as the engine would.
  if (touched.length === 0 && rest.length > 0) {
    if (recorded) {
      await parentTrees(repo, restNodes, nodes);
      for (const [commit, parent] of hidden) throw missingParent(commit, parent, BEYOND_BOUNDARY);
    } else {
      const unnamed = await unnamedFile(src, repo, lines, rest, hidden, nodes, opts.runIds);
      ({ chains: linkWith, commits: linked } = unnamed);
    }
  }
  for (const c of linkWith)
    if (!verdicts.has(c.runId)) {
      const read = newestVerdicts(src, c.runId);
      read.catch(() => undefined);
      verdicts.set(c.runId, read);
      if (!chains.includes(c)) chains.push(c);
    }
  const links =
    linkWith.length === 0 || linked.length === 0
      ? new Map<string, never>()
      : await linkBlamed(repo, lines, linked, nodes, linkWith, renames);
  if (touched.length > 0) await assertBoundaryOwnLines(repo, lines, hidden, links, nodes);
  // Part of a run that wrote the file would leave its missing iteration's lines nobody's (the
  // engine says so too; the shortcut needs this), after a missing parent of a blamed commit.
  assertWhole(touched);
  const byRun = new Map(chains.map((c) => [c.runId, c]));
  // A shortcut commit's lines share one origin.
  const quick = new Map([...shortcut].map(([c, it]) => [c, { it, iteration: it.iteration, others: [] }]));
  const origins = lines.map(
    (l): LineOrigin | null =>
      quick.get(l.commit) ?? originOf(links.get(l.commit), l.filename, l.origLine, byRun),
  );
  const gates = new Map<string, Map<number, TraceGate[]>>();
  for (const o of origins)
    if (o !== null && !gates.has(o.it.snapshot.runId))
      gates.set(
        o.it.snapshot.runId,
        await (verdicts.get(o.it.snapshot.runId) as Promise<Map<number, TraceGate[]>>),
      );
  const wipRanges = new Set<TraceRange>();
  return { trace: { path, rev, ranges: rangesOf(lines, origins, gates, wipRanges) }, wip: wipRanges };
}

/**
 * Blame of PATH at `at`, and while it works the store read (the runs whose records name PATH) and
 * one cat-file reading those runs' commits, then each blamed commit as blame first names it. Blame
 * may show older names of the file: the caller then asks the store again. Every promise's error
 * waits for the caller to await it (REV's and PATH's first).
 */
function blameAndRuns(
  src: RecordSources,
  repo: Repo,
  at: string,
  path: string,
  opts: TraceOptions,
): {
  blaming: ReturnType<typeof blame>;
  chains: ReturnType<typeof chainsNaming>;
} {
  const named = batches<string>();
  const blaming = blame(repo, at, path, opts.range, (commit) => named.push(commit));
  blaming.then(named.end, named.end);
  const chains = candidateSnapshots(src, opts.runIds, new Set([path])).then((snapshots) =>
    chainsNaming(repo, snapshots, named.batches),
  );
  for (const p of [blaming, chains]) p.catch(() => undefined);
  return { blaming, chains };
}

/**
 * The shortcut's commits whose change to PATH git's diff takes as binary (the iteration's before
 * or after blob, by content), in one cat-file: the engine gives their lines none.
 */
async function binaryDiffs(
  repo: Repo,
  path: string,
  shortcut: ReadonlyMap<string, Iteration>,
): Promise<Set<string>> {
  const its = [...shortcut.values()];
  const binary = await binaryByContent(
    repo,
    its.flatMap((it) => [`${it.before.commit}:${path}`, `${it.after.commit}:${path}`]),
  );
  return new Set(
    its.filter((_, i) => binary[2 * i] === true || binary[2 * i + 1] === true).map((it) => it.after.commit),
  );
}

/** readChains, and whether any run's records name the file (its commits in this clone or not). */
async function chainsNaming(
  repo: Repo,
  snapshots: readonly Snapshot[],
  alsoRead: Parameters<typeof readChains>[2],
): Promise<{ chains: RunChain[]; nodes: Map<string, CommitNode>; recorded: boolean }> {
  return { ...(await readChains(repo, snapshots, alsoRead)), recorded: snapshots.length > 0 };
}

/** Values pushed one by one, read as the batches that came between two reads, until `end`. */
function batches<T>(): { push: (v: T) => void; end: () => void; batches: AsyncIterable<T[]> } {
  let buffer: T[] = [];
  let ended = false;
  let wake: (() => void) | null = null;
  const ring = (): void => {
    wake?.();
    wake = null;
  };
  return {
    push: (v) => {
      buffer.push(v);
      ring();
    },
    end: () => {
      ended = true;
      ring();
    },
    batches: {
      async *[Symbol.asyncIterator]() {
        for (;;) {
          if (buffer.length > 0) {
            const out = buffer;
            buffer = [];
            yield out;
          } else if (ended) return;
          else await new Promise<void>((resolve) => (wake = resolve));
        }
      },
    },
  };
}

/**
 * The lines joined into ranges: a line joins the range before it when their origins are equal (the
 * snapshot, the iteration and the other runs decide the whole origin: runId, afterSha and gates
 * follow from them), so an origin is built once per range. The ranges of a WIP origin go in `wip`.
 */
function rangesOf(
  lines: readonly BlameLine[],
  origins: ReadonlyArray<LineOrigin | null>,
  gates: ReadonlyMap<string, Map<number, TraceGate[]>>,
  wip: Set<TraceRange>,
): TraceRange[] {
  const ranges: TraceRange[] = [];
  let last: TraceRange | undefined;
  let lastOrigin: LineOrigin | null = null;
  lines.forEach((l, i) => {
    const o = origins[i] ?? null;
    if (
      last !== undefined &&
      last.end === l.finalLine - 1 &&
      last.commit === l.commit &&
      sameOrigin(lastOrigin, o)
    ) {
      last.end = l.finalLine;
      return;
    }
    lastOrigin = o;
    last = {
      start: l.finalLine,
      end: l.finalLine,
      commit: l.commit,
      origin: traceOrigin(o, gates),
      alsoIn: o?.others ?? [],
    };
    if (o !== null && isWip(o.iteration)) wip.add(last);
    ranges.push(last);
  });
  return ranges;
}

function sameOrigin(a: LineOrigin | null, b: LineOrigin | null): boolean {
  if (a === b) return true;
  if (a === null || b === null) return false;
  return (
    a.it.snapshot.id === b.it.snapshot.id &&
    a.iteration === b.iteration &&
    a.others.length === b.others.length &&
    a.others.every((r, i) => r === b.others[i])
  );
}

function traceOrigin(
  o: LineOrigin | null,
  gates: ReadonlyMap<string, Map<number, TraceGate[]>>,
): TraceOrigin | null {
  if (o === null) return null;
  const wip = isWip(o.iteration);
  return {
    runId: o.it.snapshot.runId,
    iteration: reportedIteration(o.iteration),
    snapshotId: o.it.snapshot.id,
    afterSha: wip ? (o.it.wip?.commit.commit ?? o.it.before.commit) : o.it.after.commit,
    gates: wip ? [] : (gates.get(o.it.snapshot.runId)?.get(o.iteration) ?? []),
  };
}

function notInRepository(path: string, named: string, topLevel: string): never {
  // `.`, `./`, `sub/..`, the top level's absolute path: a file below it would be named by its own name.
  if (treePath(topLevel, isAbsolute(named) ? join(named, 'f') : posix.join(named, 'f')) === 'f')
    throw new PathNotFoundError(
      `${path} is the repository's top level, a directory; give the path of a file in it`,
      { details: { path, type: 'tree' } },
    );
  throw new PathNotFoundError(
    `${path} is not inside the repository at ${topLevel}; give a file's path from its top level`,
    { details: { path } },
  );
}

/** The engine on the blamed commits `commits`, over every name blame gave the file. */
async function linkBlamed(
  repo: Repo,
  lines: ReadonlyArray<{ commit: string; filename: string }>,
  commits: readonly string[],
  nodes: ReadonlyMap<string, CommitNode>,
  chains: RunChain[],
  renames: ReadonlyMap<string, string>,
): Promise<Map<string, { link: CommitLinks; filename: string }>> {
  const fileOf = new Map(lines.map((l) => [l.commit, l.filename]));
  const list = commits.map((c) => nodes.get(c) as CommitNode);
  // A renaming commit's diff is asked under both names, so that git pairs them as a rename.
  const paths = [...new Set([...fileOf.values(), ...commits.flatMap((c) => renames.get(c) ?? [])])];
  const links = await linkCommits(
    repo,
    list,
    chains,
    { paths, keep: (commit, p) => fileOf.get(commit) === p },
    nodes,
  );
  return new Map(
    links.map((l) => [l.node.commit, { link: l, filename: fileOf.get(l.node.commit) as string }]),
  );
}

const addedIndexes = new WeakMap<FileLink, Map<number, number>>();

/** Where each line the commit adds stands in `added` (its first place, as indexOf gives). */
function addedIndex(file: FileLink): Map<number, number> {
  let index = addedIndexes.get(file);
  if (index === undefined) {
    index = new Map();
    for (let i = file.added.length - 1; i >= 0; i--) index.set(file.added[i] as number, i);
    addedIndexes.set(file, index);
  }
  return index;
}

/**
 * Of the runs whose iteration wrote the line, the one that explains the blamed commit most
 * strongly (the run whose own commit blame names, by ancestry, before one matched by content),
 * then the one recorded last; the others are named too.
 */
function originOf(
  at: { link: CommitLinks; filename: string } | undefined,
  filename: string,
  line: number,
  runs: ReadonlyMap<string, RunChain>,
): LineOrigin | null {
  const file = at?.link.files.find((f) => f.file.entry.path === filename);
  if (file === undefined) return null;
  const index = addedIndex(file).get(line) ?? -1;
  if (index < 0) return null;
  const found: Found[] = [];
  for (const claim of file.claims) {
    const iteration = claim.origins[index];
    if (iteration === null || iteration === undefined) continue;
    const it = runs
      .get(claim.runId)
      ?.iterations.find((i) =>
        isWip(iteration)
          ? i.wip !== null && i.iteration === wipIteration(iteration)
          : i.iteration === iteration,
      );
    if (it !== undefined) found.push({ it, iteration, others: [], strength: STRENGTH[claim.method] });
  }
  if (found.length === 0) return null;
  found.sort(
    (a, b) =>
      b.strength - a.strength || Date.parse(b.it.snapshot.createdAt) - Date.parse(a.it.snapshot.createdAt),
  );
  const best = found[0] as Found;
  const others = [...new Set(found.map((f) => f.it.snapshot.runId))].filter(
    (r) => r !== best.it.snapshot.runId,
  );
  return { it: best.it, iteration: best.iteration, others: others.sort() };
}
