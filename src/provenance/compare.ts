import type { Anchor } from '../../types/anchor.js';

/** What a recomputation must reproduce: everything but when it was computed. */
function essence(a: Anchor): string {
  return JSON.stringify({ ...a, createdAt: null, onlyRuns: a.onlyRuns ?? null });
}

/** True when two anchors of one commit say the same (createdAt aside). */
export function sameAnchor(a: Anchor, b: Anchor): boolean {
  return essence(a) === essence(b);
}

/** The fields where two anchors differ (createdAt aside), for a check's detail. */
export function anchorDifferences(recorded: Anchor, computed: Anchor): string[] {
  const keys = ['commit', 'tree', 'parents', 'treeMatch', 'runs', 'coverage', 'onlyRuns'] as const;
  const out: string[] = keys.filter(
    (k) => JSON.stringify(recorded[k] ?? null) !== JSON.stringify(computed[k] ?? null),
  );
  const files = new Map(computed.files.map((f) => [f.path, JSON.stringify(f)]));
  for (const f of recorded.files) if (files.get(f.path) !== JSON.stringify(f)) out.push(`files[${f.path}]`);
  const recordedPaths = new Set(recorded.files.map((f) => f.path));
  for (const f of computed.files) if (!recordedPaths.has(f.path)) out.push(`files[${f.path}]`);
  return out;
}
