import { parse, stringify, TomlError } from 'smol-toml';
import { AgentConfigInvalidError } from '../../errors.js';
import { isOurEntry } from './entries.js';
import type { ConfigPlan } from './json-config.js';
import type { InstallTarget } from './targets.js';

/** Our entries in config.toml sit between these lines, so that the rest of the file (comments too) is never rewritten. */
const BEGIN =
  '# >>> agentgate-snapshotter checkpoints (written by "hook install codex"; "hook uninstall codex" removes it) >>>';
const END = '# <<< agentgate-snapshotter checkpoints <<<';

/**
 * Our `[[hooks.<Event>]]` tables merged into (entryOf null: removed from) Codex's config.toml. They
 * are appended as one marked block, which leaves every other line of the file as it was; only when
 * the file's own hooks cannot take them that way (an inline `hooks` table) is the file rewritten
 * through smol-toml, which drops its comments, and the plan says so.
 */
export function planTomlConfig(
  target: InstallTarget,
  before: string | null,
  entryOf: ((event: string) => Record<string, unknown>) | null,
): ConfigPlan {
  const original = before ?? '';
  const beforeValue = parseToml(target, original);
  const rest = withoutBlock(original);
  const restValue = parseToml(target, rest);
  const hooks = (restValue.hooks ?? {}) as Record<string, unknown>;
  const ours: Record<string, unknown[]> = {};
  if (entryOf !== null) for (const event of target.events) ours[event] = [entryOf(event)];
  const hasStray = Object.values(hooks).some((l) => Array.isArray(l) && l.some((e) => isOurEntry(e, target)));
  let text: string;
  const notes: string[] = [];
  if (!hasStray) {
    text = entryOf === null ? rest : appendBlock(rest, stringify({ hooks: ours }));
    if (entryOf !== null && !parses(text)) {
      text = rewritten(restValue, ours, target);
      notes.push(
        `${target.file} was rewritten whole (its "hooks" table is inline): its comments were not kept`,
      );
    }
  } else {
    text = rewritten(restValue, ours, target);
    notes.push(
      `${target.file} was rewritten whole (agentgate hooks outside the marked block): its comments were not kept`,
    );
  }
  const changes = diffOurs(target, beforeValue, parseToml(target, text));
  if (changes.length === 0) return { text: before, changes, notes: [] };
  return { text, changes, notes };
}

/** Every table but ours as it was, then ours, written by smol-toml. */
function rewritten(
  value: Record<string, unknown>,
  ours: Record<string, unknown[]>,
  target: InstallTarget,
): string {
  const hooks = { ...((value.hooks ?? {}) as Record<string, unknown>) };
  for (const event of new Set([...Object.keys(hooks), ...Object.keys(ours)])) {
    // Not an event's list (Codex keeps its trust state in the `hooks.state` table): the user's, kept.
    if (hooks[event] !== undefined && !Array.isArray(hooks[event])) continue;
    const current = (hooks[event] as unknown[] | undefined) ?? [];
    const list = [...current.filter((e) => !isOurEntry(e, target)), ...(ours[event] ?? [])];
    if (list.length > 0) hooks[event] = list;
    else delete hooks[event];
  }
  const next = { ...value, hooks };
  if (Object.keys(hooks).length === 0) delete (next as { hooks?: unknown }).hooks;
  return `${stringify(next)}\n`;
}

/** Per event, whether our entry came, changed or went between two parsed files. */
function diffOurs(
  target: InstallTarget,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): ConfigPlan['changes'] {
  const oursOf = (value: Record<string, unknown>) => {
    const hooks = (value.hooks ?? {}) as Record<string, unknown>;
    const out = new Map<string, string>();
    for (const [event, list] of Object.entries(hooks))
      if (Array.isArray(list)) {
        const mine = list.filter((e) => isOurEntry(e, target));
        if (mine.length > 0) out.set(event, JSON.stringify(mine));
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
  return `${text.slice(0, start).replace(/\n+$/, '\n')}${after}`.replace(/^\n$/, '');
}

function appendBlock(text: string, tables: string): string {
  const head =
    text === '' || text.endsWith('\n\n') ? text : text.endsWith('\n') ? `${text}\n` : `${text}\n\n`;
  return `${head}${BEGIN}\n${tables.trimEnd()}\n${END}\n`;
}

function parses(text: string): boolean {
  try {
    parse(text);
    return true;
  } catch {
    return false;
  }
}

function parseToml(target: InstallTarget, text: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (error) {
    const why =
      error instanceof TomlError ? `line ${error.line}: ${error.message.split('\n')[0]}` : String(error);
    throw new AgentConfigInvalidError(
      `cannot merge hooks into ${target.file}: not valid TOML (${why}); fix the file and run the command again`,
      { details: { file: target.file } },
    );
  }
}
