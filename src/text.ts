const MARK = /^\p{M}$/u;
const ZWJ = 0x200d;

/**
 * Whether a character belongs to the one before it: a combining mark (an accent, a variation
 * selector), the zero-width joiner, an emoji skin-tone modifier or an emoji tag character.
 */
function extendsPrevious(cp: number): boolean {
  return (
    cp === ZWJ ||
    (cp >= 0x1f3fb && cp <= 0x1f3ff) ||
    (cp >= 0xe0020 && cp <= 0xe007f) ||
    MARK.test(String.fromCodePoint(cp))
  );
}

const isRegionalIndicator = (cp: number | undefined) => cp !== undefined && cp >= 0x1f1e6 && cp <= 0x1f1ff;

/**
 * `text` cut to at most `max` characters, counted in code points (what the contract calls
 * characters). The cut never splits a surrogate pair (a lone half is not valid UTF-8, and strict
 * JSON readers refuse it), and is moved back so as not to part an accent, a joined emoji or a flag
 * from what it belongs to. Intl.Segmenter would know every rule, but loading it costs an agent hook
 * some 40 ms.
 */
export function firstChars(text: string, max: number): { text: string; cut: boolean } {
  // Fewer UTF-16 units than `max`: fewer code points too.
  if (text.length <= max) return { text, cut: false };
  const starts: number[] = [];
  let end = 0;
  for (const char of text) {
    if (starts.length === max) break;
    starts.push(end);
    end += char.length;
  }
  if (end === text.length) return { text, cut: false };
  starts.push(end);
  let keep = max;
  while (keep > 0 && splits(text, starts, keep)) keep -= 1;
  // A text that is one long cluster is cut where the count says.
  return { text: text.slice(0, starts[keep === 0 ? max : keep]), cut: true };
}

/** Whether cutting before code point `k` (at UTF-16 offset `starts[k]`) parts a cluster. */
function splits(text: string, starts: readonly number[], k: number): boolean {
  const next = text.codePointAt(starts[k] as number) as number;
  if (extendsPrevious(next) || text.codePointAt(starts[k - 1] as number) === ZWJ) return true;
  if (!isRegionalIndicator(next)) return false;
  // Flags are pairs of regional indicators: an odd count before the cut would split one.
  let run = 0;
  for (let i = k - 1; i >= 0 && isRegionalIndicator(text.codePointAt(starts[i] as number)); i--) run += 1;
  return run % 2 === 1;
}
