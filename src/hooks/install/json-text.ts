import { createScanner, findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';

/**
 * Cutting and pasting in a JSON or JSONC file's text, so that an edit touches only what it must:
 * every neighbour keeps its layout and every comment of the user's stays. The callers check that
 * each result parses to what they expect, and fall back to jsonc-parser's own edits when not.
 */

// jsonc-parser's SyntaxKind is a const enum, which isolated modules cannot read.
const COMMA = 5;
const LINE_COMMENT = 12;
const BLOCK_COMMENT = 13;
const LINE_BREAK = 14;
const TRIVIA = 15;
const EOF = 17;

export function nodeAt(text: string, path: ReadonlyArray<string | number>): Node | undefined {
  return findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true }) as Node, [...path]);
}

/** Whether the list or object at `path` holds only blanks between its brackets (no entry, no comment). */
export function blankInside(text: string, path: ReadonlyArray<string | number>): boolean {
  const node = nodeAt(text, path);
  return node !== undefined && /^\s*$/.test(text.slice(node.offset + 1, node.offset + node.length - 1));
}

/**
 * The list or object at `path` without its `i`-th child, each comment of the user's kept:
 * - the only child: the container becomes `[]` or `{}` when nothing else is inside, else the child
 *   alone is cut;
 * - the first of several: up to its comma (the real one, not one inside a comment) and the blanks
 *   after it, so that a comment above the next child stays with it;
 * - a later child: from the end of the one before, with the comma between them; when a comment
 *   stands between them (`{...}, // mine`), the comment stays on its line: a child followed by
 *   another is cut as the first is, the last with only the comma before it (none is left trailing).
 * A line left holding only blanks goes too.
 */
export function removeChild(text: string, path: ReadonlyArray<string | number>, i: number): string {
  const parent = nodeAt(text, path) as Node;
  const items = parent.children ?? [];
  const node = items[i] as Node;
  const end = node.offset + node.length;
  const [open, close] = [parent.offset + 1, parent.offset + parent.length - 1];
  const prev = items[i - 1];
  if (prev === undefined && items.length === 1)
    return /^\s*$/.test(text.slice(open, node.offset) + text.slice(end, close))
      ? text.slice(0, open) + text.slice(close)
      : cutSpan(text, node.offset, end);
  if (prev === undefined) return cutWithComma(text, node.offset, end);
  const prevEnd = prev.offset + prev.length;
  const comma = tokenAfter(text, prevEnd, COMMA);
  if (comma < 0 || comma > node.offset) return text;
  if (!hasComment(text, prevEnd, node.offset)) return cutSpan(text, prevEnd, end);
  if (i < items.length - 1) return cutWithComma(text, node.offset, end);
  const withoutComma = text.slice(0, comma) + text.slice(comma + 1);
  return cutSpan(withoutComma, node.offset - 1, end - 1);
}

/** The child at [start, end) cut with the comma after it and the blanks after that (unchanged when none). */
function cutWithComma(text: string, start: number, end: number): string {
  const comma = tokenAfter(text, end, COMMA);
  if (comma < 0) return text;
  let to = comma + 1;
  while (text[to] === ' ' || text[to] === '\t') to += 1;
  return cutSpan(text, start, to);
}

/**
 * `text` without [start, end); the whole line when nothing but blanks is left on it, else with
 * one of two spaces that would meet (`[ /* c *\/ ours ]` back to `[ /* c *\/ ]`).
 */
function cutSpan(text: string, start: number, end: number): string {
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const eol = /^[ \t]*\r?\n/.exec(text.slice(end));
  if (eol !== null && /^[ \t]*$/.test(text.slice(lineStart, start)))
    return text.slice(0, lineStart) + text.slice(end + eol[0].length);
  const to = /[ \t]/.test(text[start - 1] ?? '') && text[end] === ' ' ? end + 1 : end;
  return text.slice(0, start) + text.slice(to);
}

/** The offset of the first token of `kind` after `offset` with only blanks and comments before it, or -1. */
function tokenAfter(text: string, offset: number, kind: number): number {
  const scanner = createScanner(text, false);
  scanner.setPosition(offset);
  for (;;) {
    const token = scanner.scan() as number;
    if (token === kind) return scanner.getTokenOffset();
    if (![LINE_COMMENT, BLOCK_COMMENT, LINE_BREAK, TRIVIA].includes(token)) return -1;
  }
}

/** Whether a comment stands in [start, end) (blanks, comments and commas only). */
function hasComment(text: string, start: number, end: number): boolean {
  const scanner = createScanner(text.slice(start, end), false);
  for (let token = scanner.scan() as number; token !== EOF; token = scanner.scan() as number)
    if (token === LINE_COMMENT || token === BLOCK_COMMENT) return true;
  return false;
}

/**
 * `entry` at the end of the list at `path`: after its last entry, indented as that entry's line
 * is; into an empty list, on the list's line when the list sits on one line with its neighbours,
 * else on a line of its own (after any comment in the list).
 */
export function appendEntry(
  text: string,
  path: ReadonlyArray<string | number>,
  entry: Record<string, unknown>,
): string {
  const list = nodeAt(text, path) as Node;
  const last = list.children?.at(-1);
  if (last !== undefined) {
    const indent = indentOf(text, last.offset);
    return pasteAfter(text, last.offset + last.length, `${indent}${pretty(entry, indent, indentUnit(text))}`);
  }
  const [open, close] = [list.offset + 1, list.offset + list.length - 1];
  const indent = indentOf(text, list.offset);
  const parent = nodeAt(text, path.slice(0, -1)) as Node;
  if (!text.slice(parent.offset, parent.offset + parent.length).includes('\n')) {
    const inside = text.slice(open, close).trim();
    return `${text.slice(0, open)}${inside === '' ? '' : `${inside} `}${JSON.stringify(entry)}${text.slice(close)}`;
  }
  if (/^\s*$/.test(text.slice(open, close))) {
    const inner = `${indent}${indentUnit(text)}`;
    return `${text.slice(0, open)}\n${inner}${pretty(entry, inner, indentUnit(text))}\n${indent}${text.slice(close)}`;
  }
  return intoCommented(text, list, entry);
}

/**
 * `line` pasted on a line of its own after the value that ends at `end`, with the comma between
 * them: after the comments (and a trailing comma) on that value's line, which stay with it
 * (`{...}, // mine` then ours, not ours then `// mine`).
 */
export function pasteAfter(text: string, end: number, line: string): string {
  const scanner = createScanner(text, false);
  scanner.setPosition(end);
  let [at, comma] = [end, false];
  for (let token = scanner.scan() as number; ; token = scanner.scan() as number) {
    if (token === TRIVIA) continue;
    if (token !== LINE_COMMENT && token !== BLOCK_COMMENT && (token !== COMMA || comma)) break;
    comma ||= token === COMMA;
    at = scanner.getTokenOffset() + scanner.getTokenLength();
  }
  const sep = comma ? '' : ',';
  return `${text.slice(0, end)}${sep}${text.slice(end, at)}\n${line}${text.slice(at)}`;
}

/**
 * A list (or, with `name`, an object) that holds only comments with `value` pasted in: laid out
 * on lines of its own before the closing bracket when that bracket begins its line, else on one
 * line just before the bracket.
 */
export function intoCommented(text: string, container: Node, value: unknown, name?: string): string {
  const close = container.offset + container.length - 1;
  const key = name === undefined ? '' : `${JSON.stringify(name)}: `;
  const inner = `${indentOf(text, container.offset)}${indentUnit(text)}`;
  const closeLine = text.lastIndexOf('\n', close - 1) + 1;
  if (/^[ \t]*$/.test(text.slice(closeLine, close)))
    return `${text.slice(0, closeLine)}${inner}${key}${pretty(value, inner, indentUnit(text))}\n${text.slice(closeLine)}`;
  const space = /\s/.test(text[close - 1] ?? '') ? '' : ' ';
  return `${text.slice(0, close)}${space}${key}${JSON.stringify(value)} ${text.slice(close)}`;
}

/** The blanks that begin the line `offset` is on. */
export function indentOf(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart, offset))?.[0] ?? '';
}

/** A value as JSON, nested by `unit` (default two spaces), each line after the first indented by `indent`. */
export function pretty(value: unknown, indent: string, unit = '  '): string {
  return JSON.stringify(value, null, unit).split('\n').join(`\n${indent}`);
}

/**
 * The blanks one level of nesting takes in `text`: those that begin the line of the root object's
 * first property (a tab, or up to eight spaces), when that property begins its line; else two spaces.
 */
export function indentUnit(text: string): string {
  const first = nodeAt(text, [])?.children?.[0];
  if (first === undefined) return '  ';
  const lineStart = text.lastIndexOf('\n', first.offset - 1) + 1;
  const blanks = text.slice(lineStart, first.offset);
  if (blanks.startsWith('\t') && /^\t+$/.test(blanks)) return '\t';
  return /^ {1,8}$/.test(blanks) ? blanks : '  ';
}

/**
 * `text` ending as `before` ends: a file (not blank) that ends without a line break keeps ending
 * so; any other, a new one included, ends with one (an empty text stays empty).
 */
export function withEndOf(before: string | null, text: string): string {
  if (before !== null && before.trim() !== '' && !before.endsWith('\n')) return text.replace(/\r?\n$/, '');
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

/**
 * `text` with the line breaks of `before`: CRLF throughout when every line break of `before` is
 * one (the lines an edit adds come with LF); else as it is.
 */
export function withLineBreaksOf(before: string | null, text: string): string {
  if (before === null || !before.includes('\r\n') || /(?<!\r)\n/.test(before)) return text;
  return text.replace(/(?<!\r)\n/g, '\r\n');
}
