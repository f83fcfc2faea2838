import type { HookAgent } from '../../../types/hook-agents.js';
import { AgentConfigInvalidError } from '../../errors.js';
import { isOurCommand } from './command.js';
import type { InstallTarget } from './targets.js';

/** One event's change to our entries. */
export type EntryChange = 'added' | 'updated' | 'removed';

/**
 * One step of an event list's edit, by position in the list as it was: an entry of ours removed,
 * a hook of ours removed from a group, our command set where it stands (`key`: `command`, or
 * Copilot's `bash`; `j`: the hook's place in a group), our entry appended.
 */
export type ListEdit =
  | { op: 'remove'; i: number }
  | { op: 'removeHook'; i: number; j: number }
  | { op: 'setCommand'; i: number; j?: number; key: string; command: string }
  | { op: 'append'; entry: Record<string, unknown> };

/** Our hook entry for one event, in the target's shape. */
export function ourEntry(target: InstallTarget, command: string): Record<string, unknown> {
  if (target.shape === 'grouped') return { hooks: [{ type: 'command', command, ...target.extra }] };
  if (target.shape === 'copilot') return { type: 'command', bash: command };
  return { command, ...target.extra };
}

/** Whether an entry of an event's list is ours (a group only when every hook in it is ours). */
export function isOurEntry(entry: unknown, target: InstallTarget): boolean {
  if (!isRecord(entry)) return false;
  const agent: HookAgent = target.agent;
  if (target.shape === 'grouped') {
    const hooks = entry.hooks;
    return Array.isArray(hooks) && hooks.length > 0 && hooks.every((h) => isOurCommand(h?.command, agent));
  }
  if (target.shape !== 'copilot') return isOurCommand(entry.command, agent);
  // A `powershell` command beside ours is a program of the user's: the entry is theirs.
  return (
    isOurCommand(entry.bash, agent) &&
    (entry.powershell === undefined || isOurCommand(entry.powershell, agent))
  );
}

/**
 * One hook of ours in a list: entry `i` (grouped: its hook `j`), whether its group holds the user's
 * hooks too, and whether the user placed or decorated it (`decorated`: shared, or carrying what
 * install never writes, such as a `matcher` or a `timeout`).
 */
interface Place {
  i: number;
  j?: number;
  shared: boolean;
  decorated: boolean;
  command: unknown;
}

/** Every hook of ours in an event's list, in order. */
function ourPlaces(current: readonly unknown[], target: InstallTarget): Place[] {
  const key = commandKey(target);
  // Decorated: a key our entry (grouped: our hook; our group has only `hooks`) lacks, or holds with
  // another value. A key of ours that is missing (an earlier build's shape) is no decoration.
  const adds = (value: Record<string, unknown>, ours: Record<string, unknown>) =>
    Object.keys(value).some((k) => !Object.hasOwn(ours, k) || canonical(value[k]) !== canonical(ours[k]));
  const ours = (command: unknown) => ourEntry(target, String(command));
  return current.flatMap((entry, i): Place[] => {
    if (!isRecord(entry)) return [];
    if (target.shape !== 'grouped')
      return isOurEntry(entry, target)
        ? [{ i, shared: false, decorated: adds(entry, ours(entry[key])), command: entry[key] }]
        : [];
    if (!Array.isArray(entry.hooks)) return [];
    const shared = !isOurEntry(entry, target);
    const grouping = Object.keys(entry).some((k) => k !== 'hooks');
    return entry.hooks.flatMap((h: unknown, j): Place[] => {
      if (!isRecord(h) || !isOurCommand(h.command, target.agent)) return [];
      const hook = (ours(h.command).hooks as Array<Record<string, unknown>>)[0] as Record<string, unknown>;
      return [{ i, j, shared, decorated: shared || grouping || adds(h, hook), command: h.command }];
    });
  });
}

/**
 * The new list of one event: the user's entries as they were and in their order, and ours at least
 * once when `wanted`. Every place of ours the user decorated (in a group of theirs, under their
 * `matcher`, with their `timeout`) stays where it is with all they added, its command set when it
 * differs: ours under two matchers stays under both. With none, one place of ours as install
 * writes it stays (one that runs the wanted command, else the first). Every other place of ours, a
 * second one as install writes it, is taken out (a group only when nothing kept is in it); with no
 * place, ours is appended. Returns null when nothing changes (installing twice writes once).
 */
export function nextList(
  current: readonly unknown[],
  target: InstallTarget,
  wanted: Record<string, unknown> | null,
): { list: unknown[]; change: EntryChange; edits: ListEdit[] } | null {
  const places = ourPlaces(current, target);
  const command = wanted === null ? null : commandOf(wanted);
  const decorated = places.filter((p) => p.decorated);
  const plain = places.find((p) => p.command === command) ?? places[0];
  const kept = command === null ? [] : decorated.length > 0 ? decorated : plain === undefined ? [] : [plain];
  const edits: ListEdit[] = [];
  for (const place of places) {
    const { i, j } = place;
    if (kept.includes(place)) {
      if (place.command !== command)
        edits.push({
          op: 'setCommand',
          i,
          ...(j === undefined ? {} : { j }),
          key: commandKey(target),
          command: command as string,
        });
    } else if (j === undefined) edits.push({ op: 'remove', i });
    // A group of ours goes whole, unless a hook that stays is in it.
    else if (place.shared || kept.some((k) => k.i === i)) edits.push({ op: 'removeHook', i, j });
    else if (!edits.some((e) => e.op === 'remove' && e.i === i)) edits.push({ op: 'remove', i });
  }
  if (command !== null && kept.length === 0)
    edits.push({ op: 'append', entry: wanted as Record<string, unknown> });
  if (edits.length === 0) return null;
  // From the end of the list backwards (the appended entry last), so that each position still
  // names what it named.
  const rank = (e: ListEdit): [number, number] =>
    e.op === 'append' ? [-1, 0] : [e.i, e.op === 'remove' ? 0 : (e.j ?? 0)];
  edits.sort((a, b) => {
    const [[ai, aj], [bi, bj]] = [rank(a), rank(b)];
    return bi - ai || bj - aj;
  });
  const change: EntryChange = wanted === null ? 'removed' : places.length > 0 ? 'updated' : 'added';
  return { list: applyListEdits(current, edits), change, edits };
}

/** The list after `edits` (in nextList's order); only what an edit touches is copied. */
function applyListEdits(current: readonly unknown[], edits: readonly ListEdit[]): unknown[] {
  const list = [...current];
  for (const edit of edits) {
    if (edit.op === 'append') list.push(edit.entry);
    else if (edit.op === 'remove') list.splice(edit.i, 1);
    else if (edit.op === 'setCommand' && edit.j === undefined)
      list[edit.i] = { ...(list[edit.i] as Record<string, unknown>), [edit.key]: edit.command };
    else {
      const group = list[edit.i] as Record<string, unknown>;
      const hooks = [...(group.hooks as unknown[])];
      const j = edit.j as number;
      if (edit.op === 'removeHook') hooks.splice(j, 1);
      else hooks[j] = { ...(hooks[j] as Record<string, unknown>), [edit.key]: edit.command };
      list[edit.i] = { ...group, hooks };
    }
  }
  return list;
}

/** The key that holds a hook's command line: Copilot's `bash`, every other agent's `command`. */
function commandKey(target: InstallTarget): string {
  return target.shape === 'copilot' ? 'bash' : 'command';
}

/** The command of our entry (grouped: of its one hook). */
function commandOf(entry: Record<string, unknown>): string {
  const hook = Array.isArray(entry.hooks) ? (entry.hooks[0] as Record<string, unknown>) : entry;
  return String(hook.command ?? hook.bash);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** What a value is, for a message: "null", "a list", "a string", ... */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Date) return 'a date';
  if (Array.isArray(value)) return 'a list';
  const type = typeof value === 'bigint' ? 'number' : typeof value;
  return `${type === 'object' || type === 'undefined' ? 'an' : 'a'} ${type}`;
}

/**
 * One text per value, whatever the order of its keys; TOML's integers (read as BigInt, so that a
 * rewrite tells 1 from 1.0) and dates included.
 */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => {
    if (typeof v === 'bigint') return `${v}n`;
    if (isRecord(v))
      return Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, v[k]]),
      );
    return v;
  });
}

/** The error for a config file we cannot merge into, and what to do about it. */
export function configInvalid(target: InstallTarget, why: string): AgentConfigInvalidError {
  return new AgentConfigInvalidError(
    `cannot merge hooks into ${target.file}: ${why}; fix the file (or move it aside) and run the command again`,
    { details: { file: target.file } },
  );
}

/**
 * Every event list of a file's hooks table that changes: the events we install (with `entryOf`) and
 * every list already there (ours taken out on uninstall). A value that is not a list under an event
 * we install is refused; under another event (Codex keeps its trust state in `hooks.state`) it is
 * the user's and kept.
 */
export function changedLists(
  target: InstallTarget,
  hooks: Record<string, unknown>,
  entryOf: ((event: string) => Record<string, unknown>) | null,
): Array<{ event: string; next: NonNullable<ReturnType<typeof nextList>> }> {
  const out = [];
  for (const event of new Set([...(entryOf === null ? [] : target.events), ...Object.keys(hooks)])) {
    const ours = entryOf !== null && target.events.includes(event);
    const current = hooks[event] === undefined ? [] : hooks[event];
    if (!Array.isArray(current)) {
      if (ours) throw configInvalid(target, `"hooks.${event}" is ${describeValue(current)}, not a list`);
      continue;
    }
    const next = nextList(current, target, ours ? entryOf(event) : null);
    if (next !== null) out.push({ event, next });
  }
  return out;
}
