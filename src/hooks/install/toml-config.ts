import { parse, stringify, TomlError } from 'smol-toml';
import { isOurCommand } from './command.js';
import {
  canonical,
  changedLists,
  configInvalid,
  describeValue,
  isOurEntry,
  isRecord,
  type ListEdit,
} from './entries.js';
import { hooksOffNotes } from './hooks-off.js';
import { withLineBreaksOf } from './json-text.js';
import type { ConfigPlan } from './json-config.js';
import type { InstallTarget } from './targets.js';
import { editSections } from './toml-sections.js';

/** Our entries in config.toml sit between these lines, so that the rest of the file (comments too) is never rewritten. */
const BEGIN =
  '# >>> agentgate-snapshotter checkpoints (written by "hook install codex"; "hook uninstall codex" removes it) >>>';
const END = '# <<< agentgate-snapshotter checkpoints <<<';

/**
 * Our `[[hooks.<Event>]]` tables merged into (entryOf null: removed from) Codex's config.toml. They
 * are appended as one marked block, which leaves every other line of the file as it was; a hook of
 * ours outside the block (in a group of the user's) is edited on its own lines. Only when the
 * file's own hooks cannot take them that way (an inline `hooks` table) is the file rewritten
 * through smol-toml, which drops its comments, and the plan says so.
 */
export function planTomlConfig(
  target: InstallTarget,
  before: string | null,
  entryOf: ((event: string) => Record<string, unknown>) | null,
  dryRun = false,
): ConfigPlan {
  const original = before ?? '';
  const beforeValue = parseToml(target, original);
  const rest = withoutBlock(original);
  const restValue = parseToml(target, rest);
  const hooks = restValue.hooks === undefined ? {} : restValue.hooks;
  if (!isRecord(hooks)) throw configInvalid(target, `"hooks" is ${describeValue(hooks)}, not a table`);
  const notes = entryOf === null ? [] : hooksOffNotes(target, beforeValue);
  const nextHooks: Record<string, unknown> = { ...hooks };
  const edits: Record<string, ListEdit[]> = {};
  const appended: Record<string, unknown[]> = {};
  for (const { event, next } of changedLists(target, hooks, entryOf)) {
    if (next.list.length > 0) nextHooks[event] = next.list;
    else delete nextHooks[event];
    edits[event] = next.edits.filter((e) => e.op !== 'append');
    const add = next.edits.flatMap((e) => (e.op === 'append' ? [e.entry] : []));
    if (add.length > 0) appended[event] = add;
  }
  const expected = withHooks(restValue, nextHooks);
  const changes = diffOurs(target, beforeValue, expected);
  if (changes.length === 0)
    return {
      text: before,
      changes,
      notes,
      removable: entryOf === null && before !== null && before.trim() === '',
    };
  const edited = editSections(rest, edits);
  const text =
    edited === null || Object.keys(appended).length === 0
      ? edited
      : appendBlock(edited, stringify({ hooks: appended }));
  // A file left with nothing (not even a comment) may go on uninstall, as the JSON formats' may.
  const removable = entryOf === null;
  if (text !== null && sameConfig(text, expected))
    return {
      text: withLineBreaksOf(original, text),
      changes,
      notes,
      removable: removable && text.trim() === '',
    };
  const strays = Object.values(edits).some((list) => list.length > 0);
  const why = strays ? 'hooks of ours outside the marked block' : 'its "hooks" table is inline';
  const verb = dryRun ? 'would be' : 'was';
  const rewritten = stringify(expected, { numbersAsFloat: true }).trimEnd();
  return {
    text: withLineBreaksOf(original, `${rewritten}\n`),
    removable: removable && rewritten === '',
    changes,
    notes: [`${target.file} ${verb} rewritten whole (${why}): its comments were not kept`, ...notes],
  };
}

/** The parsed file with `hooks` in its place (or taken out, when empty). */
function withHooks(value: Record<string, unknown>, hooks: Record<string, unknown>): Record<string, unknown> {
  const next = { ...value, hooks };
  if (Object.keys(hooks).length === 0) delete (next as { hooks?: unknown }).hooks;
  return next;
}

/** Whether `text` parses to `expected` (a `[hooks]` header left with nothing under it counts as none). */
function sameConfig(text: string, expected: Record<string, unknown>): boolean {
  const drop = (v: Record<string, unknown>) =>
    isRecord(v.hooks) && Object.keys(v.hooks).length === 0 ? { ...v, hooks: undefined } : v;
  try {
    return canonical(drop(parseValue(text))) === canonical(drop(expected));
  } catch {
    return false;
  }
}

/** Per event, whether our hooks came, changed or went between two parsed files. */
function diffOurs(
  target: InstallTarget,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): ConfigPlan['changes'] {
  const oursOf = (value: Record<string, unknown>) => {
    const hooks = isRecord(value.hooks) ? value.hooks : {};
    const out = new Map<string, string>();
    for (const [event, list] of Object.entries(hooks))
      if (Array.isArray(list)) {
        // Our whole entries, and our hooks in the groups we share with the user.
        const mine = list.flatMap((e: unknown) =>
          isOurEntry(e, target)
            ? [e]
            : isRecord(e) && Array.isArray(e.hooks)
              ? e.hooks.filter((h: unknown) => isRecord(h) && isOurCommand(h.command, target.agent))
              : [],
        );
        if (mine.length > 0) out.set(event, canonical(mine));
      }
    return out;
  };
  const a = oursOf(before);
  const b = oursOf(after);
  const changes: ConfigPlan['changes'] = [];
  // In the order the target lists its events (then any other event of ours), as the JSON formats report them.
  for (const event of new Set([...target.events, ...a.keys(), ...b.keys()])) {
    const was = a.get(event);
    const now = b.get(event);
    if (was === now) continue;
    changes.push({ event, change: was === undefined ? 'added' : now === undefined ? 'removed' : 'updated' });
  }
  return changes;
}

function withoutBlock(text: string): string {
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) return text;
  const after = text.slice(end + END.length).replace(/^\r?\n/, '');
  return `${text.slice(0, start).replace(/(\r?\n)+$/, '$1')}${after}`.replace(/^\r?\n$/, '');
}

function appendBlock(text: string, tables: string): string {
  const head =
    text === '' || /\r?\n\r?\n$/.test(text) ? text : text.endsWith('\n') ? `${text}\n` : `${text}\n\n`;
  return `${head}${BEGIN}\n${tables.trimEnd()}\n${END}\n`;
}

/** Integers as BigInt, so that a rewrite writes 1.0 as 1.0 and 1 as 1 (stringify's numbersAsFloat). */
function parseValue(text: string): Record<string, unknown> {
  return parse(text, { integersAsBigInt: true }) as Record<string, unknown>;
}

function parseToml(target: InstallTarget, text: string): Record<string, unknown> {
  try {
    return parseValue(text);
  } catch (error) {
    const why =
      error instanceof TomlError ? `line ${error.line}: ${error.message.split('\n')[0]}` : String(error);
    throw configInvalid(target, `not valid TOML (${why})`);
  }
}
