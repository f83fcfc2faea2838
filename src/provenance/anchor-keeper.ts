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
 * its commits; an error of that computation (an unknown run, say) is the reason for each of them.
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
    try {
      const computed = await computeAnchors(
        src,
        repo,
        given.map((a) => a.commit),
        only === null ? {} : { runIds: only },
      );
      indices.forEach((at, j) => {
        const differ = anchorDifferences(given[j] as Anchor, computed[j] as Anchor);
        out[at] =
          differ.length === 0
            ? null
            : `${differ.slice(0, 5).join(', ')} differ${differ.length > 5 ? ', ...' : ''}`;
      });
    } catch (error) {
      if (!(error instanceof AgentgateError)) throw error;
      for (const at of indices) out[at] = `${error.code}: ${error.message}`;
    }
  }
  return out;
}
