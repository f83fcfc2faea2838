import { CursorEvent } from '../../../types/agent-hooks.js';
import type { AgentCheckpointKind } from '../agent-hook.js';
import { kindOf, noCheckpoint, parseEvent, type HookAdapter } from '../adapter.js';

/** Cursor: afterFileEdit for its edit tools, afterShellExecution for its shell, postToolUse for any tool. */
const KINDS: Readonly<Record<string, AgentCheckpointKind>> = {
  sessionStart: 'baseline',
  beforeSubmitPrompt: 'before-prompt',
  afterFileEdit: 'latest',
  afterShellExecution: 'latest',
  postToolUse: 'latest',
  postToolUseFailure: 'latest',
  stop: 'latest',
};

/**
 * Cursor reads JSON from every hook; beforeSubmitPrompt's `continue` lets the prompt through, and
 * `{}` asks for nothing (no permission decision, no follow-up message). An event we could not read
 * might be a prompt: it gets `continue` too, which lets anything through.
 */
export const cursor: HookAdapter = {
  agent: 'cursor',
  answer: (event) => (event === 'beforeSubmitPrompt' || event === undefined ? '{"continue":true}' : '{}'),
  map(raw) {
    const p = parseEvent(CursorEvent, raw, 'Cursor');
    if (!('data' in p)) return p;
    const e = p.data;
    const kind = kindOf(KINDS, e.hook_event_name);
    if (kind === undefined) return noCheckpoint(KINDS, e.hook_event_name, e.conversation_id);
    return {
      mapped: {
        event: e.hook_event_name,
        session: e.conversation_id,
        kind,
        root: e.workspace_roots?.[0],
        cwd: e.cwd,
        detail: e.tool_name ?? (e.hook_event_name === 'stop' ? e.status : undefined),
        promptText: kind === 'before-prompt' ? e.prompt : undefined,
        // afterFileEdit names the file its edit wrote.
        touched:
          e.hook_event_name === 'afterFileEdit' && e.file_path !== undefined ? [e.file_path] : undefined,
      },
    };
  },
};
