import { isAncestor } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import type { Iteration } from './candidates.js';

/**
 * The iterations whose after tree is `commit`'s tree (`found`), best first: the one whose after
 * commit is the commit, then one whose after commit is in the commit's history, then the rest;
 * within each, an iteration that changed its tree before one that did nothing, then the one
 * recorded last (then the higher iteration and run id: one order). `attest --commit` takes the
 * first, and so does an anchor's `treeMatch`; `verify --attestation` checks the one its statement
 * names, so a run recorded later on the same tree (an agent that did nothing at HEAD, a fetched
 * run) never invalidates a statement.
 */
export async function rankTreeMatches(
  repo: Repo,
  commit: string,
  found: readonly Iteration[],
): Promise<Iteration[]> {
  const rank = await historyRank(repo, commit, found);
  const newest = (it: Iteration) => Date.parse(it.snapshot.createdAt);
  const idle = (it: Iteration) => (it.after.tree === it.before.tree ? 1 : 0);
  return [...found].sort(
    (a, b) =>
      (rank.get(a.after.commit) ?? 2) - (rank.get(b.after.commit) ?? 2) ||
      idle(a) - idle(b) ||
      newest(b) - newest(a) ||
      b.iteration - a.iteration ||
      (a.snapshot.runId < b.snapshot.runId ? 1 : -1),
  );
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
