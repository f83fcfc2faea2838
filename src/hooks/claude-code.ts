import type { HookOutcome } from '../../types/hooks.js';
import type { AgentHookOptions } from './agent-hook.js';
import { runEventHook } from './event-hook.js';

/**
 * `hook claude-code`: one event as read from stdin (or why it could not be read) to a checkpoint
 * of its `cwd` (the Claude Code adapter of runEventHook). Never throws; the outcome is logged to
 * `<home>/logs/hooks.log`.
 */
export function runClaudeCodeHook(
  input: string | { unreadable: string },
  opts: AgentHookOptions = {},
): Promise<HookOutcome> {
  return runEventHook('claude-code', input, opts);
}
