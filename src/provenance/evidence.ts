/**
 * How much a content match says. A link made from content alone (`blob`, `patch-id`, `lines`; not
 * `ancestry`, which is history, nor `tree`, which is a whole tree) credits a run with lines a
 * person may have written the same way: a `}`, an `if (x) {`, a two-line `.gitignore`. Such lines
 * carry too little to say where they came from, the rule git blame itself applies to moved and
 * copied lines (BLAME_DEFAULT_MOVE_SCORE: 20 letters and digits).
 */
import type { RunChain } from './candidates.js';
import type { CommitLinks, FileLink, RunClaim } from './claims.js';
import { byIteration } from './lines.js';

/** Letters and digits a match must carry to count on its own (git blame's move score). */
export const MIN_EVIDENCE = 20;

/** Letters and digits in `text` (latin1 bytes): ASCII ones, and every byte of a non-ASCII character. */
export function evidenceOf(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c >= 128) n += 1;
  }
  return n;
}

/** The text of each line the commit adds to the file, in `added` order. */
function addedText(f: FileLink): string[] {
  return f.file.hunks.flatMap((h) => h.added);
}

/**
 * `lines`: the origins of the lines carried from the run, with every block of consecutive lines
 * that carries less than MIN_EVIDENCE set to none (a person's `if (x) {` and `}` around their own
 * line, where the run had the same two lines around its own).
 */
export function enoughBlocks(f: FileLink, origins: ReadonlyArray<number | null>): Array<number | null> {
  const text = addedText(f);
  const out = [...origins];
  for (let start = 0; start < out.length;) {
    if (out[start] === null) {
      start += 1;
      continue;
    }
    let end = start + 1;
    while (end < out.length && out[end] !== null && f.added[end] === (f.added[end - 1] as number) + 1)
      end += 1;
    const carried = text.slice(start, end).reduce((n, line) => n + evidenceOf(line), 0);
    if (carried < MIN_EVIDENCE) out.fill(null, start, end);
    start = end;
  }
  return out;
}

/** A `blob` or `patch-id` claim whose credited lines carry less than MIN_EVIDENCE (a deletion none). */
export function isWeak(claim: RunClaim, f: FileLink): boolean {
  if (claim.method !== 'blob' && claim.method !== 'patch-id') return false;
  const text = addedText(f);
  const carried = claim.origins.reduce<number>(
    (n, o, i) => (o === null ? n : n + evidenceOf(text[i] ?? '')),
    0,
  );
  return carried < MIN_EVIDENCE;
}

/**
 * Drops each weak claim of the commit that nothing else in the commit backs: another of its files
 * linked to the same run by a claim that is not weak, or the whole change of the iteration that
 * wrote the file (every file its records name is in the commit, as a version of the run's: a
 * cherry-pick or rebase of that iteration). The commit's files must all be there (not `trace`'s
 * one file).
 */
export function dropUnbacked(link: CommitLinks, chains: ReadonlyMap<string, RunChain>): void {
  const weak = new Set(link.files.flatMap((f) => f.claims.filter((c) => isWeak(c, f))));
  if (weak.size === 0) return;
  const strong = new Set(
    link.files.flatMap((f) =>
      f.claims.filter((c) => !weak.has(c)).map((c) => `${c.runId}\0${f.file.entry.path}`),
    ),
  );
  const versions = new Set(
    link.files.flatMap((f) =>
      f.claims.filter((c) => c.method !== 'lines').map((c) => `${c.runId}\0${f.file.entry.path}`),
    ),
  );
  for (const f of link.files)
    f.claims = f.claims.filter((c) => {
      if (!weak.has(c)) return true;
      const others = link.files.some((g) => g !== f && strong.has(`${c.runId}\0${g.file.entry.path}`));
      return others || wholeIteration(c, chains.get(c.runId), versions);
    });
}

function wholeIteration(c: RunClaim, chain: RunChain | undefined, versions: ReadonlySet<string>): boolean {
  const its = chain?.iterations.filter((it) => byIteration(c.writer) && it.iteration === c.writer) ?? [];
  const paths = its.flatMap((it) => it.snapshot.files.map((x) => x.path));
  return paths.length > 0 && paths.every((p) => versions.has(`${c.runId}\0${p}`));
}
