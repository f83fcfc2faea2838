import { applyEdits, modify, parse, printParseErrorCode, visit, type ParseError } from 'jsonc-parser';
import {
  changedLists,
  configInvalid,
  describeValue,
  isRecord,
  type EntryChange,
  type ListEdit,
} from './entries.js';
import { hooksOffNotes } from './hooks-off.js';
import {
  appendEntry,
  blankInside,
  indentOf,
  indentUnit,
  intoCommented,
  nodeAt,
  pasteAfter,
  pretty,
  removeChild,
  withEndOf,
  withLineBreaksOf,
} from './json-text.js';
import type { InstallTarget } from './targets.js';

/** What a planned edit of a config file does. */
export interface ConfigPlan {
  /** The new text (null: there is no file, and none is needed). */
  text: string | null;
  /** The new text holds nothing of the user's: the file may go on uninstall, if install created it (install.ts). */
  removable?: boolean;
  changes: Array<{ event: string; change: EntryChange }>;
  notes: string[];
}

/** jsonc-parser's edits laid out with the file's own indent (indentUnit). */
function formatOf(text: string) {
  const unit = indentUnit(text);
  return {
    formattingOptions: { insertSpaces: unit !== '\t', tabSize: unit === '\t' ? 1 : unit.length, eol: '\n' },
  };
}

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
  const source = before ?? '{}';
  parseConfig(target, source);
  // Gemini CLI and Qwen Code read JSON with comments but without trailing commas: none is added.
  const strict = parses(target, source, true);
  let text = withoutShadowedLists(target, source);
  const root = parseConfig(target, text);
  // null is not "no hooks": the agents refuse it too, and it cannot hold ours.
  const hooks = root.hooks === undefined ? {} : root.hooks;
  if (!isRecord(hooks)) throw configInvalid(target, `"hooks" is ${describeValue(hooks)}, not an object`);
  const notes = entryOf === null ? [] : hooksOffNotes(target, root);
  const changes: ConfigPlan['changes'] = [];
  for (const { event, next } of changedLists(target, hooks, entryOf)) {
    changes.push({ event, change: next.change });
    text = editList(target, text, event, next, strict);
  }
  // Nothing of ours: a file install created may still go, when nothing of the user's is in it either.
  if (changes.length === 0)
    return { text: before, changes, notes, removable: uninstall(entryOf) && emptyOfTheUsers(target, before) };
  if (entryOf !== null)
    for (const [key, value] of Object.entries(target.root ?? {}))
      if (root[key] === undefined) text = addProperty(target, text, [], key, value);
  // An emptied `hooks` goes only when nothing is left inside it (a comment of the user's stays).
  if (entryOf === null && nodeAt(text, ['hooks'])?.type === 'object' && blankInside(text, ['hooks']))
    text = cutOrEdit(target, text, [], 'hooks');
  const out = withLineBreaksOf(before, withEndOf(before, text));
  // A file left holding nothing but what we wrote (no key, comment or setting of the user's) may
  // go on uninstall, when install's record says it created the file.
  return { text: out, changes, notes, removable: entryOf === null && holdsNothingOfTheUsers(target, text) };
}

/**
 * The text without the earlier of two event lists of the same name in `hooks`, which every reader
 * overrides with the last (an earlier build's install added a second `"Stop"` after an empty one):
 * an empty one is cut; any other is refused, as is a second `hooks`, since which one an agent
 * reads is not ours to guess.
 */
function withoutShadowedLists(target: InstallTarget, text: string): string {
  const twice = (key: unknown) =>
    configInvalid(
      target,
      `${JSON.stringify(key)} is there twice (the agent reads only the last); merge them`,
    );
  const names = (path: string[]) => (nodeAt(text, path)?.children ?? []).map((p) => p.children?.[0]?.value);
  const top = names([]);
  if (top.filter((k) => k === 'hooks').length > 1) throw twice('hooks');
  if (nodeAt(text, ['hooks'])?.type !== 'object') return text;
  const props = nodeAt(text, ['hooks'])?.children ?? [];
  const keys = names(['hooks']);
  let out = text;
  for (let k = props.length - 1; k >= 0; k -= 1) {
    if (!keys.slice(k + 1).includes(keys[k])) continue;
    const value = props[k]?.children?.[1];
    if (value?.type !== 'array' || (value.children?.length ?? 0) > 0) throw twice(`hooks.${String(keys[k])}`);
    out = removeChild(out, ['hooks'], k);
  }
  return out;
}

/**
 * One event's list edited entry by entry (nextList's edits: ours taken out, our command set where
 * it stands, the new one appended), so that the user's entries keep their comments and layout. A
 * list that appears is added whole; one left empty goes when nothing (no comment) is left in it.
 * An edit whose result would not parse to exactly the new list (or would leave a trailing comma
 * in a file that had none) is made through jsonc-parser instead.
 */
function editList(
  target: InstallTarget,
  text: string,
  event: string,
  next: { list: readonly unknown[]; edits: readonly ListEdit[] },
  strict: boolean,
): string {
  const { list } = next;
  const path = ['hooks', event];
  if (nodeAt(text, path) === undefined)
    return nodeAt(text, ['hooks']) === undefined
      ? addProperty(target, text, [], 'hooks', { [event]: list })
      : addProperty(target, text, ['hooks'], event, list);
  let out = text;
  for (const edit of next.edits) {
    if (edit.op === 'remove') out = removeChild(out, path, edit.i);
    else if (edit.op === 'removeHook') out = removeChild(out, [...path, edit.i, 'hooks'], edit.j);
    else if (edit.op === 'setCommand') {
      const at = edit.j === undefined ? [edit.i] : [edit.i, 'hooks', edit.j];
      out = applyEdits(out, modify(out, [...path, ...at, edit.key], edit.command, formatOf(out)));
    } else out = appendEntry(out, path, edit.entry);
  }
  if (!listIs(target, out, event, list, strict))
    out = applyEdits(text, modify(text, path, list, formatOf(text)));
  return list.length === 0 && blankInside(out, path) ? cutOrEdit(target, out, ['hooks'], event) : out;
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
  const edited = applyEdits(text, modify(text, [...path, key], value, formatOf(text)));
  const parent = nodeAt(text, path);
  const name = JSON.stringify(key);
  const last = parent?.type === 'object' ? parent.children?.at(-1) : undefined;
  if (parent === undefined) return edited;
  if (last === undefined) {
    // An object holding only a comment: jsonc-parser's edit would lay out its line anew.
    if (blankInside(text, path)) return edited;
    const pasted = intoCommented(text, parent, value, key);
    return sameValue(target, pasted, edited) ? pasted : edited;
  }
  const end = last.offset + last.length;
  let pasted: string;
  if (!text.slice(parent.offset, last.offset).includes('\n')) {
    pasted = `${text.slice(0, end)}, ${name}: ${JSON.stringify(value)}${text.slice(end)}`;
  } else {
    const indent = indentOf(text, last.offset);
    pasted = pasteAfter(text, end, `${indent}${name}: ${pretty(value, indent, indentUnit(text))}`);
  }
  return sameValue(target, pasted, edited) ? pasted : edited;
}

/**
 * The object at `path` without its property `key`, cut out as removeChild cuts (no neighbour is
 * reformatted); through jsonc-parser's edit when the cut would not parse to the same value.
 */
function cutOrEdit(target: InstallTarget, text: string, path: string[], key: string): string {
  const edited = applyEdits(text, modify(text, [...path, key], undefined, formatOf(text)));
  const parent = nodeAt(text, path);
  const i = parent?.children?.findIndex((p) => p.children?.[0]?.value === key) ?? -1;
  if (i < 0) return edited;
  const cut = removeChild(text, path, i);
  return sameValue(target, cut, edited) ? cut : edited;
}

/** Whether a pasted text parses as jsonc-parser's edit does (a paste that does not parse: no). */
function sameValue(target: InstallTarget, pasted: string, edited: string): boolean {
  try {
    return JSON.stringify(parseConfig(target, pasted)) === JSON.stringify(parseConfig(target, edited));
  } catch {
    return false;
  }
}

function uninstall(entryOf: unknown): boolean {
  return entryOf === null;
}

function emptyOfTheUsers(target: InstallTarget, text: string | null): boolean {
  return text !== null && holdsNothingOfTheUsers(target, text);
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

/** Whether `text` parses (`strict`: without a trailing comma) with `list` as the event's list. */
function listIs(
  target: InstallTarget,
  text: string,
  event: string,
  list: readonly unknown[],
  strict: boolean,
): boolean {
  try {
    const hooks = parseConfig(target, text, strict).hooks as Record<string, unknown> | undefined;
    return JSON.stringify(hooks?.[event]) === JSON.stringify(list);
  } catch {
    return false;
  }
}

/** Whether `text` parses (`strict`: without a trailing comma). */
function parses(target: InstallTarget, text: string, strict: boolean): boolean {
  try {
    parseConfig(target, text, strict);
    return true;
  } catch {
    return false;
  }
}

/** The file's value; `strict`: a trailing comma is an error even where the file allows comments. */
function parseConfig(
  target: InstallTarget,
  text: string,
  strict = false,
): Record<string, unknown> & { hooks?: unknown } {
  const errors: ParseError[] = [];
  const value: unknown = parse(text, errors, {
    disallowComments: !target.comments,
    allowTrailingComma: target.comments && !strict,
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
  // The parser assigns keys to plain objects: a `__proto__` key would become a prototype, and
  // what it holds would read as the file's own keys (a "hooks" of ours that is no hook).
  let proto = false;
  visit(text, { onObjectProperty: (key) => (proto ||= key === '__proto__') }, { allowTrailingComma: true });
  if (proto) throw configInvalid(target, 'it holds a "__proto__" key, which cannot be merged into safely');
  return value as Record<string, unknown>;
}
