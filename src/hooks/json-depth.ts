import { closingQuote } from './lenient-json.js';

/**
 * Deeper than this, an event is not parsed: no agent's event nests more than a few dozen levels,
 * while JSON.parse takes about a microsecond a level (64 MB of `[`: half a minute) with every
 * timer stopped, far past hooks.timeoutMs.
 */
export const MAX_EVENT_DEPTH = 10_000;

/**
 * With more values and keys than this (each `[`, `{`, `,` and `:` outside strings counts one), an
 * event is not parsed either: agents' events hold at most thousands (a large file or prompt is one
 * string), while JSON.parse builds each at a microsecond or more, with every timer stopped. 64 MB
 * of `{},` or of short keys took 20 to 40 s and 1.4 to 2.4 GB, far past hooks.timeoutMs.
 */
export const MAX_EVENT_VALUES = 500_000;

const OPENERS = [0x5b, 0x7b]; // [ {
const SEPARATORS = [0x2c, 0x3a]; // , :
const QUOTE = 0x22;

/**
 * Why JSON.parse of `text` would take too long to stay within a hook's budget (it cannot be stopped
 * once started): nested more than MAX_EVENT_DEPTH levels, or more than MAX_EVENT_VALUES values and
 * keys; null when neither. Counted with indexOf while the counts stay small, else read up to the
 * character past the limit, so a hostile text costs little more than a real one.
 */
export function parseCostProblem(text: string): string | null {
  const problem = tooCostly(text, MAX_EVENT_DEPTH, MAX_EVENT_VALUES);
  if (problem === 'deep') return `it nests more than ${MAX_EVENT_DEPTH} levels deep`;
  if (problem === 'values') return `it holds more than ${MAX_EVENT_VALUES} values and keys`;
  return null;
}

function tooCostly(text: string, maxDepth: number, maxValues: number): 'deep' | 'values' | null {
  const openers = countOf(text, OPENERS, maxDepth);
  if (openers <= maxDepth && openers + countOf(text, SEPARATORS, maxValues - openers) <= maxValues)
    return null;
  let depth = 0;
  let values = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) i = closingQuote(text, i + 1);
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      values += 1;
      if (depth > maxDepth) return 'deep';
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
    else if (c === 0x2c || c === 0x3a) values += 1;
    if (values > maxValues) return 'values';
  }
  return null;
}

/** How many of the characters `codes` `text` holds (anywhere, strings too), counted up to one past `max`. */
function countOf(text: string, codes: readonly number[], max: number): number {
  let count = 0;
  for (const code of codes) {
    const ch = String.fromCharCode(code);
    for (let at = text.indexOf(ch); at >= 0; at = text.indexOf(ch, at + 1)) {
      count += 1;
      if (count > max) return count;
    }
  }
  return count;
}
