/**
 * `trace` of a file no recorded run names under any name blame gave it, which may still be a run's
 * file a person renamed. In a shallow clone, blame gives a boundary commit (its parent cut off)
 * every older line, under the name the file has there; the engine would link that commit's change
 * to its parent, which is not here, so a line blamed on it stops the trace (OBJECT_MISSING) when
 * a run of this repository may have written it, and only then: a file no run could have written
 * is traced as in a full clone, its boundary lines nobody's. A blamed commit whose version of the
 * file is byte for byte a version a run made of another file is linked to that run (aliases.ts).
 */
import type { BlameLine } from '../git/parsers/blame-porcelain.js';
import type { CommitLinks } from './claims.js';
import { catFile } from '../git/diff-content.js';
import { isNullId } from '../git/ids.js';
import {
  BEYOND_BOUNDARY,
  diffTreePairs,
  isShallow,
  missingParent,
  missingParents,
  parentTrees,
  type CommitNode,
} from '../git/provenance.js';
import type { Repo } from '../git/repo.js';
import { aliasedBlamed } from './aliases.js';
import { isWipMessage, loadRunChains, type RunChain } from './candidates.js';
import type { RecordSources } from './sources.js';
import { evidenceOf, MIN_EVIDENCE } from './evidence.js';

/**
 * The runs and the blamed commits `rest` to link for a file no recorded run names (see above),
 * after the shallow boundary's check. Every run of this repository is read for it (as `anchor`
 * reads them), only here.
 */
export async function unnamedFile(
  src: RecordSources,
  repo: Repo,
  lines: readonly BlameLine[],
  rest: readonly string[],
  hidden: ReadonlyMap<string, string>,
  nodes: Map<string, CommitNode>,
  runIds: readonly string[] | undefined,
): Promise<{ chains: RunChain[]; commits: string[] }> {
  let every: ReturnType<typeof loadRunChains> | undefined;
  const load = () => (every ??= loadRunChains(src, repo, runIds));
  const cut = await assertNoRunBeyondBoundary(
    repo,
    lines,
    rest,
    hidden,
    nodes,
    async () => (await load()).chains,
  );
  const open = new Set(rest.filter((c) => !cut.has(c)));
  if (open.size === 0) return { chains: [], commits: [] };
  const { chains, nodes: theirs } = await load();
  for (const [commit, node] of theirs) if (!nodes.has(commit)) nodes.set(commit, node);
  const versions = new Map(
    lines
      .filter((l) => open.has(l.commit))
      .map((l) => [`${l.commit}\0${l.filename}`, { commit: l.commit, path: l.filename }]),
  );
  return aliasedBlamed(repo, [...versions.values()], chains);
}

/**
 * OBJECT_MISSING (the boundary commit and its missing parent) when a line blamed on one of
 * `commits` whose parent is not in this shallow clone (or is, by other refs, but beyond the
 * boundary git and blame see: `hidden`, hiddenParents of the blamed commits) may be a run's: some run of `chains` (every
 * run of this repository) is here only in part, or the file's version at that commit is one a
 * run's step made (the same blob), or the blamed line is a line a run's step added and the lines
 * of that version a run's step added carry, together, enough to say where they came from
 * (MIN_EVIDENCE): every line the engine credits to a run is, byte for byte, a line some
 * iteration (or WIP before commit) of it added. Not shallow, or no boundary blamed: no git process.
 */
export async function assertNoRunBeyondBoundary(
  repo: Repo,
  lines: readonly BlameLine[],
  commits: readonly string[],
  hidden: ReadonlyMap<string, string>,
  nodes: ReadonlyMap<string, CommitNode>,
  chains: () => Promise<RunChain[]>,
): Promise<Set<string>> {
  if (commits.length === 0 || !(await isShallow(repo))) return new Set();
  const missing = await missingParents(
    repo,
    commits.flatMap((c) => nodes.get(c) ?? []),
    nodes,
  );
  const cut = new Map([...hidden, ...missing]);
  if (cut.size === 0) return new Set();
  const runs = await chains();
  if (runs.length === 0) return new Set(cut.keys());
  const stop = (commit: string) => missingParent(commit, cut.get(commit) as string);
  // A run's WIP before commit cut from its base: its lines are that run's iteration 0, not knowable here.
  for (const commit of cut.keys())
    if (
      runs.some(
        (c) =>
          isWipMessage(nodes.get(commit)?.message ?? '', c.runId) &&
          c.iterations.some((it) => it.before.commit === commit),
      )
    )
      throw stop(commit);
  // Part of a run: what its missing iteration wrote cannot be compared.
  const first = [...cut.keys()][0] as string;
  if (runs.some((c) => c.missing !== null)) throw stop(first);
  const versions = new Map<string, { commit: string; path: string; lines: BlameLine[] }>();
  for (const l of lines) {
    if (!cut.has(l.commit)) continue;
    const key = `${l.commit}\0${l.filename}`;
    const v = versions.get(key) ?? { commit: l.commit, path: l.filename, lines: [] };
    v.lines.push(l);
    versions.set(key, v);
  }
  const list = [...versions.values()];
  const [written, read] = await Promise.all([
    runsWrote(repo, runs),
    catFile(
      repo,
      'keep',
      list.map((v) => `${v.commit}:${v.path}`),
    ),
  ]);
  list.forEach((v, i) => {
    const o = read[i];
    if (o?.found !== true) return;
    const whole = written.blobs.has(o.id);
    if (mayHoldRunLines(o.content ?? Buffer.alloc(0), v.lines, written.lines, whole)) throw stop(v.commit);
  });
  return new Set(cut.keys());
}

/**
 * Whether a blamed line of `content` (a version of the file) is a line a run added, in a match
 * that says enough: the run's lines there carry MIN_EVIDENCE, or the version is one a run made
 * (`whole`: a short file of the run's, backed by the rest of its commit, may be credited).
 */
function mayHoldRunLines(
  content: Buffer,
  blamed: readonly BlameLine[],
  added: ReadonlySet<string>,
  whole: boolean,
): boolean {
  const text = content.toString('latin1').split('\n');
  if (text.at(-1) === '') text.pop();
  const ours = text.map((t) => added.has(t));
  if (!blamed.some((l) => ours[l.origLine - 1] === true)) return false;
  return whole || text.reduce((n, t, i) => (ours[i] === true ? n + evidenceOf(t) : n), 0) >= MIN_EVIDENCE;
}

/** Every line the runs' steps (iterations and WIP before commits) added, and the blobs they left: one diff. */
async function runsWrote(
  repo: Repo,
  runs: readonly RunChain[],
): Promise<{ lines: Set<string>; blobs: Set<string> }> {
  const pairs = new Map<string, { from: string; to: string }>();
  const add = (from: string, to: string) => pairs.set(`${from} ${to}`, { from, to });
  for (const c of runs)
    for (const it of c.iterations) {
      add(it.before.tree, it.after.tree);
      if (it.wip === null) continue;
      const { base, staged, commit } = it.wip;
      if (staged !== null) add(base.tree, staged.tree);
      add((staged ?? base).tree, commit.tree);
    }
  const lines = new Set<string>();
  const blobs = new Set<string>();
  for (const d of await diffTreePairs(repo, [...pairs.values()], null))
    for (const f of d.files) {
      if (!isNullId(f.entry.dstId)) blobs.add(f.entry.dstId);
      for (const h of f.hunks) for (const line of h.added) lines.add(line);
    }
  return { lines, blobs };
}

/**
 * OBJECT_MISSING for a line of a file some run names that blame gave a shallow boundary (`hidden`:
 * its parent is here, by other refs, yet git sees none) though that commit's change did not add
 * it, or added it only by renaming an older file (blame would have followed the rename): blame
 * could not look past the boundary, so the line may be older, a run's, and no origin would be a
 * guess. The boundary's own lines are linked as anywhere.
 */
export async function assertBoundaryOwnLines(
  repo: Repo,
  lines: readonly BlameLine[],
  hidden: ReadonlyMap<string, string>,
  links: ReadonlyMap<string, { link: CommitLinks }>,
  nodes: ReadonlyMap<string, CommitNode>,
): Promise<void> {
  if (hidden.size === 0) return;
  const own = new Map<string, Set<number>>();
  const added = new Map<string, CommitNode>();
  for (const l of lines) {
    const parent = hidden.get(l.commit);
    if (parent === undefined) continue;
    const key = `${l.commit}\0${l.filename}`;
    let mine = own.get(key);
    if (mine === undefined) {
      const file = links.get(l.commit)?.link.files.find((f) => f.file.entry.path === l.filename);
      mine = new Set(file?.added ?? []);
      own.set(key, mine);
      // Asked under this name alone, a rename is an addition: the whole change says which it is.
      if (file?.file.entry.status === 'A') added.set(key, nodes.get(l.commit) as CommitNode);
    }
    if (!mine.has(l.origLine)) throw missingParent(l.commit, parent, BEYOND_BOUNDARY);
  }
  if (added.size === 0) return;
  const commits = [...new Set(added.values())];
  const from = await parentTrees(repo, commits, nodes);
  const diffs = await diffTreePairs(
    repo,
    commits.map((n) => ({ from: from.get(n.commit) as string, to: n.tree })),
    null,
  );
  for (const [key, node] of added) {
    const path = key.slice(key.indexOf('\0') + 1);
    const diff = diffs[commits.indexOf(node)];
    if (diff?.files.some((f) => f.entry.path === path && f.entry.status === 'R'))
      throw missingParent(node.commit, hidden.get(node.commit) as string, BEYOND_BOUNDARY);
  }
}
