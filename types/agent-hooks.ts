import * as z from './zod.js';
import { deferred } from './zod.js';

/**
 * The hook events of every agent `hook <agent>` reads, as they arrive on stdin. Only the fields
 * we use are declared (every other field is ignored), each bounded. Only an essential field (the
 * event's name, its session, a required cwd) of another shape refuses the event; an optional one
 * that is null counts as absent, and an informative one (a label's word, a prompt's text, a path
 * that narrows whose change a step is) of another shape reads as absent: the checkpoint is what
 * matters. Sources: shared/AGENT-HOOKS.md and each agent's hook reference (docs/checkpoints.md lists them).
 */

const id = deferred(() => z.string().check(z.minLength(1), z.maxLength(256)));
const name = deferred(() => z.string().check(z.minLength(1), z.maxLength(100)));
const path = deferred(() => z.string().check(z.minLength(1), z.maxLength(4096)));
const word = deferred(() => z.string().check(z.maxLength(200)));
/** Of a workspace's folders, only the first this many are read (the first that is a path is the workspace). */
const ROOTS_READ = 100;
/**
 * A workspace's folders (Cursor's `workspace_roots`, Cline's `workspaceRoots`): an entry that is no
 * path is skipped. A workspace of more folders keeps its first: the list as a whole was refused,
 * and with it every checkpoint of such a workspace.
 */
const roots = deferred(() =>
  z.pipe(
    z.pipe(
      z.array(z.unknown()),
      z.transform((list) => list.slice(0, ROOTS_READ)),
    ),
    z.pipe(
      z.array(z.catch(z.nullable(path), null)),
      z.transform((list) => list.filter((root): root is string => root !== null)),
    ),
  ),
);
/** An optional essential field (a session id, Copilot's event name): null is absent, another shape refused. */
function orNull<T extends z.core.SomeType>(schema: T) {
  return z.pipe(
    z.optional(z.nullable(schema)),
    z.transform((v) => v ?? undefined),
  );
}
/** An informative field: null or any other shape reads as absent rather than refusing the event. */
function loose<T extends z.core.SomeType>(schema: T) {
  return z.catch(z.optional(schema), undefined);
}
/** A tool's input as a text (Codex's apply_patch envelope, Copilot's `toolArgs`): at most 10 MB. */
const text = deferred(() => z.string().check(z.maxLength(10_000_000)));

/**
 * Claude Code and the agents that copied its protocol: Codex (plus `turn_id`; the session may come
 * as `thread_id` or `thread-id`), Qwen Code (plus `submitted_prompt`), Copilot's PascalCase dialect.
 */
export const ClaudeStyleEvent = deferred(() =>
  z.object({
    session_id: orNull(id),
    thread_id: orNull(id),
    'thread-id': orNull(id),
    cwd: path,
    hook_event_name: name,
    /** SessionStart: `startup`, `resume`, `clear` or `compact`. */
    source: loose(word),
    /** UserPromptSubmit: the prompt as the model gets it. */
    prompt: loose(z.string()),
    /** Qwen Code: the text a person typed (absent for continuations after a tool result). */
    submitted_prompt: loose(z.string()),
    tool_name: loose(word),
    /** PostToolUse: the file a Write, Edit, MultiEdit (`file_path`) or NotebookEdit (`notebook_path`) wrote; Codex's apply_patch envelope (`command`). */
    tool_input: loose(z.object({ file_path: loose(path), notebook_path: loose(path), command: loose(text) })),
  }),
);
export type ClaudeStyleEvent = z.infer<typeof ClaudeStyleEvent>;

/** Gemini CLI: `BeforeAgent` carries the prompt; `AfterTool` follows a tool, `AfterAgent` a turn. */
export const GeminiEvent = deferred(() =>
  z.object({
    session_id: id,
    cwd: path,
    hook_event_name: name,
    source: loose(word),
    prompt: loose(z.string()),
    tool_name: loose(word),
    /** AfterTool of write_file and replace: the file they wrote. */
    tool_input: loose(z.object({ file_path: loose(path) })),
  }),
);
export type GeminiEvent = z.infer<typeof GeminiEvent>;

/** Cursor: `conversation_id` is the session, `workspace_roots[0]` the workspace (a shell's `cwd` may be below it). */
export const CursorEvent = deferred(() =>
  z.object({
    hook_event_name: name,
    conversation_id: id,
    workspace_roots: loose(roots),
    cwd: loose(path),
    prompt: loose(z.string()),
    /** afterFileEdit: the file its edit wrote. */
    file_path: loose(path),
    tool_name: loose(word),
    status: loose(word),
  }),
);
export type CursorEvent = z.infer<typeof CursorEvent>;

/**
 * GitHub Copilot (CLI and cloud agent). camelCase dialect: no event name in the payload (the
 * command names it, `--event`); PascalCase dialect: Claude Code's field names.
 */
export const CopilotEvent = deferred(() =>
  z.object({
    sessionId: orNull(id),
    session_id: orNull(id),
    hook_event_name: orNull(name),
    cwd: path,
    toolName: loose(word),
    tool_name: loose(word),
    /** camelCase postToolUse: the tool's arguments, an object or its JSON text (`create`'s `path`). */
    toolArgs: loose(z.union([text, z.object({ path: loose(path) })])),
    prompt: loose(z.string()),
    source: loose(word),
  }),
);
export type CopilotEvent = z.infer<typeof CopilotEvent>;

/** Cline: camelCase, the event in `hookName`, its data under a key named after it. */
export const ClineEvent = deferred(() =>
  z.object({
    hookName: name,
    taskId: id,
    workspaceRoots: loose(roots),
    userPromptSubmit: loose(z.object({ prompt: loose(z.string()) })),
    postToolUse: loose(
      z.object({
        toolName: loose(word),
        /** write_to_file, replace_in_file (the SDK's editor): the file, relative to the workspace root. */
        parameters: loose(z.object({ path: loose(path) })),
      }),
    ),
  }),
);
export type ClineEvent = z.infer<typeof ClineEvent>;

/** Windsurf Cascade: the event in `agent_action_name`, the session in `trajectory_id`, details in `tool_info`. */
export const WindsurfEvent = deferred(() =>
  z.object({
    agent_action_name: name,
    trajectory_id: id,
    /** Of another shape (not an object): absent, as a field of it of another shape is. */
    tool_info: loose(
      z.object({
        /** post_run_command: where the command ran. */
        cwd: loose(path),
        /** post_write_code: the file Cascade wrote. */
        file_path: loose(path),
        user_prompt: loose(z.string()),
      }),
    ),
  }),
);
export type WindsurfEvent = z.infer<typeof WindsurfEvent>;

export { HOOK_AGENTS, type HookAgent } from './hook-agents.js';
