/**
 * Windsurf can send raw control characters (a prompt's newlines) inside JSON strings, which
 * JSON.parse rightly refuses. Inside strings only, each one becomes its escape; nothing outside a
 * string and no escape sequence is changed, so valid JSON parses exactly as it would.
 *
 * The work is bounded: strings are found with indexOf, only a string that holds a control
 * character is gone through character by character, and (parseLenientJson) only its first
 * STRING_KEEP characters are kept. A character-by-character copy of a 16 MB prompt took seconds,
 * past the hook's time budget, with the event loop blocked (not even the last-resort timer ran).
 */
export function escapeControlCharsInStrings(text: string): string {
  return repaired(text, Number.POSITIVE_INFINITY).text;
}

/**
 * A string of an event that needed repair is kept up to this many characters (UTF-16 units): more
 * than any field needs (a label keeps at most 10,000 characters of a prompt, a path 4,096).
 */
export const STRING_KEEP = 256 * 1024;

/**
 * JSON.parse, and where that fails on raw control characters, the same after repair; `cut` says
 * that a string longer than STRING_KEEP was cut to it.
 */
export function parseLenientJson(text: string): { value: unknown; cut: boolean } {
  try {
    return { value: JSON.parse(text), cut: false };
  } catch (error) {
    if (!CONTROL.test(text)) throw error;
    const fixed = repaired(text, STRING_KEEP);
    return { value: JSON.parse(fixed.text), cut: fixed.cut };
  }
}

// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const CONTROL = /[\u0000-\u001f]/;
const BACKSLASH = 0x5c;

/**
 * Strings that need repair are repaired in full up to this many; past it, such a string becomes
 * empty (and `cut` says so). Millions of small strings with a line break each (a hostile event's
 * extra array) took seconds to repair one by one; the fields a hook reads come through unless
 * they hide behind that many.
 */
export const MAX_REPAIRED = 10_000;

function repaired(text: string, keep: number): { text: string; cut: boolean } {
  const parts: string[] = [];
  let copied = 0;
  let cut = false;
  let repairs = 0;
  // The next control character at or after a string's start: found once per stretch, not per string.
  let control = -1;
  for (let open = text.indexOf('"'); open >= 0;) {
    const start = open + 1;
    const close = closingQuote(text, start);
    if (control < start) control = nextControl(text, start);
    const long = close - start > keep;
    if (long || control < close) {
      const body =
        repairs < MAX_REPAIRED ? text.slice(start, long ? cutAt(text, start, start + keep) : close) : '';
      parts.push(text.slice(copied, start), escapeControls(body));
      copied = close;
      cut ||= long || repairs >= MAX_REPAIRED;
      repairs += 1;
    }
    if (close >= text.length) break;
    open = text.indexOf('"', close + 1);
  }
  parts.push(text.slice(copied));
  return { text: parts.join(''), cut };
}

// eslint-disable-next-line no-control-regex -- the control characters are what it looks for
const CONTROL_AT = /[\u0000-\u001f]/g;

/** Where the first control character at or after `from` is, or the text's length. */
function nextControl(text: string, from: number): number {
  CONTROL_AT.lastIndex = from;
  return CONTROL_AT.exec(text)?.index ?? text.length;
}

/** The quote that ends a string whose text starts at `from` (one not escaped by an odd run of backslashes), or the text's end. */
export function closingQuote(text: string, from: number): number {
  for (let q = text.indexOf('"', from); q >= 0; q = text.indexOf('"', q + 1)) {
    let slashes = 0;
    while (q - 1 - slashes >= from && text.charCodeAt(q - 1 - slashes) === BACKSLASH) slashes += 1;
    if (slashes % 2 === 0) return q;
  }
  return text.length;
}

/** `at`, or before it so that the cut parts no escape sequence (`\n`, `\u0041`) and no surrogate pair. */
function cutAt(text: string, from: number, at: number): number {
  for (let b = at - 1; b >= Math.max(from, at - 5); b -= 1) {
    if (text.charCodeAt(b) !== BACKSLASH) continue;
    let before = 0;
    while (b - 1 - before >= from && text.charCodeAt(b - 1 - before) === BACKSLASH) before += 1;
    if (before % 2 === 1) continue; // itself escaped
    if (b + (text[b + 1] === 'u' ? 6 : 2) > at) return b;
    break;
  }
  const last = text.charCodeAt(at - 1);
  return last >= 0xd800 && last <= 0xdbff ? at - 1 : at;
}

const SHORT: Readonly<Record<number, number>> = { 8: 0x62, 9: 0x74, 10: 0x6e, 12: 0x66, 13: 0x72 };
const HEX = '0123456789abcdef';

function escapeOf(c: number): string {
  const short = SHORT[c];
  return short === undefined ? `\\u00${HEX[c >> 4]}${HEX[c & 15]}` : `\\${String.fromCharCode(short)}`;
}

/** Each control character of `body` as its escape, in one pass over UTF-16 units (a regex's callback per character, or replaceAll, took seconds for millions). */
function escapeControls(body: string): string {
  // A short string is built as a string: a typed array and a Buffer for each of millions of small
  // strings (a hostile event's extra fields) cost seconds.
  if (body.length <= 64) {
    let out = '';
    for (let i = 0; i < body.length; i += 1) {
      const c = body.charCodeAt(i);
      out += c >= 0x20 ? body[i] : escapeOf(c);
    }
    return out;
  }
  let extra = 0;
  for (let i = 0; i < body.length; i += 1) {
    const c = body.charCodeAt(i);
    if (c < 0x20) extra += SHORT[c] === undefined ? 5 : 1;
  }
  const out = new Uint16Array(body.length + extra);
  let o = 0;
  for (let i = 0; i < body.length; i += 1) {
    const c = body.charCodeAt(i);
    if (c >= 0x20) out[o++] = c;
    else {
      out[o++] = BACKSLASH;
      const short = SHORT[c];
      if (short !== undefined) out[o++] = short;
      else for (const ch of `u00${HEX[c >> 4]}${HEX[c & 15]}`) out[o++] = ch.charCodeAt(0);
    }
  }
  return Buffer.from(out.buffer, out.byteOffset, out.byteLength).toString('utf16le');
}
