import { ClineEvent } from '../../../types/agent-hooks.js';
import type { AgentCheckpointKind } from '../agent-hook.js';
import { kindOf, noCheckpoint, parseEvent, writtenBy, type HookAdapter } from '../adapter.js';

/**
 * Cline: a task is the session. UserPromptSubmit fires for the task's first message too (Cline's
 * own hooks README: "initial task, resume, or feedback"), so TaskStart only keeps the baseline.
 * Both of Cline's hook runners read the same hook files (named TaskStart, PostToolUse...): the VS
 * Code extension sends that file's name as `hookName`, the SDK that the Cline CLI runs on sends its
 * own event name (cline/cline sdk/packages/core/src/hooks/hook-file-config.ts maps one to the other).
 */
const KINDS: Readonly<Record<string, AgentCheckpointKind>> = {
  TaskStart: 'baseline',
  TaskResume: 'baseline',
  UserPromptSubmit: 'before-prompt',
  PostToolUse: 'latest',
  TaskComplete: 'latest',
  TaskCancel: 'latest',
  agent_start: 'baseline',
  agent_resume: 'baseline',
  prompt_submit: 'before-prompt',
  tool_result: 'latest',
  agent_end: 'latest',
  agent_abort: 'latest',
};

/**
 * Cline's tools that name the one file they wrote in `parameters.path` (relative to the workspace
 * root): write_to_file and replace_in_file (the VS Code extension), editor (the SDK).
 */
const FILE_WRITERS: ReadonlySet<string> = new Set(['write_to_file', 'replace_in_file', 'editor']);

/** Cline blocks the action when a hook exits non-zero, prints invalid JSON or times out: it must read this. */
export const CLINE_CARRY_ON = '{"cancel": false}';

export const cline: HookAdapter = {
  agent: 'cline',
  answer: () => CLINE_CARRY_ON,
  map(raw) {
    const p = parseEvent(ClineEvent, raw, 'Cline');
    if (!('data' in p)) return p;
    const e = p.data;
    const kind = kindOf(KINDS, e.hookName);
    if (kind === undefined) return noCheckpoint(KINDS, e.hookName, e.taskId);
    return {
      mapped: {
        event: e.hookName,
        session: e.taskId,
        kind,
        root: e.workspaceRoots?.[0],
        detail: e.postToolUse?.toolName,
        promptText: kind === 'before-prompt' ? e.userPromptSubmit?.prompt : undefined,
        touched: writtenBy(FILE_WRITERS, e.postToolUse?.toolName, e.postToolUse?.parameters?.path),
      },
    };
  },
};
