import type { Anchor } from '../../types/anchor.js';
import type { VerifyReport } from '../../types/verify.js';
import { AnchorNotFoundError } from '../errors.js';
import { resolveRevision } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { computeAnchor } from './anchor.js';
import { anchorDifferences } from './compare.js';
import type { ProvenanceSources } from './sources.js';

/**
 * `verify --anchor REV`: recomputes REV's anchor from the records and git (narrowed to the runs the
 * recorded one was, if it was) and compares it with the recorded one, createdAt aside.
 * ANCHOR_NOT_FOUND when REV has no recorded anchor.
 */
export async function verifyAnchor(
  src: ProvenanceSources,
  repo: Repo,
  rev: string,
): Promise<VerifyReport & { anchor: Anchor }> {
  const commit = await resolveRevision(repo, rev, 'commit');
  const recorded = await src.anchors.load(commit);
  if (recorded === null)
    throw new AnchorNotFoundError(
      `commit ${commit} has no recorded anchor in this home; "anchor ${commit.slice(0, 12)}" records one`,
      { details: { commit } },
    );
  const computed = await computeAnchor(src, repo, commit, {
    ...(recorded.onlyRuns ? { runIds: recorded.onlyRuns } : {}),
  });
  const differ = anchorDifferences(recorded, computed);
  const check = {
    snapshotId: null,
    runId: null,
    check: 'anchor',
    ok: differ.length === 0,
    detail:
      differ.length === 0
        ? `the recorded anchor of ${commit.slice(0, 12)} recomputes the same (${computed.coverage.linesFromRuns} of ${computed.coverage.linesAdded} lines from runs)`
        : `the recorded anchor of ${commit.slice(0, 12)} differs from what the records and git say now: ${differ.slice(0, 10).join(', ')}${differ.length > 10 ? ', ...' : ''}`,
  };
  return { ok: check.ok, checks: [check], anchor: computed };
}
