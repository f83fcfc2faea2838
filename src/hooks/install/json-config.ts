import {
  applyEdits,
  findNodeAtLocation,
  modify,
  parse,
  parseTree,
  printParseErrorCode,
  type Node,
  type ParseError,
} from 'jsonc-parser';
import {
  changedLists,
  configInvalid,
  describeValue,
  isRecord,
  type EntryChange,
  type ListEdit,
} from './entries.js';
import { hooksOffNotes } from './hooks-off.js';
import type { InstallTarget } from './targets.js';

/** What a planned edit of a config file does. */
export interface ConfigPlan {
  /** The new text, or null to delete the file (our own file, left empty). */
  text: string | null;
  changes: Array<{ event: string; change: EntryChange }>;
  notes: string[];
}

const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

/**
 * Our entries merged into (or, with `commandOf` null, removed from) an agent's JSON config, edited
 * in place with jsonc-parser: every other entry, key, comment and the file's layout stay as they
 * were. `commandOf(event)` gives our entry for an event we install.
 */
export function planJsonConfig(
  target: InstallTarget,
  before: string | null,
  entryOf: ((event: string) => Record<string, unknown>) | null,
): ConfigPlan {
  let text = before ?? '{}';
  const root = parseConfig(target, text);
  // null is not "no hooks": the agents refuse it too, and it cannot hold ours.
  const hooks = root.hooks === undefined ? {} : root.hooks;
  if (!isRecord(hooks)) throw configInvalid(target, `"hooks" is ${describeValue(hooks)}, not an object`);
  const notes = entryOf === null ? [] : hooksOffNotes(target, root);
  const changes: ConfigPlan['changes'] = [];
  for (const { event, current, next } of changedLists(target, hooks, entryOf)) {
    changes.push({ event, change: next.change });
    text = editList(target, text, event, current, next);
  }
  if (changes.length === 0) return { text: before, changes, notes };
  if (entryOf !== null)
    for (const [key, value] of Object.entries(target.root ?? {}))
      if (root[key] === undefined) text = addProperty(target, text, [], key, value);
  if (entryOf === null && Object.keys(parseConfig(target, text).hooks ?? {}).length === 0)
    text = cutOrEdit(target, text, [], 'hooks');
  // A file left holding nothing but what we wrote (no key, comment or setting of the user's) goes
  // away on uninstall: it is the file install created, or one that says nothing.
  if (entryOf === null && holdsNothingOfTheUsers(target, text)) return { text: null, changes, notes };
  return { text: text.endsWith('\n') ? text : `${text}\n`, changes, notes };
}

/**
 * One event's list edited entry by entry (nextList's edits: ours taken out, our hook's command set
 * where it shares a group, the new one appended), so that the user's entries keep their comments
 * and layout. A list that appears or empties is written whole; so is any edit whose result would
 * not parse to exactly the new list (jsonc-parser's edits are then not trusted).
 */
function editList(
  target: InstallTarget,
  text: string,
  event: string,
  current: readonly unknown[],
  next: { list: readonly unknown[]; edits: readonly ListEdit[] },
): string {
  const { list } = next;
  const whole = () =>
    applyEdits(text, modify(text, ['hooks', event], list.length === 0 ? undefined : list, FORMAT));
  if (list.length === 0) return cutOrEdit(target, text, ['hooks'], event);
  if (current.length === 0)
    return nodeAt(text, ['hooks']) === undefined
      ? addProperty(target, text, [], 'hooks', { [event]: list })
      : addProperty(target, text, ['hooks'], event, list);
  // Cut and pasted here: jsonc-parser's own edits reformat the neighbouring entries.
  let out = text;
  for (const edit of next.edits) {
    if (edit.op === 'remove') out = removeChild(out, ['hooks', event], edit.i);
    else if (edit.op === 'removeHook') out = removeChild(out, ['hooks', event, edit.i, 'hooks'], edit.j);
    else if (edit.op === 'setCommand') {
      const path = ['hooks', event, edit.i, 'hooks', edit.j, 'command'];
      out = applyEdits(out, modify(out, path, edit.command, FORMAT));
    } else out = appendEntry(out, event, edit.entry);
  }
  try {
    const hooks = parseConfig(target, out).hooks as Record<string, unknown> | undefined;
    return JSON.stringify(hooks?.[event]) === JSON.stringify(list) ? out : whole();
  } catch {
    return whole();
  }
}

/**
 * The object at `path` with `key: value` added after its last property, laid out as that property
 * is: on its line when the object is written on one line, else on a line of its own with its
 * indent, so that no neighbour is reformatted. Through jsonc-parser's edit when the object is
 * empty or the paste would not parse to the same value.
 */
function addProperty(
  target: InstallTarget,
  text: string,
  path: string[],
  key: string,
  value: unknown,
): string {
  const edited = applyEdits(text, modify(text, [...path, key], value, FORMAT));
  const parent = nodeAt(text, path);
  const last = parent?.type === 'object' ? parent.children?.at(-1) : undefined;
  if (parent === undefined || last === undefined) return edited;
  const end = last.offset + last.length;
  const name = JSON.stringify(key);
  let pasted: string;
  if (!text.slice(parent.offset, last.offset).includes('\n')) {
    pasted = `${text.slice(0, end)}, ${name}: ${JSON.stringify(value)}${text.slice(end)}`;
  } else {
    const lineStart = text.lastIndexOf('\n', last.offset - 1) + 1;
    const indent = /^[ \t]*/.exec(text.slice(lineStart, last.offset))?.[0] ?? '';
    const body = JSON.stringify(value, null, 2).split('\n').join(`\n${indent}`);
    pasted = `${text.slice(0, end)},\n${indent}${name}: ${body}${text.slice(end)}`;
  }
  const same = JSON.stringify(parseConfig(target, pasted)) === JSON.stringify(parseConfig(target, edited));
  return same ? pasted : edited;
}

/**
 * The object at `path` without its property `key`, cut out as removeChild cuts (no neighbour is
 * reformatted); through jsonc-parser's edit when the cut would not parse to the same value.
 */
function cutOrEdit(target: InstallTarget, text: string, path: string[], key: string): string {
  const edited = applyEdits(text, modify(text, [...path, key], undefined, FORMAT));
  const parent = nodeAt(text, path);
  const i = parent?.children?.findIndex((p) => p.children?.[0]?.value === key) ?? -1;
  if (i < 0) return edited;
  const cut = removeChild(text, path, i);
  const same = JSON.stringify(parseConfig(target, cut)) === JSON.stringify(parseConfig(target, edited));
  return same ? cut : edited;
}

function nodeAt(text: string, path: Array<string | number>): Node | undefined {
  return findNodeAtLocation(parseTree(text, [], { allowTrailingComma: true }) as Node, path);
}

/** The entries of an event's list, as jsonc-parser locates them in `text`. */
function entriesOf(text: string, event: string): Node[] {
  return nodeAt(text, ['hooks', event])?.children ?? [];
}

/**
 * The list or object at `path` without its `i`-th child: from the end of the child before, or (the
 * first child) up to its comma and the blanks after it, so that a comment above the next child stays
 * with it. A line left holding only blanks goes too; a container left with only blanks becomes `{}`
 * or `[]`.
 */
function removeChild(text: string, path: Array<string | number>, i: number): string {
  const parent = nodeAt(text, path) as Node;
  const items = parent.children ?? [];
  const node = items[i] as Node;
  const [open, close] = [parent.offset + 1, parent.offset + parent.length - 1];
  if (
    items.length === 1 &&
    /^\s*$/.test(text.slice(open, node.offset) + text.slice(node.offset + node.length, close))
  )
    return text.slice(0, open) + text.slice(close);
  const prev = items[i - 1];
  let start = prev === undefined ? node.offset : prev.offset + prev.length;
  let end = node.offset + node.length;
  if (prev === undefined && items[i + 1] !== undefined) {
    end = text.indexOf(',', end) + 1;
    while (text[end] === ' ' || text[end] === '\t') end += 1;
  }
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const eol = /^\r?\n/.exec(text.slice(end));
  if (eol !== null && /^[ \t]*$/.test(text.slice(lineStart, start))) {
    start = lineStart;
    end += eol[0].length;
  }
  return text.slice(0, start) + text.slice(end);
}

/** `entry` after the last entry of the event's list, indented as that entry's line is. */
function appendEntry(text: string, event: string, entry: Record<string, unknown>): string {
  const last = entriesOf(text, event).at(-1);
  if (last === undefined)
    return applyEdits(text, modify(text, ['hooks', event, -1], entry, { isArrayInsertion: true }));
  const lineStart = text.lastIndexOf('\n', last.offset - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, last.offset))?.[0] ?? '';
  const end = last.offset + last.length;
  const body = JSON.stringify(entry, null, 2).split('\n').join(`\n${indent}`);
  return `${text.slice(0, end)},\n${indent}${body}${text.slice(end)}`;
}

function holdsNothingOfTheUsers(target: InstallTarget, text: string): boolean {
  const root = parseConfig(target, text);
  const ours = target.root ?? {};
  const onlyOurs = Object.entries(root).every(
    ([k, v]) => Object.hasOwn(ours, k) && JSON.stringify(v) === JSON.stringify(ours[k]),
  );
  // Any character beyond the values' own (a comment) is the user's.
  return onlyOurs && text.replace(/\s/g, '') === JSON.stringify(root);
}

function parseConfig(target: InstallTarget, text: string): Record<string, unknown> & { hooks?: unknown } {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, {
    disallowComments: !target.comments,
    allowTrailingComma: target.comments,
    allowEmptyContent: true,
  });
  const first = errors[0];
  if (first !== undefined) {
    const line = text.slice(0, first.offset).split('\n').length;
    throw configInvalid(target, `${printParseErrorCode(first.error)} at line ${line}`);
  }
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw configInvalid(target, 'the file is not a JSON object');
  return value as Record<string, unknown>;
}
