import type { Anchor } from '../../types/anchor.js';
import { AgentgateError } from '../errors.js';
import type { Repo } from '../git/repo.js';
import type { AnchorKeeper } from '../sharing/anchor-records.js';
import { computeAnchors } from './anchor.js';
import { anchorDifferences, sameAnchor } from './compare.js';
import type { ProvenanceSources } from './sources.js';

/**
 * What anchor travel (src/sharing/anchor-records.ts) asks of provenance: the home's recorded
 * anchors, and the recomputation that decides whether an anchor from elsewhere is kept.
 */
export function anchorKeeper(src: ProvenanceSources): AnchorKeeper {
  return {
    list: () => src.anchors.commits(),
    load: (commit) => src.anchors.load(commit),
    save: (anchor) => src.anchors.save(anchor),
    recheck: (repo, anchors) => recheckAnchors(src, repo, anchors),
    same: sameAnchor,
  };
}

/**
 * Per anchor, null when it recomputes the same here (from the records and git on this machine,
 * narrowed to the runs it was), else the reason. One computation per set of runs, batched over
 * its commits; when that computation fails (a run here only in part that may explain one of the
 * commits, say), each of them is computed alone, so the error is the reason of those it stops and
 * the others are judged as ever. An error that stops every one (an unknown run) is then each one's.
 */
export async function recheckAnchors(
  src: ProvenanceSources,
  repo: Repo,
  anchors: readonly Anchor[],
): Promise<Array<string | null>> {
  const groups = new Map<string, number[]>();
  anchors.forEach((a, i) => {
    const key = JSON.stringify(a.onlyRuns ?? null);
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const out: Array<string | null> = anchors.map(() => 'not checked');
  for (const [key, indices] of groups) {
    const only = JSON.parse(key) as string[] | null;
    const given = indices.map((i) => anchors[i] as Anchor);
    const together = await recheck(src, repo, given, only);
    let reasons: Array<string | null> | string = together;
    if (typeof together === 'string' && given.length > 1) {
      reasons = [];
      for (const a of given) {
        const alone = await recheck(src, repo, [a], only);
        reasons.push(typeof alone === 'string' ? alone : (alone[0] ?? null));
      }
    }
    indices.forEach((at, j) => {
      out[at] = typeof reasons === 'string' ? reasons : (reasons[j] ?? null);
    });
  }
  return out;
}

/** `anchors` (of one narrowing) computed together: each one's reason (null: the same), or the error that stopped them all. */
async function recheck(
  src: ProvenanceSources,
  repo: Repo,
  anchors: readonly Anchor[],
  only: string[] | null,
): Promise<Array<string | null> | string> {
  try {
    const computed = await computeAnchors(
      src,
      repo,
      anchors.map((a) => a.commit),
      only === null ? {} : { runIds: only },
    );
    return anchors.map((a, j) => {
      const differ = anchorDifferences(a, computed[j] as Anchor);
      return differ.length === 0
        ? null
        : `${differ.slice(0, 5).join(', ')} differ${differ.length > 5 ? ', ...' : ''}`;
    });
  } catch (error) {
    if (!(error instanceof AgentgateError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}
