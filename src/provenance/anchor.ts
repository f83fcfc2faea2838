import type { Anchor } from '../../types/anchor.js';
import type { Repo } from '../git/repo.js';
import type { ProvenanceSources } from './sources.js';

export interface AnchorOptions {
  /** Narrow the candidate runs to these (`anchor --run`); default: every run of this repository in the store. */
  runIds?: readonly string[];
  /** The anchor's createdAt (tests). */
  now?: Date;
}

/**
 * The anchor of one commit: which runs and iterations produced the change `rev` made to its first
 * parent, per file and in total. Computed, not recorded: `src.anchors.save` records it.
 * Throws REVISION_NOT_FOUND, AMBIGUOUS_ID, RUN_NOT_FOUND (an unknown --run).
 */
export async function computeAnchor(
  src: ProvenanceSources,
  repo: Repo,
  rev: string,
  opts: AnchorOptions = {},
): Promise<Anchor> {
  const [anchor] = await computeAnchors(src, repo, [rev], opts);
  return anchor as Anchor;
}

/** computeAnchor for many commits at once (the git work is batched over all of them), in the order given. */
export async function computeAnchors(
  src: ProvenanceSources,
  repo: Repo,
  revs: readonly string[],
  opts: AnchorOptions = {},
): Promise<Anchor[]> {
  void src;
  void repo;
  void revs;
  void opts;
  throw new Error('not yet');
}

/** The anchors of every first-parent commit in `A..B`, oldest first (`anchor --range`). */
export async function anchorRange(
  src: ProvenanceSources,
  repo: Repo,
  range: string,
  opts: AnchorOptions = {},
): Promise<Anchor[]> {
  void range;
  return computeAnchors(src, repo, [], opts);
}
