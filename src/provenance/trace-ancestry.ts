import type { Iteration, RunChain } from './candidates.js';

/**
 * The ancestry shortcut of `trace`: the blamed commits whose lines are provably the iteration's
 * that made them, with no diff and no replay. A commit qualifies when it is the after commit of
 * exactly one recorded iteration, has one parent, and that parent is the iteration's before
 * commit: its change to the file is then the very diff the engine replays as that iteration, so
 * every line it adds (every line blame gives it) gets that iteration from the engine too.
 *
 * Only when the proof holds for the whole trace: one recorded run names the file (no other run's
 * claim, no `alsoIn`), blame saw the file under one name and the run never renamed or copied it
 * (the engine's diff then has no rename either), no two of the run's snapshots share an iteration
 * number (the engine keys its replay by number), and git's diff takes the file as text (its
 * record says so and blame saw no NUL byte: for a binary file the engine's diff has no lines; the
 * caller also requires that the iteration's before and after blobs are text by content, as the
 * engine decides it, and that git sees the parent the commit object names: a shallow clone's
 * boundary is a root to blame (grafts are never read), which gives it every older line).
 * Every other blamed commit (a squash, a person's edit, a cherry-pick, a WIP before commit) goes
 * through the engine. Returns blamed commit -> iteration.
 */
export function ancestryShortcut(
  path: string,
  names: ReadonlySet<string>,
  touched: readonly RunChain[],
  blamed: Iterable<string>,
  text: boolean,
): Map<string, Iteration> {
  const out = new Map<string, Iteration>();
  const chain = touched[0];
  if (!text || touched.length !== 1 || chain === undefined || names.size !== 1 || !names.has(path))
    return out;
  const numbers = new Set<number>();
  const byAfter = new Map<string, Iteration[]>();
  for (const it of chain.iterations) {
    if (numbers.has(it.iteration)) return out;
    numbers.add(it.iteration);
    for (const f of it.snapshot.files)
      if (f.oldPath !== null && (f.path === path) !== (f.oldPath === path)) return out;
    byAfter.set(it.after.commit, [...(byAfter.get(it.after.commit) ?? []), it]);
  }
  for (const commit of blamed) {
    const its = byAfter.get(commit);
    const it = its?.length === 1 ? its[0] : undefined;
    if (it === undefined || it.after.parents.length !== 1 || it.after.parents[0] !== it.before.commit)
      continue;
    if (it.snapshot.files.some((f) => f.path === path && f.oldPath === null && !f.binary))
      out.set(commit, it);
  }
  return out;
}
