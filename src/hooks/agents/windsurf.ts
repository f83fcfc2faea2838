import { WindsurfEvent } from '../../../types/agent-hooks.js';
import type { AgentCheckpointKind } from '../agent-hook.js';
import { kindOf, noCheckpoint, parseEvent, type HookAdapter } from '../adapter.js';

/**
 * Windsurf Cascade has no session-start event: a trajectory's first checkpoint of a store is its
 * baseline. The workspace is the directory Windsurf runs the hook in: a hook's `working_directory`
 * defaults to the workspace root (docs.windsurf.com/windsurf/cascade/hooks), and `hook install
 * windsurf` sets none. post_run_command's `tool_info.cwd` is where the command ran: below the
 * root it counts as the root (`hooksRunInRoot`; in a repository nested in the root, that
 * repository), else it names the workspace, as a `cwd` does.
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
  hooksRunInRoot: true,
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
        // Only a command's tool_info names where it ran; the other events' is not the workspace.
        cwd: e.agent_action_name === 'post_run_command' ? e.tool_info?.cwd : undefined,
        promptText: kind === 'before-prompt' ? e.tool_info?.user_prompt : undefined,
        // post_write_code names the file Cascade wrote.
        touched:
          e.agent_action_name === 'post_write_code' && e.tool_info?.file_path !== undefined
            ? [e.tool_info.file_path]
            : undefined,
      },
    };
  },
};
