import { ClaudeCodeEvent, type HookOutcome } from '../../types/hooks.js';
import { resolveHome } from '../store/paths.js';
import { logOutcome, runAgentHook, type AgentCheckpointKind, type AgentHookOptions } from './agent-hook.js';

/** The Claude Code events we checkpoint, and what each keeps. */
const KINDS: Readonly<Record<string, AgentCheckpointKind>> = {
  SessionStart: 'baseline',
  UserPromptSubmit: 'before-prompt',
  PostToolUse: 'latest',
  Stop: 'latest',
};

/**
 * `hook claude-code`: one event as read from stdin (or why it could not be read) to a checkpoint
 * of its `cwd`. Never throws; the outcome is logged to `<home>/logs/hooks.log`.
 */
export async function runClaudeCodeHook(
  input: string | { unreadable: string },
  opts: AgentHookOptions = {},
): Promise<HookOutcome> {
  const home = opts.settings?.home ?? resolveHome(opts.home);
  const refuse = (status: 'ignored' | 'invalid', message: string, event?: string, session?: string) =>
    logOutcome(
      home,
      {
        agent: 'claude-code',
        ...(event === undefined ? {} : { event }),
        ...(session === undefined ? {} : { session }),
      },
      { status, message },
    );
  if (typeof input !== 'string') return refuse('invalid', input.unreadable);
  if (input.trim() === '') return refuse('ignored', 'no event on stdin (empty input)');
  let raw: unknown;
  try {
    raw = JSON.parse(input);
  } catch (error) {
    return refuse('invalid', `stdin is not a JSON event (${(error as Error).message.slice(0, 200)})`);
  }
  const parsed = ClaudeCodeEvent.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the event';
    return refuse('invalid', `not a Claude Code hook event: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const e = parsed.data;
  const kind = KINDS[e.hook_event_name];
  if (kind === undefined)
    return refuse(
      'ignored',
      `no checkpoint for event ${JSON.stringify(e.hook_event_name)} (only ${Object.keys(KINDS).join(', ')})`,
      e.hook_event_name,
      e.session_id,
    );
  const detail = e.hook_event_name === 'SessionStart' ? e.source : e.tool_name;
  return runAgentHook(
    {
      agent: 'claude-code',
      workspace: e.cwd,
      session: e.session_id,
      event: e.hook_event_name,
      kind,
      ...(detail === undefined ? {} : { detail }),
      ...(kind === 'before-prompt' && e.prompt !== undefined ? { promptText: e.prompt } : {}),
    },
    opts,
  );
}
