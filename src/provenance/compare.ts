import type { Anchor } from '../../types/anchor.js';

/**
 * The one comparison of a recorded anchor with a recomputed one, createdAt aside, used by
 * `verify --anchor`, `report --anchor` and anchor travel alike: each difference is named, for a
 * check's detail. Empty when the two say the same, byte for byte once createdAt is set aside.
 */
export function anchorDifferences(recorded: Anchor, computed: Anchor): string[] {
  const keys = new Set([...Object.keys(recorded), ...Object.keys(computed)] as Array<keyof Anchor>);
  keys.delete('createdAt');
  keys.delete('files');
  const value = (a: Anchor, k: keyof Anchor) => JSON.stringify(k === 'onlyRuns' ? (a[k] ?? null) : a[k]);
  const out: string[] = [...keys].filter((k) => value(recorded, k) !== value(computed, k));
  return [...out, ...fileDifferences(recorded.files, computed.files)];
}

/** True when two anchors of one commit say the same (createdAt aside): no difference at all. */
export function sameAnchor(a: Anchor, b: Anchor): boolean {
  return anchorDifferences(a, b).length === 0;
}

/**
 * The files whose entry differs, is missing or is listed another number of times, then the
 * list's order: a recomputation lists each file once, in its own order, so a duplicated or
 * reordered list is a difference too.
 */
function fileDifferences(recorded: Anchor['files'], computed: Anchor['files']): string[] {
  const entries = (files: Anchor['files']) => {
    const byPath = new Map<string, string[]>();
    for (const f of files) byPath.set(f.path, [...(byPath.get(f.path) ?? []), JSON.stringify(f)]);
    return byPath;
  };
  const [ours, theirs] = [entries(recorded), entries(computed)];
  const out: string[] = [];
  for (const path of new Set([...ours.keys(), ...theirs.keys()])) {
    const [r, c] = [ours.get(path) ?? [], theirs.get(path) ?? []];
    if (r.length > 1 && r.length !== c.length) out.push(`files[${path}] (listed ${r.length} times)`);
    else if (r.join('\n') !== c.join('\n')) out.push(`files[${path}]`);
  }
  // Each path's entries the same: only the order of the list can differ.
  if (out.length === 0 && JSON.stringify(recorded) !== JSON.stringify(computed)) out.push('files (order)');
  return out;
}
