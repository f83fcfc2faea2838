import { parse, stringify } from 'smol-toml';
import { isRecord, type ListEdit } from './entries.js';

/** Lines [start, end) of config.toml: one `[[hooks.<Event>]]` group or `[[hooks.<Event>.hooks]]` hook, its sub-tables included. */
interface Span {
  start: number;
  end: number;
}

interface Header {
  line: number;
  array: boolean;
  path: string[];
}

/**
 * nextList's edits of hooks that sit outside our marked block (a hook of ours in a group of the
 * user's, an entry of ours the user moved), made on the lines of the tables that hold them, so
 * that every other line stays as it was. Null when a table is not written as `[[...]]` headers
 * (an inline array): the caller then rewrites the file. Lines inside a multi-line value are never
 * taken for headers (insideValues); the caller still checks the result parses to what it expects.
 */
export function editSections(
  text: string,
  edits: Readonly<Record<string, readonly ListEdit[]>>,
): string | null {
  const lines = text.split('\n');
  const inside = insideValues(lines);
  const { groups, hooks } = spans(lines, inside);
  const cuts: Span[] = [];
  const sets: Array<{ line: number; text: string }> = [];
  for (const [event, list] of Object.entries(edits))
    for (const edit of list) {
      if (edit.op === 'append') continue;
      const span =
        edit.op === 'remove'
          ? groups.get(event)?.[edit.i]
          : edit.j === undefined
            ? undefined
            : hooks.get(event)?.[edit.i]?.[edit.j];
      if (span === undefined) return null;
      if (edit.op !== 'setCommand') {
        cuts.push(trimmed(lines, span, inside));
        continue;
      }
      const at = lines.findIndex(
        (l, n) => n > span.start && n < span.end && !inside[n] && /^\s*command\s*=/.test(l),
      );
      if (at < 0) return null;
      const line = lines[at] as string;
      const indent = /^\s*/.exec(line)?.[0] ?? '';
      const cr = line.endsWith('\r') ? '\r' : '';
      const comment = trailingComment(line.slice(0, line.length - cr.length));
      sets.push({ line: at, text: `${indent}${stringify({ command: edit.command }).trim()}${comment}${cr}` });
    }
  if (cuts.length + sets.length === 0) return text;
  for (const { line, text: replaced } of sets) lines[line] = replaced;
  // From the bottom up, so that each span still names its lines.
  for (const { start, end } of cuts.sort((a, b) => b.start - a.start)) lines.splice(start, end - start);
  return `${lines.join('\n').replace(/\n+$/, '')}\n`.replace(/^\n$/, '');
}

/** The comment ending a `key = value` line, with the blanks before it; '' when there is none. */
function trailingComment(line: string): string {
  for (let at = line.indexOf('#'); at >= 0; at = line.indexOf('#', at + 1)) {
    try {
      parse(line.slice(0, at)); // the first # after which the line's start is whole TOML
    } catch {
      continue;
    }
    return `${/\s*$/.exec(line.slice(0, at))?.[0] ?? ''}${line.slice(at)}`;
  }
  return '';
}

/**
 * A span without the comments that end it (they stand above the next table, and belong to it), but
 * with the blank lines after its last line of its own.
 */
function trimmed(lines: readonly string[], span: Span, inside: readonly boolean[]): Span {
  const blankOrComment = (n: number) => !inside[n] && /^\s*(#.*)?\r?$/.test(lines[n] as string);
  let end = span.end;
  while (end > span.start + 1 && blankOrComment(end - 1)) end -= 1;
  while (end < span.end && !inside[end] && /^\s*\r?$/.test(lines[end] as string)) end += 1;
  return { start: span.start, end };
}

/** Where each group and each hook of each event's array of tables is, as TOML numbers them. */
function spans(
  lines: readonly string[],
  inside: readonly boolean[],
): {
  groups: Map<string, Span[]>;
  hooks: Map<string, Span[][]>;
} {
  const headers = headersOf(lines, inside);
  const groups = new Map<string, Span[]>();
  const hooks = new Map<string, Span[][]>();
  headers.forEach((h, k) => {
    if (!h.array || h.path[0] !== 'hooks') return;
    const event = h.path[1] as string;
    if (h.path.length === 2) {
      const list = groups.get(event) ?? [];
      list.push(extent(headers, k, lines.length, 2));
      groups.set(event, list);
      hooks.set(event, [...(hooks.get(event) ?? []), []]);
    } else if (h.path.length === 3 && h.path[2] === 'hooks') {
      hooks
        .get(event)
        ?.at(-1)
        ?.push(extent(headers, k, lines.length, 3));
    }
  });
  return { groups, hooks };
}

/** A line that reads as a table header (`[...]`, `[[...]]`), where a header may stand. */
const HEADER = /^\s*(\[\[?)([^[\]]+)\]\]?\s*(?:#.*)?\r?$/;

/** Every table header of the file (`[...]` and `[[...]]`), by line; none inside a value (insideValues). */
function headersOf(lines: readonly string[], inside: readonly boolean[] = insideValues(lines)): Header[] {
  return lines.flatMap((line, n) => {
    const m = inside[n] ? null : HEADER.exec(line);
    const path = m === null ? null : keyPath(m[2] as string);
    return path === null ? [] : [{ line: n, array: m?.[1] === '[[', path }];
  });
}

/**
 * Why the file's hooks could not take our edits line by line, for the note of a whole rewrite:
 * the `hooks` table written inline, or the list of an event we edit (`events`: those, and those
 * we add to) written as an inline array, after which no `[[hooks.<Event>]]` table may follow.
 */
export function notLineByLine(
  text: string,
  hooks: Record<string, unknown>,
  events: readonly string[],
): string {
  const headers = headersOf(text.split('\n')).filter((h) => h.path[0] === 'hooks');
  if (headers.length === 0 && Object.keys(hooks).length > 0) return 'its "hooks" table is inline';
  const inline = events.filter(
    (event) =>
      Array.isArray(hooks[event]) &&
      hooks[event].length > 0 &&
      !headers.some((h) => h.array && h.path.length === 2 && h.path[1] === event),
  );
  if (inline.length > 0) return `${inline.map((e) => `"hooks.${e}"`).join(', ')} written as an inline array`;
  return 'its hooks could not be edited line by line';
}

/** The header's lines and those of the tables below it that belong to it (paths longer than `depth` under it). */
function extent(headers: readonly Header[], k: number, count: number, depth: number): Span {
  const own = headers[k] as Header;
  const prefix = own.path.slice(0, depth);
  let next = k + 1;
  for (; next < headers.length; next += 1) {
    const path = (headers[next] as Header).path;
    if (path.length <= depth || prefix.some((p, i) => path[i] !== p)) break;
  }
  return { start: own.line, end: headers[next]?.line ?? count };
}

/** A header's dotted key as its parts (quoted or bare), as TOML reads it. */
function keyPath(key: string): string[] | null {
  try {
    let value: unknown = parse(`${key} = 0`);
    const path: string[] = [];
    while (isRecord(value)) {
      const keys = Object.keys(value);
      if (keys.length !== 1) return null;
      path.push(keys[0] as string);
      value = value[keys[0] as string];
    }
    return path;
  } catch {
    return null;
  }
}

/**
 * Per line, whether it begins inside a value that spans lines (a multi-line string, an array left
 * open): such a line is part of that value, never a table header, a key or a comment of its own,
 * whatever it reads like (`[[hooks.Stop]]` in a prompt's text).
 */
function insideValues(lines: readonly string[]): boolean[] {
  const inside: boolean[] = [];
  let quote: string | null = null;
  let depth = 0;
  for (const line of lines) {
    inside.push(quote !== null || depth > 0);
    if (quote === null && depth === 0 && HEADER.test(line)) continue;
    for (let i = 0; i < line.length;) {
      if (quote !== null) {
        const end = closingDelimiter(line, i, quote);
        if (end < 0) break;
        [i, quote] = [end, null];
        continue;
      }
      const c = line[i] as string;
      if (c === '#') break;
      const triple = line.slice(i, i + 3);
      if (triple === '"""' || triple === "'''") [i, quote] = [i + 3, triple];
      else if (c === '"' || c === "'") i = endOfString(line, i);
      else {
        if (c === '[' || c === '{') depth += 1;
        else if ((c === ']' || c === '}') && depth > 0) depth -= 1;
        i += 1;
      }
    }
  }
  return inside;
}

/** Just past the delimiter (`"""` or `'''`, up to two quotes of the text before it) that closes a multi-line string, or -1. */
function closingDelimiter(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i += 1) {
    if (quote === '"""' && line[i] === '\\') i += 1;
    else if (line.startsWith(quote, i)) {
      let end = i + 3;
      while (end < i + 5 && line[end] === quote[0]) end += 1;
      return end;
    }
  }
  return -1;
}

/** Just past the quote that closes the one-line string opening at `at` (or the line's end). */
function endOfString(line: string, at: number): number {
  const quote = line[at] as string;
  for (let i = at + 1; i < line.length; i += 1) {
    if (quote === '"' && line[i] === '\\') i += 1;
    else if (line[i] === quote) return i + 1;
  }
  return line.length;
}
