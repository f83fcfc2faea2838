import { WindsurfEvent } from '../../../types/agent-hooks.js';
import type { AgentCheckpointKind } from '../agent-hook.js';
import { kindOf, noCheckpoint, parseEvent, type HookAdapter } from '../adapter.js';

/**
 * Windsurf Cascade has no session-start event: a trajectory's first checkpoint of a store is its
 * baseline. Only post_run_command names a directory; otherwise the workspace is the directory
 * Windsurf runs the hook in.
 */
const KINDS: Readonly<Record<string, AgentCheckpointKind>> = {
  pre_user_prompt: 'before-prompt',
  post_write_code: 'latest',
  post_run_command: 'latest',
  post_cascade_response: 'latest',
};

export const windsurf: HookAdapter = {
  agent: 'windsurf',
  lenientJson: true,
  answer: () => '',
  map(raw) {
    const p = parseEvent(WindsurfEvent, raw, 'Windsurf');
    if (!('data' in p)) return p;
    const e = p.data;
    const kind = kindOf(KINDS, e.agent_action_name);
    if (kind === undefined) return noCheckpoint(KINDS, e.agent_action_name, e.trajectory_id);
    return {
      mapped: {
        event: e.agent_action_name,
        session: e.trajectory_id,
        kind,
        cwd: e.tool_info?.cwd,
        promptText: kind === 'before-prompt' ? e.tool_info?.user_prompt : undefined,
      },
    };
  },
};
