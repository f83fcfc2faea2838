import { GeminiEvent } from '../../../types/agent-hooks.js';
import type { AgentCheckpointKind } from '../agent-hook.js';
import { kindOf, noCheckpoint, parseEvent, writtenBy, type HookAdapter } from '../adapter.js';

/** Gemini CLI: BeforeAgent carries the prompt; AfterTool follows a tool, AfterAgent a turn. */
const KINDS: Readonly<Record<string, AgentCheckpointKind>> = {
  SessionStart: 'baseline',
  BeforeAgent: 'before-prompt',
  AfterTool: 'latest',
  AfterAgent: 'latest',
};

/** Gemini CLI's tools that name the one file they wrote (`tool_input.file_path`). */
const FILE_WRITERS: ReadonlySet<string> = new Set(['write_file', 'replace']);

/** Gemini parses the stdout of a hook that exits 0 as JSON: `{}` asks for nothing. */
export const gemini: HookAdapter = {
  agent: 'gemini',
  projectDirVariable: 'GEMINI_PROJECT_DIR',
  answer: () => '{}',
  map(raw) {
    const p = parseEvent(GeminiEvent, raw, 'Gemini CLI');
    if (!('data' in p)) return p;
    const e = p.data;
    const kind = kindOf(KINDS, e.hook_event_name);
    if (kind === undefined) return noCheckpoint(KINDS, e.hook_event_name, e.session_id);
    return {
      mapped: {
        event: e.hook_event_name,
        session: e.session_id,
        kind,
        cwd: e.cwd,
        detail: e.hook_event_name === 'SessionStart' ? e.source : e.tool_name,
        promptText: kind === 'before-prompt' ? e.prompt : undefined,
        touched: writtenBy(FILE_WRITERS, e.tool_name, e.tool_input?.file_path),
      },
    };
  },
};
