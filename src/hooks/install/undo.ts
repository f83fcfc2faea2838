/**
 * What `hook install` changed in a config file's text, kept so that `hook uninstall` can give the
 * file back byte for byte (install-record.ts): a list of splices that turn the text install wrote
 * back into the text it found. Only the bytes install replaced are kept (mostly a few blanks), not
 * the file.
 */

/** One splice: `length` characters at `at` of the later text were `text` in the earlier one. */
export interface Splice {
  at: number;
  length: number;
  text: string;
}

/** A diff costs at most about this many steps (lines times edits); past it, one splice covers the change. */
const MAX_DIFF_WORK = 4_000_000;

/**
 * The splices that turn `after` back into `before`, last one first (each applied to the result of
 * the one before keeps the next one's offsets true): a line diff, each changed run of lines then
 * narrowed to the characters that differ.
 */
export function undoSplices(before: string, after: string): Splice[] {
  const a = linesOf(before);
  const b = linesOf(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head += 1;
  let tail = 0;
  while (
    tail < a.length - head &&
    tail < b.length - head &&
    a[a.length - 1 - tail] === b[b.length - 1 - tail]
  )
    tail += 1;
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  const runs = changedRuns(midA, midB);
  const offsetsA = offsets(a);
  const offsetsB = offsets(b);
  const splices: Splice[] = [];
  for (const run of runs) {
    const textA = before.slice(offsetsA[head + run.a0], offsetsA[head + run.a1]);
    const textB = after.slice(offsetsB[head + run.b0], offsetsB[head + run.b1]);
    splices.push(narrowed(textA, textB, offsetsB[head + run.b0] as number));
  }
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

/** The runs of lines that differ between `a` and `b` (Myers' diff), in order. */
function changedRuns(a: readonly string[], b: readonly string[]): Run[] {
  if (a.length === 0 && b.length === 0) return [];
  const pairs = commonLines(a, b);
  if (pairs === null) return [{ a0: 0, a1: a.length, b0: 0, b1: b.length }];
  const runs: Run[] = [];
  let [i, j] = [0, 0];
  for (const [x, y] of [...pairs, [a.length, b.length] as const]) {
    if (x > i || y > j) runs.push({ a0: i, a1: x, b0: j, b1: y });
    [i, j] = [x + 1, y + 1];
  }
  return runs;
}

/**
 * The pairs of lines a shortest edit script keeps (Myers 1986, with the frontier of each step kept
 * for the walk back), or null when that would cost more than MAX_DIFF_WORK.
 */
function commonLines(a: readonly string[], b: readonly string[]): Array<[number, number]> | null {
  const [n, m] = [a.length, b.length];
  const max = n + m;
  const v = new Int32Array(2 * max + 2);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d += 1) {
    if ((d + 1) * (2 * max + 2) > MAX_DIFF_WORK) return null;
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      const down = k === -d || (k !== d && (v[max + k - 1] as number) < (v[max + k + 1] as number));
      let x = down ? (v[max + k + 1] as number) : (v[max + k - 1] as number) + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) [x, y] = [x + 1, y + 1];
      v[max + k] = x;
      if (x >= n && y >= m) return walkBack(trace, max, n, m, d);
    }
  }
  return null;
}

function walkBack(trace: readonly Int32Array[], max: number, n: number, m: number, steps: number) {
  const pairs: Array<[number, number]> = [];
  let [x, y] = [n, m];
  for (let d = steps; d > 0; d -= 1) {
    const v = trace[d] as Int32Array;
    const k = x - y;
    const down = k === -d || (k !== d && (v[max + k - 1] as number) < (v[max + k + 1] as number));
    const prevK = down ? k + 1 : k - 1;
    const prevX = v[max + prevK] as number;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      [x, y] = [x - 1, y - 1];
      pairs.push([x, y]);
    }
    [x, y] = [prevX, prevY];
  }
  while (x > 0 && y > 0) {
    [x, y] = [x - 1, y - 1];
    pairs.push([x, y]);
  }
  return pairs.reverse();
}
