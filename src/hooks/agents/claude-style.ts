import { ClaudeStyleEvent } from '../../../types/agent-hooks.js';
import type { AgentCheckpointKind } from '../agent-hook.js';
import {
  kindOf,
  noCheckpoint,
  parseEvent,
  patchPaths,
  writtenBy,
  type HookAdapter,
  type Mapping,
} from '../adapter.js';

/**
 * Claude Code and the agents that speak its protocol (Codex, Qwen Code): a baseline on
 * SessionStart, a numbered checkpoint on UserPromptSubmit, the latest state after a tool and at the
 * end of a turn. Their stdout is read as instructions, so it stays empty.
 */
const CLAUDE_KINDS: Readonly<Record<string, AgentCheckpointKind>> = {
  SessionStart: 'baseline',
  UserPromptSubmit: 'before-prompt',
  PostToolUse: 'latest',
  Stop: 'latest',
};

/**
 * The file-writing tools of Claude Code (Write, Edit, MultiEdit: `file_path`; NotebookEdit:
 * `notebook_path`) and Qwen Code (write_file, edit: `file_path`), which name the one file they wrote.
 */
const FILE_WRITERS: ReadonlySet<string> = new Set([
  'Write',
  'Edit',
  'MultiEdit',
  'NotebookEdit',
  'write_file',
  'edit',
]);

function fileWritten(e: ClaudeStyleEvent): string[] | undefined {
  return writtenBy(FILE_WRITERS, e.tool_name, e.tool_input?.file_path, e.tool_input?.notebook_path);
}

/** Codex's apply_patch (`functions.apply_patch` in Codex Desktop): the files its envelope names. */
function patched(e: ClaudeStyleEvent): string[] | undefined {
  const patch = e.tool_input?.command;
  if (patch === undefined || e.tool_name?.replace(/^functions\./, '') !== 'apply_patch') return undefined;
  const paths = patchPaths(patch);
  return paths.length > 0 ? paths : undefined;
}

function claudeStyle(
  e: ClaudeStyleEvent,
  session: string,
  kinds: typeof CLAUDE_KINDS,
  touchedOf: (e: ClaudeStyleEvent) => string[] | undefined = fileWritten,
): Mapping {
  const kind = kindOf(kinds, e.hook_event_name);
  if (kind === undefined) return noCheckpoint(kinds, e.hook_event_name, session);
  return {
    mapped: {
      event: e.hook_event_name,
      session,
      kind,
      cwd: e.cwd,
      detail: e.hook_event_name === 'SessionStart' ? e.source : e.tool_name,
      promptText: kind === 'before-prompt' ? e.prompt : undefined,
      touched: kind === 'latest' ? touchedOf(e) : undefined,
    },
  };
}

function missingSession(what: string): Mapping {
  return { status: 'invalid', message: `not a ${what} hook event: session_id: missing` };
}

export const claudeCode: HookAdapter = {
  agent: 'claude-code',
  projectDirVariable: 'CLAUDE_PROJECT_DIR',
  answer: () => '',
  map(raw) {
    const p = parseEvent(ClaudeStyleEvent, raw, 'Claude Code');
    if (!('data' in p)) return p;
    if (p.data.session_id === undefined) return missingSession('Claude Code');
    return claudeStyle(p.data, p.data.session_id, CLAUDE_KINDS);
  },
};

/**
 * Codex: Claude's events plus `turn_id`. A failed tool fires no PostToolUse, so the turn's Stop is
 * what catches its change (Stop keeps the latest state like PostToolUse does).
 */
export const codex: HookAdapter = {
  agent: 'codex',
  answer: () => '',
  map(raw) {
    const p = parseEvent(ClaudeStyleEvent, raw, 'Codex');
    if (!('data' in p)) return p;
    const session = p.data.session_id ?? p.data.thread_id ?? p.data['thread-id'];
    if (session === undefined) return missingSession('Codex');
    return claudeStyle(p.data, session, CLAUDE_KINDS, patched);
  },
};

const QWEN_KINDS: Readonly<Record<string, AgentCheckpointKind>> = {
  ...CLAUDE_KINDS,
  PostToolUseFailure: 'latest',
};

/**
 * Qwen Code fires UserPromptSubmit also for the continuation after a tool result; only
 * `submitted_prompt` marks text a person typed. Numbering every UserPromptSubmit would number
 * continuations as prompts, so one without it keeps the latest state instead.
 */
export const qwen: HookAdapter = {
  agent: 'qwen',
  projectDirVariable: 'QWEN_PROJECT_DIR',
  answer: () => '',
  map(raw) {
    const p = parseEvent(ClaudeStyleEvent, raw, 'Qwen Code');
    if (!('data' in p)) return p;
    const e = p.data;
    if (e.session_id === undefined) return missingSession('Qwen Code');
    const result = claudeStyle(e, e.session_id, QWEN_KINDS);
    if (!('mapped' in result) || result.mapped.kind !== 'before-prompt') return result;
    if (e.submitted_prompt === undefined)
      return { mapped: { ...result.mapped, kind: 'latest', detail: 'continuation', promptText: undefined } };
    return { mapped: { ...result.mapped, promptText: e.submitted_prompt } };
  },
};
