import { resolve } from 'node:path';
import { CommitNotGatedError } from '../errors.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { attestSources, buildStatement } from '../gates/attest.js';
import { isAncestor, resolveRevision } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { loadRunChains, type Iteration } from './candidates.js';
import type { ProvenanceSources, RecordSources } from './sources.js';

/**
 * `attest --commit REV`: a Statement whose one subject is REV (`gitCommit`), with the Test Result
 * predicate of the iteration whose after tree is REV's tree (the first `gatedIterations` ranks when
 * several are). A verdict holds for the exact tree it judged: COMMIT_NOT_GATED (exit 3) otherwise.
 */
export async function writeCommitStatement(
  src: ProvenanceSources,
  repo: Repo,
  rev: string,
  file: string,
  opts: { env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ file: string; subjects: number; runId: string; iteration: number }> {
  const commit = await resolveRevision(repo, rev, 'commit');
  const { tree, matches } = await gatedIterations(src, repo, commit);
  const [match] = matches;
  if (match === undefined)
    throw new CommitNotGatedError(
      `the tree of ${commit.slice(0, 12)} is no recorded iteration's after tree, so no gate judged it; attest the run instead ("attest --run ID"), or "anchor ${commit.slice(0, 12)}" to see which runs it came from`,
      { details: { commit, tree } },
    );
  const statement = await buildStatement(attestSources(src.snapshotter), match.snapshot.runId, {
    iteration: match.iteration,
    ...(opts.env === undefined ? {} : { env: opts.env }),
  });
  statement.subject = [{ name: `commit/${commit}`, digest: { gitCommit: commit } }];
  const path = resolve(opts.cwd ?? process.cwd(), file);
  await writeJsonAtomic(path, statement);
  return { file: path, subjects: 1, runId: match.snapshot.runId, iteration: match.iteration };
}

/**
 * Every iteration whose after tree is `commit`'s tree, best first: the one whose after commit is
 * the commit, then one whose after commit is in the commit's history, then the rest; within each,
 * an iteration that changed its tree before one that did nothing, then the one recorded last.
 * `attest --commit` takes the first; `verify --attestation` checks the one its statement names, so
 * a run recorded later on the same tree (an agent that did nothing at HEAD, a fetched run) never
 * invalidates a statement. `tree` is null when the commit (a full id) is not in this repository.
 */
export async function gatedIterations(
  src: RecordSources,
  repo: Repo,
  commit: string,
): Promise<{ tree: string | null; matches: Iteration[] }> {
  const { chains, nodes } = await loadRunChains(src, repo, undefined, [commit]);
  const tree = nodes.get(commit)?.tree ?? null;
  const found = chains.flatMap((c) => c.iterations).filter((it) => tree !== null && it.after.tree === tree);
  const rank = await historyRank(repo, commit, found);
  const newest = (it: Iteration) => Date.parse(it.snapshot.createdAt);
  const idle = (it: Iteration) => (it.after.tree === it.before.tree ? 1 : 0);
  const matches = found.sort(
    (a, b) =>
      (rank.get(a.after.commit) ?? 2) - (rank.get(b.after.commit) ?? 2) ||
      idle(a) - idle(b) ||
      newest(b) - newest(a),
  );
  return { tree, matches };
}

/**
 * After commit -> 0 (the commit itself) or 1 (in its history); absent: neither. The history is
 * asked (one `merge-base --is-ancestor` per after commit) only when no match is the commit itself
 * and there is a choice to make.
 */
async function historyRank(
  repo: Repo,
  commit: string,
  found: readonly Iteration[],
): Promise<Map<string, number>> {
  const rank = new Map<string, number>();
  if (found.some((it) => it.after.commit === commit)) rank.set(commit, 0);
  else if (found.length > 1)
    for (const after of new Set(found.map((it) => it.after.commit)))
      if (await isAncestor(repo, after, commit)) rank.set(after, 1);
  return rank;
}
