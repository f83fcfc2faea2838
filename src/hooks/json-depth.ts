import { closingQuote } from './lenient-json.js';

/**
 * Deeper than this, an event is not parsed: no agent's event nests more than a few dozen levels,
 * while JSON.parse takes about a microsecond a level (64 MB of `[`: half a minute) with every
 * timer stopped, far past hooks.timeoutMs.
 */
export const MAX_EVENT_DEPTH = 10_000;

const OPENERS = [0x5b, 0x7b]; // [ {
const QUOTE = 0x22;

/**
 * Whether a JSON text nests arrays and objects more than `max` levels deep (brackets inside strings
 * do not count). A text with at most `max` opening brackets is answered by indexOf alone; any other
 * is read up to the level past `max`.
 */
export function nestedDeeperThan(text: string, max: number = MAX_EVENT_DEPTH): boolean {
  if (!moreOpenersThan(text, max)) return false;
  let depth = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = closingQuote(text, i + 1);
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return false;
}

/** Whether `text` holds more than `max` of `[` and `{` together (anywhere, strings too). */
function moreOpenersThan(text: string, max: number): boolean {
  let count = 0;
  for (const opener of OPENERS) {
    const ch = String.fromCharCode(opener);
    for (let at = text.indexOf(ch); at >= 0; at = text.indexOf(ch, at + 1)) {
      count += 1;
      if (count > max) return true;
    }
  }
  return false;
}
