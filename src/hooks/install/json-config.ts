import { applyEdits, modify, parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { AgentConfigInvalidError } from '../../errors.js';
import { nextList, type EntryChange } from './entries.js';
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
  const hooks = root.hooks ?? {};
  if (typeof hooks !== 'object' || hooks === null || Array.isArray(hooks))
    throw invalid(target, '"hooks" is not an object');
  const table = hooks as Record<string, unknown>;
  const changes: ConfigPlan['changes'] = [];
  const events = new Set([...(entryOf === null ? [] : target.events), ...Object.keys(table)]);
  for (const event of events) {
    const current = table[event] ?? [];
    if (!Array.isArray(current)) {
      if (entryOf !== null && target.events.includes(event))
        throw invalid(target, `"hooks.${event}" is not a list`);
      continue;
    }
    const wanted = entryOf !== null && target.events.includes(event) ? entryOf(event) : null;
    const next = nextList(current, target, wanted);
    if (next === null) continue;
    changes.push({ event, change: next.change });
    const value = next.list.length === 0 ? undefined : next.list;
    text = applyEdits(text, modify(text, ['hooks', event], value, FORMAT));
  }
  if (changes.length === 0) return { text: before, changes, notes: [] };
  if (entryOf !== null)
    for (const [key, value] of Object.entries(target.root ?? {}))
      if (root[key] === undefined) text = applyEdits(text, modify(text, [key], value, FORMAT));
  if (entryOf === null && Object.keys(parseConfig(target, text).hooks ?? {}).length === 0)
    text = applyEdits(text, modify(text, ['hooks'], undefined, FORMAT));
  // Our own file (Copilot's agentgate.json) with nothing but what we wrote goes away on uninstall.
  if (entryOf === null && target.shape === 'copilot' && onlyOurRoot(target, parseConfig(target, text)))
    return { text: null, changes, notes: [] };
  return { text: text.endsWith('\n') ? text : `${text}\n`, changes, notes: [] };
}

function onlyOurRoot(target: InstallTarget, root: Record<string, unknown>): boolean {
  return Object.keys(root).every((k) => Object.hasOwn(target.root ?? {}, k));
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
    throw invalid(target, `${printParseErrorCode(first.error)} at line ${line}`);
  }
  if (value === undefined) return {};
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(target, 'the file is not a JSON object');
  return value as Record<string, unknown>;
}

function invalid(target: InstallTarget, why: string): AgentConfigInvalidError {
  return new AgentConfigInvalidError(
    `cannot merge hooks into ${target.file}: ${why}; fix the file (or move it aside) and run the command again`,
    { details: { file: target.file } },
  );
}
