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

/**
 * The characters that hide, reorder or break text for whoever reads it: C0 and C1 controls; the
 * bidirectional-text controls that reorder what is shown around them (U+061C, U+200E, U+200F,
 * U+202A-U+202E, U+2066-U+2069: the Trojan Source characters); the line and paragraph separators
 * U+2028 and U+2029; and the invisible format characters that hide text or join what looks apart
 * (U+00AD, U+200B-U+200D, U+2060-U+2064, U+FEFF). ESC too, whatever follows it.
 */
const HIDDEN_CLASS =
  '[\\u0000-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u2064\\u2066-\\u2069\\ufeff]';
const HIDDEN = new RegExp(HIDDEN_CLASS, 'g');
/** The same, and half a surrogate pair, which UTF-8 cannot hold (a file would get U+FFFD there). */
const HIDDEN_OR_HALF = new RegExp(
  `${HIDDEN_CLASS}|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]`,
  'g',
);

/**
 * `text` with every hidden character shown escaped, `\xNN` or `\uNNNN` (or as `named` names it:
 * `\n`), so that what a person reads is what the text holds; `halves` escapes half surrogate pairs too.
 */
export function escapeHidden(
  text: string,
  opts: { named?: Readonly<Record<string, string>>; halves?: boolean } = {},
): string {
  return text.replace(opts.halves === true ? HIDDEN_OR_HALF : HIDDEN, (c) => {
    const code = c.charCodeAt(0);
    return (
      opts.named?.[c] ??
      (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
    );
  });
}

/**
 * The first `limit` code points, cut where the count says (the contract's "first 100 characters" of
 * a task): never half a surrogate pair, which git would store as U+FFFD.
 */
export function firstCodePoints(text: string, limit: number): string {
  let out = '';
  let count = 0;
  for (const char of text) {
    if (count++ === limit) break;
    out += char;
  }
  return out;
}

/** `text` as firstChars cuts it to `max` characters, with `…` after it when it was cut. */
export function ellipsized(text: string, max: number): string {
  const kept = firstChars(text, max);
  return kept.cut ? `${kept.text}…` : text;
}

/**
 * GitHub's runner obeys two forms of workflow command in a log line: `::name::data` at its start,
 * and the legacy `##[name]data` wherever `##[` stands in the line (`##[error]`, `##[add-mask]`, and
 * `##[stop-commands]`, which turns every later command of the step off). The first `#` of each `##[`
 * in `text` is written as `escape`: `\x23` for people, `\u0023` inside JSON strings (the same
 * string to a JSON reader), `&#35;` in HTML (the same text to a browser).
 */
export function noLegacyCommands(text: string, escape: string): string {
  return text.includes('##[') ? text.replace(LEGACY_COMMAND, escape) : text;
}

const LEGACY_COMMAND = /#(?=#\[)/g;

/**
 * JSON text with no `##[` in it, and the same document to a JSON reader: `#` escaped where one would
 * start. U+0085, U+2028 and U+2029 are escaped too (JSON leaves them raw in strings): a reader that
 * splits lines as Python's `splitlines()` or a runner's log does would cut a JSON line (a `serve`
 * answer, a task of `after --json`) in two there.
 */
export function jsonWithoutLegacyCommands(json: string): string {
  return json.includes('##[') || LINE_BREAKS.test(json) ? json.replace(JSON_ESCAPED, unicodeEscape) : json;
}

const LINE_BREAKS = /[\u0085\u2028\u2029]/;
const JSON_ESCAPED = /#(?=#\[)|[\u0085\u2028\u2029]/g;

function unicodeEscape(c: string): string {
  return `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, '0')}`;
}

/** `JSON.stringify(value, null, indent)` as every document we print is written: with no `##[` (jsonWithoutLegacyCommands). */
export function jsonText(value: unknown, indent?: number): string {
  return jsonWithoutLegacyCommands(JSON.stringify(value, null, indent));
}
