import type { HookAgent } from '../../../types/hook-agents.js';
import { AgentConfigInvalidError } from '../../errors.js';
import { isOurCommand } from './command.js';
import type { InstallTarget } from './targets.js';

/** One event's change to our entries. */
export type EntryChange = 'added' | 'updated' | 'removed';

/**
 * One step of an event list's edit, by position in the list as it was: an entry of ours removed,
 * a hook of ours removed from (or its command set in) a group that holds the user's hooks too, our
 * entry appended.
 */
export type ListEdit =
  | { op: 'remove'; i: number }
  | { op: 'removeHook'; i: number; j: number }
  | { op: 'setCommand'; i: number; j: number; command: string }
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
  return isOurCommand(target.shape === 'copilot' ? entry.bash : entry.command, agent);
}

/** Our hooks inside the groups that hold a hook of the user's too, as [entry, hook] positions. */
function sharedHooks(current: readonly unknown[], target: InstallTarget): Array<[number, number]> {
  if (target.shape !== 'grouped') return [];
  return current.flatMap((entry, i) => {
    if (!isRecord(entry) || !Array.isArray(entry.hooks) || isOurEntry(entry, target)) return [];
    return entry.hooks.flatMap((h: unknown, j) =>
      isRecord(h) && isOurCommand(h.command, target.agent) ? [[i, j] as [number, number]] : [],
    );
  });
}

/**
 * The new list of one event: the user's entries (and the user's hooks in a group we share) as they
 * were and in their order, and ours once when `wanted`. Ours inside a group of the user's stays
 * where the user put it (its command updated); else an entry of ours that is already `wanted`
 * stays; else ours is appended. Every other place of ours is taken out (a group only when nothing
 * of the user's is in it). Returns null when nothing changes (installing twice writes once).
 */
export function nextList(
  current: readonly unknown[],
  target: InstallTarget,
  wanted: Record<string, unknown> | null,
): { list: unknown[]; change: EntryChange; edits: ListEdit[] } | null {
  const whole = current.flatMap((e, i) => (isOurEntry(e, target) ? [i] : []));
  const shared = sharedHooks(current, target);
  const edits: ListEdit[] = [];
  const removeHook = ([i, j]: [number, number]): ListEdit => ({ op: 'removeHook', i, j });
  if (wanted === null) {
    edits.push(...whole.map((i): ListEdit => ({ op: 'remove', i })), ...shared.map(removeHook));
  } else if (shared.length > 0) {
    const [[i, j], ...others] = shared as [[number, number], ...Array<[number, number]>];
    const command = commandOf(wanted);
    if (hookAt(current, i, j)?.command !== command) edits.push({ op: 'setCommand', i, j, command });
    edits.push(...others.map(removeHook), ...whole.map((k): ListEdit => ({ op: 'remove', i: k })));
  } else {
    const keep = whole.find((i) => sameValue(current[i], wanted));
    edits.push(...whole.filter((i) => i !== keep).map((i): ListEdit => ({ op: 'remove', i })));
    if (keep === undefined) edits.push({ op: 'append', entry: wanted });
  }
  if (edits.length === 0) return null;
  // From the end of the list backwards (the appended entry last), so that each position still
  // names what it named.
  const rank = (e: ListEdit): [number, number] =>
    e.op === 'append' ? [-1, 0] : [e.i, e.op === 'remove' ? 0 : e.j];
  edits.sort((a, b) => {
    const [[ai, aj], [bi, bj]] = [rank(a), rank(b)];
    return bi - ai || bj - aj;
  });
  const change: EntryChange =
    wanted === null ? 'removed' : whole.length + shared.length > 0 ? 'updated' : 'added';
  return { list: applyListEdits(current, edits), change, edits };
}

/** The list after `edits` (in nextList's order); only what an edit touches is copied. */
function applyListEdits(current: readonly unknown[], edits: readonly ListEdit[]): unknown[] {
  const list = [...current];
  for (const edit of edits) {
    if (edit.op === 'append') list.push(edit.entry);
    else if (edit.op === 'remove') list.splice(edit.i, 1);
    else {
      const group = list[edit.i] as Record<string, unknown>;
      const hooks = [...(group.hooks as unknown[])];
      if (edit.op === 'removeHook') hooks.splice(edit.j, 1);
      else hooks[edit.j] = { ...(hooks[edit.j] as Record<string, unknown>), command: edit.command };
      list[edit.i] = { ...group, hooks };
    }
  }
  return list;
}

/** The command of our entry (grouped: of its one hook). */
function commandOf(entry: Record<string, unknown>): string {
  const hook = Array.isArray(entry.hooks) ? (entry.hooks[0] as Record<string, unknown>) : entry;
  return String(hook.command ?? hook.bash);
}

function hookAt(list: readonly unknown[], i: number, j: number): Record<string, unknown> | undefined {
  const hooks = (list[i] as { hooks: unknown[] }).hooks;
  return hooks[j] as Record<string, unknown> | undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

/** What a value is, for a message: "null", "a list", "a string", ... */
export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value instanceof Date) return 'a date';
  return Array.isArray(value) ? 'a list' : `a ${typeof value === 'bigint' ? 'number' : typeof value}`;
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

export function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
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
): Array<{ event: string; current: unknown[]; next: NonNullable<ReturnType<typeof nextList>> }> {
  const out = [];
  for (const event of new Set([...(entryOf === null ? [] : target.events), ...Object.keys(hooks)])) {
    const ours = entryOf !== null && target.events.includes(event);
    const current = hooks[event] === undefined ? [] : hooks[event];
    if (!Array.isArray(current)) {
      if (ours) throw configInvalid(target, `"hooks.${event}" is ${describeValue(current)}, not a list`);
      continue;
    }
    const next = nextList(current, target, ours ? entryOf(event) : null);
    if (next !== null) out.push({ event, current, next });
  }
  return out;
}
