import type { Hunk } from '../git/parsers/diff-stdin.js';

/**
 * The origin of a line of a run's WIP before commit (or of the staged commit under it): what was
 * there when the run began. Reported as iteration 0, yet not the same as a recorded iteration
 * numbered 0 (`after --iteration 0`), whose lines are the agent's: the two are told apart by what
 * they are, never by the number. A run has a WIP before commit wherever the workspace was dirty at
 * a `before`, so each one's lines carry the iteration that started from it (wipOrigin): trace
 * names that WIP commit and that snapshot, not the run's first.
 */
export const WIP_ORIGIN = -1;

/** The origin of the lines of the WIP before commit iteration `iteration` started from (a negative number). */
export function wipOrigin(iteration: number): number {
  return WIP_ORIGIN - iteration;
}

/** Whether `origin` is a WIP before commit's (wipOrigin). */
export function isWip(origin: number): boolean {
  return origin <= WIP_ORIGIN;
}

/** The iteration that started from the WIP before commit whose origin is `origin`. */
export function wipIteration(origin: number): number {
  return WIP_ORIGIN - origin;
}

/** Whether `origin` is a recorded iteration's (any number, 0 included): the agent's, not the WIP's nor nobody's. */
export function byIteration(origin: number | null | undefined): origin is number {
  return origin !== null && origin !== undefined && !isWip(origin);
}

/** An origin as the Anchor and Trace report it: the WIP's as iteration 0. */
export function reportedIteration(origin: number): number {
  return isWip(origin) ? 0 : origin;
}

/**
 * Who last wrote each line of one file, within one run: `origins[i]` is the iteration that wrote
 * line i+1 (WIP_ORIGIN: the run's WIP before commit), or null. Lines past the end of the array are null
 * (lines from before the run), so a file's state costs only as much as the run changed.
 * `blob` is the file's blob id, null when the file is absent, undefined when never seen in a diff.
 * A file the run deleted, or one with no lines (empty, binary), is known by its `writer` alone.
 */
export interface FileState {
  origins: ReadonlyArray<number | null>;
  blob: string | null | undefined;
  /** The file's mode (`000000` when absent): a mode is part of what a version of the file is. */
  mode: string;
  /** The iteration whose change left the file so (WIP_ORIGIN: the WIP commit; null: a commit between iterations). */
  writer: number | null;
}

/**
 * Carries line origins through one `-U0` diff of the file: lines the diff keeps keep their origin
 * (shifted as git's hunks say), lines it adds get `origin`, lines it removes are gone. Pure.
 */
export function applyHunks(
  old: ReadonlyArray<number | null>,
  hunks: readonly Hunk[],
  origin: number | null,
): Array<number | null> {
  const out: Array<number | null> = [];
  let next = 1;
  for (const h of hunks) {
    const keepTo = h.oldCount === 0 ? h.oldStart : h.oldStart - 1;
    for (let i = next; i <= keepTo; i++) out.push(old[i - 1] ?? null);
    next = keepTo + 1 + h.oldCount;
    for (let j = 0; j < h.newCount; j++) out.push(origin);
  }
  for (let i = next; i <= old.length; i++) out.push(old[i - 1] ?? null);
  while (out.length > 0 && out.at(-1) === null) out.pop();
  return out;
}

/** The line numbers (1-based, in the new file) that a `-U0` diff adds, in order. */
export function addedLines(hunks: readonly Hunk[]): number[] {
  const out: number[] = [];
  for (const h of hunks) for (let j = 0; j < h.newCount; j++) out.push(h.newStart + j);
  return out;
}
