import type { Identity } from '../../types/config.js';
import type { AnchorMode } from '../../types/anchor-record.js';
import type { RefusedRecord } from '../../types/sharing.js';
import type { SnapshotStore } from '../store/snapshot-store.js';
import type { AnchorKeeper } from './anchor-records.js';

export interface SharingOptions {
  home: string;
  artifactsDir: string;
  identity: Identity;
  gitTimeoutMs: number;
  lockTimeoutMs: number;
  /** The largest patch one received record may hold (default MAX_PATCH_BYTES); counted at fetch, written only when asked for. */
  maxPatchBytes?: number;
  /** Whether push and export carry each gate verdict's log text (config `sharing.includeGateLogs`); the digest always travels. */
  includeGateLogs?: boolean;
  /** The most log text of received verdicts one fetch or import writes (default MAX_GATE_LOG_BYTES). */
  maxGateLogBytes?: number;
  /** Provenance's side of anchor travel; without it no anchor travels. */
  anchors?: AnchorKeeper;
}

/**
 * Which runs: one, every run of this workspace recorded on this machine (the default: runs fetched
 * or imported from elsewhere are not published again), or every record in the repository.
 */
export interface Selection {
  workspace: string;
  runId?: string;
  all?: boolean;
  /** Anchors beside the runs (default, when an AnchorKeeper is given), only anchors, or none. */
  anchors?: AnchorMode;
}

/**
 * The largest patch one received record may hold. A record names two trees, and a tiny
 * pack (one compressible blob at many paths) can make their patch hundreds of MB: past this size
 * git is stopped and the record refused; the others still land. Nothing is written at fetch.
 */
export const MAX_PATCH_BYTES = 512 * 1024 * 1024;

/**
 * The most log text of received verdicts that one fetch or import writes into the artifacts
 * directory. A log travels as a git blob, and one compressible blob (a GiB of one byte packs into
 * 1 MB) can stand in any number of verdicts: written out whole, a small remote would fill the disk.
 * Past it, a verdict is kept without its text (its digest still travels; git keeps the text).
 */
export const MAX_GATE_LOG_BYTES = 512 * 1024 * 1024;

/** What the parts of sharing (publish, receive, rebuild) use of `Sharing`. */
export interface SharingCore {
  readonly options: SharingOptions;
  readonly store: SnapshotStore;
}

/**
 * Above this many refs to fetch, one wildcard refspec instead of one per ref: git matches each
 * exact refspec against every ref of the source.
 */
const MAX_REFSPECS = 2000;

/**
 * The refspecs that fetch `toFetch` (refs under `prefix`) into `incoming`: one per ref, or one
 * wildcard past MAX_REFSPECS. The wildcard also takes the source's refs whose names we refuse
 * (`refused`), so each gets a negative refspec: a hostile source that names `a/b` beside `a/b/c`
 * would otherwise make git fail to create both targets and the whole fetch or import fail.
 */
export function incomingRefspecs(
  prefix: string,
  incoming: string,
  toFetch: ReadonlyArray<{ ref: string }>,
  refused: ReadonlyArray<{ ref: string }>,
): string[] {
  if (toFetch.length <= MAX_REFSPECS)
    return toFetch.map((r) => `+${r.ref}:${incoming}${r.ref.slice(prefix.length)}`);
  const others = refused.filter((r) => r.ref.startsWith(prefix)).map((r) => `^${r.ref}`);
  return [`+${prefix}*:${incoming}*`, ...others];
}

/**
 * Lists in `refused` each ref of `toFetch` (under `prefix`) that git did not bring into `incoming`
 * (`landed`) and that `refused` does not name yet. git fetch exits 0 when it rejects a ref (one
 * whose history stops at a shallow source's boundary: "shallow roots are not allowed to be
 * updated"), and such a record was otherwise dropped without a word.
 */
export function refuseUndelivered(
  prefix: string,
  incoming: string,
  toFetch: ReadonlyArray<{ ref: string }>,
  landed: ReadonlyArray<{ ref: string }>,
  refused: RefusedRecord[],
): void {
  const got = new Set(landed.map((r) => r.ref));
  const named = new Set(refused.map((r) => r.ref));
  for (const r of toFetch)
    if (!named.has(r.ref) && !got.has(`${incoming}${r.ref.slice(prefix.length)}`))
      refused.push({
        ref: r.ref,
        reason:
          'the source did not send it (git rejected it: its history stops at the boundary of a shallow clone, say, or the source lacks its objects); fetch from a full, sound clone',
      });
}

/**
 * A source's refs, each once, and those it names more than once with different commits (a forged
 * bundle header: git takes one of them, and the other would go without a word), refused whole.
 */
export function repeatedRefs(heads: ReadonlyArray<{ sha: string; ref: string }>): {
  unique: Array<{ sha: string; ref: string }>;
  refused: RefusedRecord[];
} {
  const shas = new Map<string, Set<string>>();
  for (const h of heads) shas.set(h.ref, (shas.get(h.ref) ?? new Set()).add(h.sha));
  const unique = [...shas]
    .filter(([, s]) => s.size === 1)
    .map(([ref, s]) => ({ ref, sha: [...s][0] as string }));
  const refused = [...shas]
    .filter(([, s]) => s.size > 1)
    .map(([ref, s]) => ({
      ref,
      reason: `the source names it ${s.size} times, with different commits (${[...s].join(', ')}): none of them is taken`,
    }));
  return { unique, refused };
}
