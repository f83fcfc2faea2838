import type { CheckpointEntry } from '../../types/checkpoint.js';
import { isUnder } from './workspace-paths.js';

/**
 * Which session changed what, from the checkpoints alone (pure). The checkpoints of one store form
 * one line of states of the shared workspace, whoever made them; what changed between a
 * checkpoint and the one before it belongs to the later one's owner: the session whose tool or
 * turn (`change`) or restore (`restore`) it records. Everything else (a baseline, a prompt
 * checkpoint, a manual or safety checkpoint, and the workspace now against the newest checkpoint)
 * is nobody's session: another session's tool still running, or a person. A step whose checkpoint
 * names the paths its tool wrote (`touched`) is its owner's for those paths (and what lies below
 * them) only: the rest of it is nobody's.
 */

type Attributed = Pick<CheckpointEntry, 'kind' | 'session' | 'prompt' | 'role'>;

/** Where a checkpoint stands in the line, and what of its step is its owner's (see CheckpointMeta). */
export interface LinePosition {
  seq?: number;
  span?: number;
  /** The paths its tool named: the step is its owner's for these only (absent: the whole step). */
  touched?: readonly string[];
  /** The same for the whole run back to `span` (null: all of it); absent when it equals `touched`. */
  runTouched?: readonly string[] | null;
}

/** A new checkpoint's place (see LinePosition). */
export interface LinePlace {
  seq: number;
  span: number;
  runTouched?: string[] | null;
}

/** At most this many paths are kept as a step's own (and at most TOUCHED_CHARS in all); more: the whole step. */
export const TOUCHED_MAX = 100;
export const TOUCHED_CHARS = 10_000;

/** `paths` sorted without repeats, or undefined (the whole step) past the caps. */
export function cappedTouched(paths: Iterable<string>): string[] | undefined {
  const out = [...new Set(paths)].sort();
  const chars = out.reduce((n, p) => n + p.length, 0);
  return out.length > TOUCHED_MAX || chars > TOUCHED_CHARS ? undefined : out;
}

/**
 * The place of a checkpoint recorded after `previous` (the newest one, or null for the first): the
 * next seq; its span reaches back as long as the steps before it are the same owner's (a session's
 * run of tool checkpoints), else to `previous` alone. When the run goes on, `runTouched` is what the
 * run's tools named together, so that the step left when checkpoints of the run are pruned keeps
 * every path of the owner's (a whole step in the run makes it the whole run).
 */
export function linePosition(
  previous: (Attributed & LinePosition) | null,
  next: Attributed & Pick<LinePosition, 'touched'>,
): LinePlace {
  if (previous === null) return { seq: 1, span: 0 };
  const seq = (previous.seq ?? 0) + 1;
  const owner = ownerOf(next);
  const continues = owner !== null && ownerOf(previous) === owner && previous.span !== undefined;
  if (!continues) return { seq, span: seq - 1 };
  const before = runOf(previous);
  const run =
    before === undefined || next.touched === undefined
      ? undefined
      : cappedTouched([...before, ...next.touched]);
  const same = run === undefined ? next.touched === undefined : sameList(run, next.touched);
  return { seq, span: previous.span as number, ...(same ? {} : { runTouched: run ?? null }) };
}

function sameList(a: readonly string[], b: readonly string[] | undefined): boolean {
  return b !== undefined && a.length === b.length && a.every((p, i) => p === b[i]);
}

/** What a checkpoint's run (back to its span) named, or undefined for all of it. */
function runOf(e: LinePosition): readonly string[] | undefined {
  return e.runTouched === null ? undefined : (e.runTouched ?? e.touched);
}

/**
 * The paths of the step from `previous` to `next` that are `next`'s owner's (undefined: all): what
 * `next`'s tool named, or, when checkpoints in between were pruned, what the run named.
 */
export function touchedOfStep(previous: LinePosition, next: LinePosition): readonly string[] | undefined {
  const adjacent = previous.seq === undefined || next.seq === undefined || next.seq === previous.seq + 1;
  return adjacent ? next.touched : runOf(next);
}

/**
 * Whether the step from `previous` (the checkpoint before it in the line as it is now) to `next` is
 * `next`'s owner's: every checkpoint recorded between them, now pruned, was that owner's too.
 * Records made before positions were kept are taken as they come.
 */
export function ownsStep(previous: LinePosition, next: LinePosition): boolean {
  return previous.seq === undefined || next.span === undefined || previous.seq >= next.span;
}

/** The session that made what changed just before this checkpoint, or null for "someone else". */
export function ownerOf(e: Attributed): string | null {
  if (e.kind === 'safety' || e.session === undefined) return null;
  if (e.role !== undefined) return e.role === 'change' || e.role === 'restore' ? e.session : null;
  // Recorded before roles were kept: a session's checkpoint without a prompt number was its
  // baseline or a tool's; the tool's is far more common.
  return e.prompt === undefined ? e.session : null;
}

/** The paths that changed in one step of the line, and whose step it was. */
export interface Step {
  owner: string | null;
  paths: readonly string[];
}

/**
 * One step as sessionChanges reads it: the owner's part (the paths at or below one it `touched`,
 * all of them when undefined), then the rest as nobody's. The rest comes after, so that a path of
 * the owner's that another path of the step blocks (above or below it) is a conflict.
 */
export function stepParts(
  owner: string | null,
  paths: readonly string[],
  touched: readonly string[] | undefined,
): Step[] {
  if (owner === null || touched === undefined) return [{ owner, paths }];
  const isOwners = (p: string) => touched.some((t) => isUnder(p, t));
  return [
    { owner, paths: paths.filter(isOwners) },
    { owner: null, paths: paths.filter((p) => !isOwners(p)) },
  ];
}

/**
 * Of the steps after a session's prompt checkpoint (oldest first, the last one the workspace now),
 * the paths the session changed, and those of them someone else changed after the session last did.
 */
export function sessionChanges(
  session: string,
  steps: readonly Step[],
): { changed: string[]; conflicts: string[] } {
  const lastMine = new Map<string, number>();
  const lastOther = new Map<string, number>();
  // The last other step that changed something below a directory: a file the session deleted
  // there cannot come back past another's file standing where its directory was, and vice versa.
  const lastOtherBelow = new Map<string, number>();
  steps.forEach((step, i) => {
    const mine = step.owner === session;
    for (const path of step.paths) {
      (mine ? lastMine : lastOther).set(path, i);
      if (!mine) for (const dir of parentsOf(path)) lastOtherBelow.set(dir, i);
    }
  });
  const changed = [...lastMine.keys()].sort();
  const conflicts = changed.filter((p) => {
    const mine = lastMine.get(p) ?? -1;
    const others = [p, ...parentsOf(p)].map((q) => lastOther.get(q) ?? -1);
    return Math.max(lastOtherBelow.get(p) ?? -1, ...others) > mine;
  });
  return { changed, conflicts };
}

/** `a/b/c` -> `a/b`, `a`. */
function parentsOf(path: string): string[] {
  const out: string[] = [];
  for (let i = path.lastIndexOf('/'); i > 0; i = path.lastIndexOf('/', i - 1)) out.push(path.slice(0, i));
  return out;
}

/**
 * `checkpoints.keep` as checkpoints are made (pure): of the checkpoints, newest first, those past
 * the newest `keep` that can go without losing anything a restore needs. Only a session's `change`
 * checkpoint followed by another checkpoint of the same session's own changes qualifies: the
 * next one then covers both steps for the same owner. Baselines, prompt checkpoints, restores,
 * manual and safety checkpoints, the last change of each run of one session's changes, and what
 * a marker points at (`protectedOids`) are kept.
 */
export function thinnable<T extends Attributed & LinePosition & { oid: string }>(
  newestFirst: readonly T[],
  keep: number,
  protectedOids: ReadonlySet<string>,
): T[] {
  return newestFirst.filter((e, i) => {
    if (i < keep || e.role !== 'change' || protectedOids.has(e.oid)) return false;
    const newer = newestFirst[i - 1];
    const older = newestFirst[i + 1];
    return (
      newer !== undefined &&
      ownerOf(newer) === ownerOf(e) &&
      // Both steps name their paths, or neither: a merged step is the owner's for exactly what both
      // were (a whole step merged with a named one would hand the owner what was nobody's).
      (runOf(e) === undefined) === (newer.touched === undefined) &&
      // The step after a safety checkpoint is nobody's (a restore by hand): merged, the next would be too.
      older?.kind !== 'safety'
    );
  });
}
