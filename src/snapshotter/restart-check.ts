import type { DeletedSnapshot, RunRestart } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import { isAncestor } from '../git/refs.js';
import type { Repo } from '../git/repo.js';

/** What a restart is checked against: the run's iterations (any order) and where they started and ended. */
export type RunIteration = Pick<Snapshot, 'id' | 'runId' | 'iteration' | 'beforeSha' | 'afterSha'>;

/**
 * Whether restart `r` disagrees with the run's commits, as the reason (null: it agrees, or no
 * iteration was built on it yet: it awaits one, or is void). The first iteration after it (the first
 * numbered above `lastIteration`) must start at the restart point, iteration `from`'s after commit,
 * or on it (its WIP commit, a commit made there before `before`), and on none of the work the
 * restart set aside: an after commit of an iteration from `from` (0: from the run's start) to
 * `lastIteration` that the restart point does not hold. So a restart nobody declared cannot set a
 * failed iteration aside that the run's line was built on.
 */
export async function restartContradiction(
  r: RunRestart,
  iterations: readonly RunIteration[],
  repo: Repo | null,
  deleted: readonly DeletedSnapshot[] = [],
): Promise<{ next: RunIteration; why: string } | null> {
  const ordered = [...iterations].sort((a, b) => a.iteration - b.iteration);
  const next = ordered.find((s) => s.iteration > r.lastIteration);
  if (next === undefined) return null;
  const point = restartPoint(ordered, r.from, deleted);
  const on = async (base: string, commit: string) =>
    base === commit || (repo !== null && (await isAncestor(repo, base, commit).catch(() => false)));
  if (r.from > r.lastIteration || point !== r.sha)
    return {
      next,
      why: `its commit ${r.sha} is not ${r.from === 0 ? "the run's start" : `iteration ${r.from}'s after commit`} (${point ?? 'none'})`,
    };
  if (!(await on(r.sha, next.beforeSha)))
    return {
      next,
      why: `iteration ${next.iteration} starts at ${next.beforeSha}, which does not build on it`,
    };
  for (const s of ordered) {
    if (s.iteration > r.lastIteration || (s.iteration <= r.from && r.from !== 0)) continue;
    if (!(await on(s.afterSha, r.sha)) && (await on(s.afterSha, next.beforeSha)))
      return {
        next,
        why: `iteration ${next.iteration} builds on iteration ${s.iteration}'s after commit ${s.afterSha}, which it sets aside`,
      };
  }
  return null;
}

/** The name of a restart in a check's detail. */
export function restartName(r: RunRestart): string {
  return `the restart from ${r.from === 0 ? "the run's start" : `iteration ${r.from}`} after iteration ${r.lastIteration} (declared at ${r.at})`;
}

/**
 * The commit a restart from iteration `from` starts at: that iteration's after commit (its latest
 * snapshot), or for 0 the run's start (its first iteration's before SHA); null when there is none.
 * With the run's `deleted` captures, an iteration `delete` removed still names its point: a person
 * who cleans up the tries a restart left behind must not make the restart disagree with the run.
 */
export function restartPoint(
  snapshots: readonly RunIteration[],
  from: number,
  deleted: readonly DeletedSnapshot[] = [],
): string | null {
  const ordered = [...snapshots].sort((a, b) => a.iteration - b.iteration);
  const gone = [...deleted].sort((a, b) => a.iteration - b.iteration);
  if (from === 0) {
    const first = ordered[0]?.iteration ?? Infinity;
    // A deleted capture that came before every snapshot left started the run (when it kept where).
    const earlier = gone.find((d) => d.iteration < first);
    return earlier !== undefined ? (earlier.beforeSha ?? null) : (ordered[0]?.beforeSha ?? null);
  }
  return (
    ordered.filter((s) => s.iteration === from).at(-1)?.afterSha ??
    gone.filter((d) => d.iteration === from).at(-1)?.afterSha ??
    null
  );
}
