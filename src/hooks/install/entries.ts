import type { HookAgent } from '../../../types/hook-agents.js';
import { isOurCommand } from './command.js';
import type { InstallTarget } from './targets.js';

/** One event's change to our entries. */
export type EntryChange = 'added' | 'updated' | 'removed';

/** Our hook entry for one event, in the target's shape. */
export function ourEntry(target: InstallTarget, command: string): Record<string, unknown> {
  if (target.shape === 'grouped') return { hooks: [{ type: 'command', command, ...target.extra }] };
  if (target.shape === 'copilot') return { type: 'command', bash: command };
  return { command, ...target.extra };
}

/** Whether an entry of an event's list is ours (a group only when every hook in it is ours). */
export function isOurEntry(entry: unknown, target: InstallTarget): boolean {
  if (typeof entry !== 'object' || entry === null) return false;
  const e = entry as Record<string, unknown>;
  const agent: HookAgent = target.agent;
  if (target.shape === 'grouped') {
    const hooks = e.hooks;
    return Array.isArray(hooks) && hooks.length > 0 && hooks.every((h) => isOurCommand(h?.command, agent));
  }
  return isOurCommand(target.shape === 'copilot' ? e.bash : e.command, agent);
}

/**
 * The new list of one event: the entries that are not ours, as they were and in their order, then
 * ours when `wanted`. Returns null when nothing changes (so that installing twice writes once).
 */
export function nextList(
  current: readonly unknown[],
  target: InstallTarget,
  wanted: Record<string, unknown> | null,
): { list: unknown[]; change: EntryChange } | null {
  const theirs = current.filter((e) => !isOurEntry(e, target));
  const ours = current.filter((e) => isOurEntry(e, target));
  const list = wanted === null ? theirs : [...theirs, wanted];
  if (JSON.stringify(list) === JSON.stringify(current)) return null;
  if (wanted === null) return ours.length > 0 ? { list, change: 'removed' } : null;
  return { list, change: ours.length > 0 ? 'updated' : 'added' };
}
