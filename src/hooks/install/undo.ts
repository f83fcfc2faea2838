/**
 * What `hook install` changed in a config file's text, kept so that `hook uninstall` can give the
 * file back byte for byte (install-record.ts): a list of splices that turn the text install wrote
 * back into the text it found. Only the bytes install replaced are kept (mostly a few blanks), not
 * the file.
 */
import { diffArrays } from 'diff';

/** One splice: `length` characters at `at` of the later text were `text` in the earlier one. */
export interface Splice {
  at: number;
  length: number;
  text: string;
}

/** Past this many changed lines (install changes a few), one splice covers the whole change. */
const MAX_EDITS = 2_000;

/**
 * The splices that turn `after` back into `before`, last one first (each applied to the result of
 * the one before keeps the next one's offsets true): a line diff, each changed run of lines then
 * narrowed to the characters that differ.
 */
export function undoSplices(before: string, after: string): Splice[] {
  // The diff itself skips the lines both texts begin and end with.
  const [a, b] = [linesOf(before), linesOf(after)];
  const [offsetsA, offsetsB] = [offsets(a), offsets(b)];
  const splices = changedRuns(a, b).map((run) =>
    narrowed(
      before.slice(offsetsA[run.a0], offsetsA[run.a1]),
      after.slice(offsetsB[run.b0], offsetsB[run.b1]),
      offsetsB[run.b0] as number,
    ),
  );
  return splices.reverse();
}

/** `text` with each splice applied in order, or null when one does not fit it. */
export function applySplices(text: string, splices: readonly Splice[]): string | null {
  let out = text;
  for (const s of splices) {
    if (s.at < 0 || s.length < 0 || s.at + s.length > out.length) return null;
    out = out.slice(0, s.at) + s.text + out.slice(s.at + s.length);
  }
  return out;
}

/** The lines of a text, each with its line break (the last may have none). */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

/** Where each line starts, and the text's end. */
function offsets(lines: readonly string[]): number[] {
  const out = [0];
  for (const line of lines) out.push((out.at(-1) as number) + line.length);
  return out;
}

/** A changed run of lines: [a0, a1) of the earlier text became [b0, b1) of the later one. */
interface Run {
  a0: number;
  a1: number;
  b0: number;
  b1: number;
}

/** One splice for a changed run, without the characters both sides begin and end with. */
function narrowed(textA: string, textB: string, at: number): Splice {
  let p = 0;
  while (p < textA.length && p < textB.length && textA[p] === textB[p]) p += 1;
  let s = 0;
  while (
    s < textA.length - p &&
    s < textB.length - p &&
    textA[textA.length - 1 - s] === textB[textB.length - 1 - s]
  )
    s += 1;
  return { at: at + p, length: textB.length - p - s, text: textA.slice(p, textA.length - s) };
}

/**
 * The runs of lines that differ between `a` and `b`, in order (jsdiff's Myers diff over the lines),
 * or the whole as one run when they differ in more than MAX_EDITS lines.
 */
function changedRuns(a: string[], b: string[]): Run[] {
  if (a.length === 0 && b.length === 0) return [];
  const changes = diffArrays(a, b, { maxEditLength: MAX_EDITS });
  if (changes === undefined) return [{ a0: 0, a1: a.length, b0: 0, b1: b.length }];
  const runs: Run[] = [];
  let [i, j] = [0, 0];
  let open: Run | null = null;
  for (const change of changes) {
    if (!change.added && !change.removed) {
      if (open !== null) runs.push(open);
      open = null;
      [i, j] = [i + change.count, j + change.count];
      continue;
    }
    open ??= { a0: i, a1: i, b0: j, b1: j };
    if (change.removed) open.a1 = i += change.count;
    else open.b1 = j += change.count;
  }
  if (open !== null) runs.push(open);
  return runs;
}
