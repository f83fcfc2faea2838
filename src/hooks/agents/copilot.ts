import { CopilotEvent } from '../../../types/agent-hooks.js';
import type { AgentCheckpointKind } from '../agent-hook.js';
import { kindOf, noCheckpoint, parseEvent, writtenBy, type HookAdapter } from '../adapter.js';
import { parseCostProblem } from '../json-depth.js';

/** Both of Copilot's dialects: camelCase (as `hook install copilot` writes it) and PascalCase. */
const KINDS: Readonly<Record<string, AgentCheckpointKind>> = {
  sessionStart: 'baseline',
  userPromptSubmitted: 'before-prompt',
  postToolUse: 'latest',
  postToolUseFailure: 'latest',
  agentStop: 'latest',
  SessionStart: 'baseline',
  UserPromptSubmit: 'before-prompt',
  PostToolUse: 'latest',
  PostToolUseFailure: 'latest',
  Stop: 'latest',
};

/** Copilot's tools that name the one file they wrote in `toolArgs.path` (camelCase dialect). */
const FILE_WRITERS: ReadonlySet<string> = new Set(['create', 'edit']);

/**
 * `toolArgs` as an object, or parsed from its JSON text; its `path` when that is a string. A text
 * JSON.parse could not read within the budget (nested too deeply, too many values: up to 10 MB of
 * `[` took seconds, with every timer stopped) names none.
 */
function argsPath(args: string | { path?: string | undefined } | undefined): string | undefined {
  if (typeof args !== 'string') return args?.path;
  if (parseCostProblem(args) !== null) return undefined;
  try {
    const parsed: unknown = JSON.parse(args);
    const path = (parsed as { path?: unknown } | null)?.path;
    return typeof path === 'string' && path.length <= 4096 ? path : undefined;
  } catch {
    return undefined;
  }
}

/** A payload without a session id (older Copilot releases): its prompts are numbered in this one session. */
const NO_SESSION = 'copilot';

/**
 * GitHub Copilot (CLI and cloud agent). Its camelCase payloads do not name their event: the
 * command names it (`hook copilot --event NAME`); a PascalCase payload's own `hook_event_name` wins
 * over --event (the conflict is logged). Stdout stays empty: a preToolUse answer could
 * deny a tool (and we never install a pre-tool hook, which fails closed on a non-zero exit).
 */
export const copilot: HookAdapter = {
  agent: 'copilot',
  answer: () => '',
  map(raw, opts) {
    const p = parseEvent(CopilotEvent, raw, 'Copilot');
    if (!('data' in p)) return p;
    const e = p.data;
    // A payload that names its event (PascalCase) is taken at its word; --event names the others.
    const event = e.hook_event_name ?? opts.event;
    const session = e.sessionId ?? e.session_id ?? NO_SESSION;
    const note =
      opts.event !== undefined && e.hook_event_name !== undefined && opts.event !== e.hook_event_name
        ? `--event ${opts.event} ignored: the payload names its event ${e.hook_event_name}`
        : undefined;
    if (event === undefined)
      return {
        status: 'invalid',
        message:
          'the event does not name itself (camelCase payload): run "hook copilot --event NAME", as "hook install copilot" writes it',
        session,
      };
    const kind = kindOf(KINDS, event);
    if (kind === undefined) return noCheckpoint(KINDS, event, session);
    return {
      mapped: {
        event,
        session,
        kind,
        cwd: e.cwd,
        detail: e.toolName ?? e.tool_name ?? (kind === 'baseline' ? e.source : undefined),
        promptText: kind === 'before-prompt' ? e.prompt : undefined,
        // Only a file-writing tool's arguments are read: any other tool's may be large, and name no file.
        touched:
          e.toolName !== undefined && FILE_WRITERS.has(e.toolName)
            ? writtenBy(FILE_WRITERS, e.toolName, argsPath(e.toolArgs))
            : undefined,
        note,
      },
    };
  },
};
