/**
 * A commit that was already there when an iteration began (the commit the run started from, one
 * older, a person's commit between two iterations) holds none of that iteration's lines, whatever
 * its content matches: an iteration that wrote a line again (an edit undone, a block moved away
 * and back) wrote it after that commit was made.
 */
import { reachedFrom } from '../git/ancestry.js';
import { isNullId } from '../git/ids.js';
import type { Repo } from '../git/repo.js';
import type { RunChain } from './candidates.js';
import { explains, type CommitLinks, type RunClaim } from './claims.js';
import { isWip, wipIteration } from './lines.js';

/** The commits the lines of `origin` were written after: each such iteration's before commit (a WIP's: the commit it was made on). */
function startsOf(chain: RunChain | undefined, origin: number): string[] {
  const wip = isWip(origin);
  const n = wip ? wipIteration(origin) : origin;
  return (chain?.iterations ?? [])
    .filter((it) => it.iteration === n && (!wip || it.wip !== null))
    .map((it) => (wip ? (it.wip?.base.commit as string) : it.before.commit))
    .filter((c) => !isNullId(c));
}

/** Every origin (and writer) a claim names. */
function named(c: RunClaim): number[] {
  return [...c.origins, c.writer].filter((o): o is number => o !== null);
}

/**
 * Sets to none each origin of a claim on a commit that is, or is an ancestor of, every commit the
 * origin's lines were written after, and drops the claims that then explain nothing. `ancestry`
 * claims (the run's commit is in the commit's history) are not asked.
 */
export async function dropPredating(
  repo: Repo,
  links: CommitLinks[],
  chains: ReadonlyMap<string, RunChain>,
): Promise<void> {
  const asks = new Map<string, Set<string>>();
  for (const l of links)
    for (const f of l.files)
      for (const c of f.claims)
        if (c.method !== 'ancestry')
          for (const o of named(c))
            for (const s of startsOf(chains.get(c.runId), o))
              asks.set(s, (asks.get(s) ?? new Set()).add(l.node.commit));
  if (asks.size === 0) return;
  // One walk answers the usual case, a commit no iteration began after; only a commit older than
  // some start is asked again, per start, when there are several.
  const starts = [...asks.keys()];
  const older = await reachedFrom(repo, [...new Set([...asks.values()].flatMap((cs) => [...cs]))], starts);
  const olderBy = new Map<string, Set<string>>();
  for (const [s, cs] of asks) {
    const some = [...cs].filter((c) => older.has(c));
    if (some.length > 0)
      olderBy.set(s, starts.length === 1 ? new Set(some) : await reachedFrom(repo, some, [s]));
  }
  for (const l of links) {
    const predates = (runId: string, o: number | null): boolean => {
      if (o === null) return false;
      const starts = startsOf(chains.get(runId), o);
      return starts.length > 0 && starts.every((s) => olderBy.get(s)?.has(l.node.commit) === true);
    };
    for (const f of l.files)
      f.claims = f.claims.flatMap((c) => {
        if (c.method === 'ancestry') return [c];
        const kept = {
          ...c,
          origins: c.origins.map((o) => (predates(c.runId, o) ? null : o)),
          writer: predates(c.runId, c.writer) ? null : c.writer,
        };
        return explains(kept) ? [kept] : [];
      });
  }
}
