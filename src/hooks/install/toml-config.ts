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
import { withEndOf, withLineBreaksOf } from './json-text.js';
import type { ConfigPlan } from './json-config.js';
import type { InstallTarget } from './targets.js';
import { editSections, notLineByLine } from './toml-sections.js';

/** Our entries in config.toml sit between these lines, so that the rest of the file (comments too) is never rewritten. */
const BEGIN =
  '# >>> agentgate-snapshotter checkpoints (written by "hook install codex"; "hook uninstall codex" removes it) >>>';
const END = '# <<< agentgate-snapshotter checkpoints <<<';

/**
 * Our `[[hooks.<Event>]]` tables merged into (entryOf null: removed from) Codex's config.toml, on
 * their own lines: every other line of the file stays as it was. A hook of ours is edited where it
 * stands, wherever that is (its command set, with whatever the user added to it; or cut out), and
 * what lies between our block's markers that is not ours (a hook of the user's, the trust state
 * Codex writes under `[hooks.state]`) stays there. New entries go at the end of our marked block,
 * or into a new one at the end of the file; uninstall takes the markers out. Only when the file's
 * own hooks cannot take them that way (a `hooks` table or an event list written inline) is the
 * file rewritten through smol-toml, which drops its comments, and the plan says so.
 */
export function planTomlConfig(
  target: InstallTarget,
  before: string | null,
  entryOf: ((event: string) => Record<string, unknown>) | null,
  dryRun = false,
): ConfigPlan {
  const original = before ?? '';
  const value = parseToml(target, original);
  const hooks = value.hooks === undefined ? {} : value.hooks;
  if (!isRecord(hooks)) throw configInvalid(target, `"hooks" is ${describeValue(hooks)}, not a table`);
  const notes = entryOf === null ? [] : hooksOffNotes(target, value);
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
  const expected = withHooks(value, nextHooks);
  const changes = diffOurs(target, value, expected);
  // A file left with nothing (not even a comment) may go on uninstall, as the JSON formats' may.
  const removable = entryOf === null;
  if (changes.length === 0)
    return { text: before, changes, notes, removable: removable && before !== null && before.trim() === '' };
  const edited = editSections(original, edits);
  const text = placements(edited, appended, entryOf === null).find((t) => sameConfig(t, expected));
  if (text !== undefined)
    return {
      text: withLineBreaksOf(original, withEndOf(before, text)),
      changes,
      notes,
      removable: removable && text.trim() === '',
    };
  const verb = dryRun ? 'would be' : 'was';
  const why = notLineByLine(original, hooks, Object.keys(edits));
  const rewritten = stringify(expected, { numbersAsFloat: true }).trimEnd();
  return {
    text: withLineBreaksOf(original, withEndOf(before, `${rewritten}\n`)),
    removable: removable && rewritten === '',
    changes,
    notes: [`${target.file} ${verb} rewritten whole (${why}): its comments were not kept`, ...notes],
  };
}

/**
 * The texts to try, best first, for the file after `editSections`: our new tables at the end of
 * our marked block (the hooks they join may stand in it), or in a new block at the end of the
 * file (a hook of the user's after the block, or a key after its end marker that a table put in
 * before it would take over). Uninstall takes our markers out.
 */
function placements(
  edited: string | null,
  appended: Record<string, unknown[]>,
  uninstall: boolean,
): string[] {
  if (edited === null) return [];
  if (Object.keys(appended).length === 0) return [uninstall ? withoutMarkers(edited) : edited];
  const tables = stringify({ hooks: appended }).trimEnd();
  const inside = intoBlock(edited, tables);
  return [...(inside === null ? [] : [inside]), appendBlock(edited, tables)];
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

/** A line's text without the carriage return of a CRLF file. */
function bare(line: string): string {
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

/** The text with `tables` put in just before the end marker of our (last) block; null when there is no whole block. */
function intoBlock(text: string, tables: string): string | null {
  const lines = text.split('\n');
  const end = lines.findLastIndex((l) => bare(l) === END);
  const begin = lines.findLastIndex((l, n) => n < end && bare(l) === BEGIN);
  if (begin < 0) return null;
  const previous = bare(lines[end - 1] as string);
  const gap = previous === BEGIN || previous.trim() === '' ? [] : [''];
  lines.splice(end, 0, ...gap, ...tables.split('\n'));
  return lines.join('\n');
}

/**
 * The text without our markers: a block holding nothing goes with the blank lines above it; the
 * markers of one that still holds something of the user's go, and what it holds stays in its place.
 */
function withoutMarkers(text: string): string {
  const lines = text.split('\n');
  const blank = (n: number) => bare(lines[n] as string).trim() === '';
  const out: string[] = [];
  for (let n = 0; n < lines.length; n += 1) {
    const line = bare(lines[n] as string);
    if (line === BEGIN) {
      let m = n + 1;
      while (m < lines.length && blank(m)) m += 1;
      if (bare(lines[m] ?? '') === END) {
        while (out.length > 0 && bare(out.at(-1) as string).trim() === '') out.pop();
        n = m;
        continue;
      }
    }
    if (line !== BEGIN && line !== END) out.push(lines[n] as string);
  }
  const joined = out.join('\n').replace(/(\r?\n)+$/, '');
  return joined === '' ? '' : `${joined}\n`;
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
