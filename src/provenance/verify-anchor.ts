import type { Anchor } from '../../types/anchor.js';
import type { VerifyReport } from '../../types/verify.js';
import { TextArg } from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { AnchorNotFoundError, RunNotFoundError } from '../errors.js';
import { resolveRevision } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { computeAnchor } from './anchor.js';
import { anchorDifferences } from './compare.js';
import { checkSources, type ProvenanceSources } from './sources.js';

/**
 * `verify --anchor REV`: recomputes REV's anchor from the records and git (narrowed to the runs the
 * recorded one was, if it was) and compares it with the recorded one, createdAt aside, as
 * `report --anchor` and `fetch` do (`anchorDifferences`). ANCHOR_NOT_FOUND when REV has no
 * recorded anchor. A run the recorded anchor was narrowed to that this home no longer holds fails
 * the check (`anchor` null): the records no longer say what it says, as for an anchor of every run.
 */
export async function verifyAnchor(
  src: ProvenanceSources,
  repo: Repo,
  rev: string,
): Promise<VerifyReport & { anchor: Anchor | null }> {
  checkSources(src, repo);
  checkArgument(TextArg, rev, 'rev');
  const commit = await resolveRevision(repo, rev, 'commit');
  const recorded = await src.anchors.load(commit);
  if (recorded === null)
    throw new AnchorNotFoundError(
      `commit ${commit} has no recorded anchor in this home; "anchor ${commit.slice(0, 12)}" records one`,
      { details: { commit } },
    );
  const of = `the recorded anchor of ${commit.slice(0, 12)}`;
  const computed = await computeAnchor(src, repo, commit, {
    ...(recorded.onlyRuns ? { runIds: recorded.onlyRuns } : {}),
  }).catch((error: unknown) => {
    if (error instanceof RunNotFoundError) return error;
    throw error;
  });
  if (computed instanceof RunNotFoundError)
    return report(false, `${of} cannot be recomputed here: ${computed.code}: ${computed.message}`, null);
  const differ = anchorDifferences(recorded, computed);
  return report(
    differ.length === 0,
    differ.length === 0
      ? `${of} recomputes the same (${computed.coverage.linesFromRuns} of ${computed.coverage.linesAdded} lines from runs)`
      : `${of} differs from what the records and git say now: ${differ.slice(0, 10).join(', ')}${differ.length > 10 ? ', ...' : ''}`,
    computed,
  );
}

function report<T>(ok: boolean, detail: string, anchor: T): VerifyReport & { anchor: T } {
  return { ok, checks: [{ snapshotId: null, runId: null, check: 'anchor', ok, detail }], anchor };
}
