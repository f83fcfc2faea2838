import type { TreeEntry } from '../git/checkpoint-trees.js';
import { knownPaths } from './record.js';
import { isUnder } from './workspace-paths.js';

/**
 * What must change on disk, decided from tree listings alone (pure). `current` is the safety
 * checkpoint just taken, i.e. what the store knows about the workspace right now.
 */
export interface Plan {
  /** Entries to write (their path is where). */
  writes: TreeEntry[];
  /** Paths the current capture holds that must disappear. */
  deletes: string[];
  /**
   * Paths left as they are: absent from both, or absent from the target because its capture skipped
   * them (`skippedThen`). Whatever is on disk there is reported as left alone.
   */
  uncovered: string[];
}

/**
 * Plans the change from `current` to `desired` (path -> wanted entry, or null for "must not exist").
 * A path the target's capture skipped (skip-rules.ts skippedBy) is not absent there: never deleted.
 */
export function planChanges(
  desired: Iterable<readonly [string, TreeEntry | null]>,
  current: ReadonlyMap<string, TreeEntry>,
  skippedThen: (path: string) => boolean = () => false,
): Plan {
  const plan: Plan = { writes: [], deletes: [], uncovered: [] };
  for (const [path, want] of desired) {
    const have = current.get(path);
    if (want !== null) {
      if (have === undefined || have.oid !== want.oid || have.mode !== want.mode)
        plan.writes.push({ ...want, path });
    } else if (have !== undefined && !skippedThen(path)) {
      plan.deletes.push(path);
    } else {
      plan.uncovered.push(path);
    }
  }
  return plan;
}

/**
 * The paths of a plan that apply.ts will leave alone for what the capture `current` shows there
 * once the plan's deletes are done (pure; a dry run's `leftAlone`): a write below a file or where a
 * directory stands, a path left as it is that has something at or below it or lies under
 * `blocked` (skipped paths), and anything else under `blocked`. What only the disk shows (a link, a FIFO, a write since) is not here.
 */
export function inTheWay(
  plan: Plan,
  current: ReadonlyMap<string, TreeEntry>,
  blocked: readonly string[],
): string[] {
  const under = (p: string) => blocked.some((b) => isUnder(p, b));
  const deleted = new Set(plan.deletes.filter((p) => !under(p)));
  const kept = new Set([...current.keys()].filter((p) => !deleted.has(p)));
  const known = knownPaths(kept);
  const fileAbove = (p: string) => {
    for (let i = p.lastIndexOf('/'); i > 0; i = p.lastIndexOf('/', i - 1))
      if (kept.has(p.slice(0, i))) return true;
    return false;
  };
  const dirAt = (p: string) => known.has(p) && !kept.has(p);
  const stands = [
    ...plan.writes.map((w) => w.path).filter((p) => under(p) || fileAbove(p) || dirAt(p)),
    ...plan.deletes.filter(under),
    // Under a skipped path (a nested repository) the capture cannot tell: what was skipped stood there.
    ...plan.uncovered.filter((p) => known.has(p) || under(p)),
  ];
  return stands.sort();
}

/** Restore: every path of either tree, wanted as it is in `target`. */
export function restoreDesired(
  target: ReadonlyMap<string, TreeEntry>,
  current: ReadonlyMap<string, TreeEntry>,
): Array<[string, TreeEntry | null]> {
  const paths = new Set([...target.keys(), ...current.keys()]);
  return [...paths].sort().map((p) => [p, target.get(p) ?? null]);
}

/** Paths whose entry differs between the trees, limited to those under one of `selection` (all when null). */
export function changedBetween(
  target: ReadonlyMap<string, TreeEntry>,
  current: ReadonlyMap<string, TreeEntry>,
  selection: readonly string[] | null,
): string[] {
  const out: string[] = [];
  for (const path of new Set([...target.keys(), ...current.keys()])) {
    const a = target.get(path);
    const b = current.get(path);
    if (a !== undefined && b !== undefined && a.oid === b.oid && a.mode === b.mode) continue;
    if (selection === null || selection.some((s) => isUnder(path, s))) out.push(path);
  }
  return out.sort();
}

/**
 * Revert by patches: for each file, the first patch that names it decides which checkpoint it comes
 * from. Input pairs are (git path, tree hash) in patch order; the result keeps first occurrences.
 */
export function firstPatchWins(pairs: Iterable<readonly [string, string]>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [path, hash] of pairs) if (!out.has(path)) out.set(path, hash);
  return out;
}

/**
 * How many blobs, and how many of their bytes, are read from git and written before the next batch:
 * bounds memory (2048 files of 10 MiB each would be 20 GiB at once). A larger blob is a batch alone.
 */
export const WRITE_BATCH = 2048;
export const WRITE_BATCH_BYTES = 64 * 1024 * 1024;

/** A restore's writes (apply.ts) in batches of at most WRITE_BATCH entries and WRITE_BATCH_BYTES (`sizes`: by object id). */
export function writeBatches<T extends TreeEntry>(
  entries: readonly T[],
  sizes: ReadonlyMap<string, number>,
): T[][] {
  const out: T[][] = [];
  let batch: T[] = [];
  let bytes = 0;
  for (const e of entries) {
    const size = sizes.get(e.oid) ?? 0;
    if (batch.length > 0 && (batch.length === WRITE_BATCH || bytes + size > WRITE_BATCH_BYTES)) {
      out.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(e);
    bytes += size;
  }
  if (batch.length > 0) out.push(batch);
  return out;
}
