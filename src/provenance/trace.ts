import type { Trace, TraceOrigin, TraceRange, TraceGate } from '../../types/anchor.js';
import { PathNotFoundError } from '../errors.js';
import { blame, isFileAt, type CommitNode } from '../git/provenance.js';
import { batchCheck } from '../git/record-objects.js';
import { assertRevisionSyntax, resolveRevision } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { loadRunChainsWith, type Iteration, type RunChain } from './candidates.js';
import { linkCommits, type CommitLinks, type FileLink } from './engine.js';
import { newestVerdicts } from './gates.js';
import { treePath } from './tree-path.js';
import type { ProvenanceSources } from './sources.js';

export interface TraceOptions {
  /** Default HEAD. */
  rev?: string;
  /** Only lines START..END (1-based, inclusive), as `-L START,END`. */
  range?: { start: number; end: number };
  runIds?: readonly string[];
}

interface LineOrigin {
  it: Iteration;
  /** 0: the line comes from the run's WIP before commit. */
  iteration: number;
  others: string[];
}

/**
 * Blame by iteration: `git blame --porcelain` says which commit last changed each line at REV;
 * the anchor engine says which run and iteration wrote that line of that commit's change (the
 * run's chain of after commits replayed). A line no recorded iteration wrote has no origin.
 * Throws PATH_NOT_FOUND when PATH is no file at REV.
 */
export async function computeTrace(
  src: ProvenanceSources,
  repo: Repo,
  givenPath: string,
  opts: TraceOptions = {},
): Promise<Trace> {
  const given = opts.rev ?? 'HEAD';
  assertRevisionSyntax(given);
  const path = treePath(repo.topLevel, givenPath) ?? notInRepository(givenPath, repo.topLevel);
  // One process says what REV is and whether PATH is a file there (a name with a line break cannot
  // go on batch-check's stdin: ls-tree then); the resolver explains a missing REV.
  const plain = !/[\n\r]/.test(path);
  const [commit, file] = await batchCheck(repo, [
    `${given}^{commit}`,
    ...(plain ? [`${given}^{commit}:${path}`] : []),
  ]);
  const rev = commit?.found === true ? commit.id : await resolveRevision(repo, given, 'commit');
  const isFile = plain ? file?.found === true && file.type === 'blob' : await isFileAt(repo, rev, path);
  if (!isFile)
    throw new PathNotFoundError(
      `${path} is not a file at ${rev.slice(0, 12)}; give its path from the repository's top level`,
      { details: { path, rev } },
    );
  const lines = await blame(repo, rev, path, opts.range);
  // Blame names every path the file had; only runs that changed one of them can have written a line.
  const names = new Set(lines.map((l) => l.filename));
  // The blamed commits are read with the runs' commits, in one process.
  const { chains, nodes } = await loadRunChainsWith(src, repo, {
    runIds: opts.runIds,
    touching: new Set([path, ...names]),
    alsoRead: [...new Set(lines.map((l) => l.commit))],
  });
  const touched = chains.filter((c) => [...names].some((n) => c.paths.has(n)));
  const links =
    touched.length === 0 ? new Map<string, never>() : await linkBlamed(repo, lines, nodes, touched);
  const byRun = new Map(chains.map((c) => [c.runId, c]));
  const origins = lines.map((l) => originOf(links.get(l.commit), l.filename, l.origLine, byRun));
  const gates = new Map<string, Map<number, TraceGate[]>>();
  for (const o of origins)
    if (o !== null && !gates.has(o.it.snapshot.runId))
      gates.set(o.it.snapshot.runId, await newestVerdicts(src, o.it.snapshot.runId));
  const ranges: TraceRange[] = [];
  // A line joins the range before it when their origins are equal: the snapshot, the iteration and
  // the other runs decide the whole origin (runId, afterSha and gates follow from them).
  let lastKey = '';
  lines.forEach((l, i) => {
    const o = origins[i] ?? null;
    const origin: TraceOrigin | null =
      o === null
        ? null
        : {
            runId: o.it.snapshot.runId,
            iteration: o.iteration,
            snapshotId: o.it.snapshot.id,
            afterSha: o.iteration === 0 ? (o.it.wip?.commit.commit ?? o.it.before.commit) : o.it.after.commit,
            gates: o.iteration === 0 ? [] : (gates.get(o.it.snapshot.runId)?.get(o.iteration) ?? []),
          };
    const key = o === null ? '' : `${o.it.snapshot.id}\0${o.iteration}\0${o.others.join('\0')}`;
    const last = ranges.at(-1);
    if (last !== undefined && last.end === l.finalLine - 1 && last.commit === l.commit && lastKey === key)
      last.end = l.finalLine;
    else {
      lastKey = key;
      ranges.push({
        start: l.finalLine,
        end: l.finalLine,
        commit: l.commit,
        origin,
        alsoIn: o?.others ?? [],
      });
    }
  });
  return { path, rev, ranges };
}

function notInRepository(path: string, topLevel: string): never {
  throw new PathNotFoundError(
    `${path} is not inside the repository at ${topLevel}; give a file's path from its top level`,
    { details: { path } },
  );
}

async function linkBlamed(
  repo: Repo,
  lines: ReadonlyArray<{ commit: string; filename: string }>,
  nodes: ReadonlyMap<string, CommitNode>,
  chains: RunChain[],
): Promise<Map<string, { link: CommitLinks; filename: string }>> {
  const fileOf = new Map(lines.map((l) => [l.commit, l.filename]));
  const list = [...fileOf.keys()].map((c) => nodes.get(c) as CommitNode);
  const links = await linkCommits(
    repo,
    list,
    chains,
    { paths: [...new Set(fileOf.values())], keep: (commit, p) => fileOf.get(commit) === p },
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

/** Of the runs whose iteration wrote the line, the one recorded last; the others are named too. */
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
  const found: LineOrigin[] = [];
  for (const claim of file.claims) {
    const iteration = claim.origins[index];
    if (iteration === null || iteration === undefined) continue;
    const it = runs
      .get(claim.runId)
      ?.iterations.find((i) => (iteration === 0 ? i.wip !== null : i.iteration === iteration));
    if (it !== undefined) found.push({ it, iteration, others: [] });
  }
  if (found.length <= 1) return found[0] ?? null;
  found.sort((a, b) => Date.parse(b.it.snapshot.createdAt) - Date.parse(a.it.snapshot.createdAt));
  const best = found[0] as LineOrigin;
  const others = [...new Set(found.map((f) => f.it.snapshot.runId))].filter(
    (r) => r !== best.it.snapshot.runId,
  );
  return { ...best, others: others.sort() };
}
