import * as z from './zod.js';
import { deferred } from './zod.js';

/**
 * The hook events of every agent `hook <agent>` reads, as they arrive on stdin. Only the fields
 * we use are declared (every other field is ignored), each bounded, so that a hostile or broken
 * payload is refused before anything reads it. Sources: shared/AGENT-HOOKS.md and each agent's
 * hook reference (docs/checkpoints.md lists them).
 */

const id = deferred(() => z.string().check(z.minLength(1), z.maxLength(256)));
const name = deferred(() => z.string().check(z.minLength(1), z.maxLength(100)));
const path = deferred(() => z.string().check(z.minLength(1), z.maxLength(4096)));
const word = deferred(() => z.string().check(z.maxLength(200)));
/** A workspace's folders (Cursor's `workspace_roots`, Cline's `workspaceRoots`). */
const roots = deferred(() => z.array(path).check(z.maxLength(100)));
/**
 * A field inside a tool's own input: any other shape reads as absent rather than refusing the
 * event (its checkpoint is what matters; the paths only narrow whose change it is).
 */
const loosePath = deferred(() => z.catch(z.optional(path), undefined));
/** A tool's input as a text (Codex's apply_patch envelope, Copilot's `toolArgs`): at most 10 MB. */
const looseText = deferred(() => z.catch(z.optional(z.string().check(z.maxLength(10_000_000))), undefined));

/**
 * Claude Code and the agents that copied its protocol: Codex (plus `turn_id`; the session may come
 * as `thread_id` or `thread-id`), Qwen Code (plus `submitted_prompt`), Copilot's PascalCase dialect.
 */
export const ClaudeStyleEvent = deferred(() =>
  z.object({
    session_id: z.optional(id),
    thread_id: z.optional(id),
    'thread-id': z.optional(id),
    cwd: path,
    hook_event_name: name,
    /** SessionStart: `startup`, `resume`, `clear` or `compact`. */
    source: z.optional(word),
    /** UserPromptSubmit: the prompt as the model gets it. */
    prompt: z.optional(z.string()),
    /** Qwen Code: the text a person typed (absent for continuations after a tool result). */
    submitted_prompt: z.optional(z.string()),
    tool_name: z.optional(word),
    /** PostToolUse: the file a Write, Edit, MultiEdit (`file_path`) or NotebookEdit (`notebook_path`) wrote; Codex's apply_patch envelope (`command`). */
    tool_input: z.catch(
      z.optional(z.object({ file_path: loosePath, notebook_path: loosePath, command: looseText })),
      undefined,
    ),
  }),
);
export type ClaudeStyleEvent = z.infer<typeof ClaudeStyleEvent>;

/** Gemini CLI: `BeforeAgent` carries the prompt; `AfterTool` follows a tool, `AfterAgent` a turn. */
export const GeminiEvent = deferred(() =>
  z.object({
    session_id: id,
    cwd: path,
    hook_event_name: name,
    source: z.optional(word),
    prompt: z.optional(z.string()),
    tool_name: z.optional(word),
    /** AfterTool of write_file and replace: the file they wrote. */
    tool_input: z.catch(z.optional(z.object({ file_path: loosePath })), undefined),
  }),
);
export type GeminiEvent = z.infer<typeof GeminiEvent>;

/** Cursor: `conversation_id` is the session, `workspace_roots[0]` the workspace (a shell's `cwd` may be below it). */
export const CursorEvent = deferred(() =>
  z.object({
    hook_event_name: name,
    conversation_id: id,
    generation_id: z.optional(word),
    workspace_roots: z.optional(roots),
    cwd: z.optional(path),
    prompt: z.optional(z.string()),
    /** afterFileEdit: the file its edit wrote. */
    file_path: loosePath,
    tool_name: z.optional(word),
    status: z.optional(word),
  }),
);
export type CursorEvent = z.infer<typeof CursorEvent>;

/**
 * GitHub Copilot (CLI and cloud agent). camelCase dialect: no event name in the payload (the
 * command names it, `--event`); PascalCase dialect: Claude Code's field names.
 */
export const CopilotEvent = deferred(() =>
  z.object({
    sessionId: z.optional(id),
    session_id: z.optional(id),
    hook_event_name: z.optional(name),
    cwd: path,
    toolName: z.optional(word),
    tool_name: z.optional(word),
    /** camelCase postToolUse: the tool's arguments, an object or its JSON text (`create`'s `path`). */
    toolArgs: z.catch(
      z.optional(z.union([z.string().check(z.maxLength(10_000_000)), z.object({ path: loosePath })])),
      undefined,
    ),
    prompt: z.optional(z.string()),
    source: z.optional(word),
  }),
);
export type CopilotEvent = z.infer<typeof CopilotEvent>;

/** Cline: camelCase, the event in `hookName`, its data under a key named after it. */
export const ClineEvent = deferred(() =>
  z.object({
    hookName: name,
    taskId: id,
    workspaceRoots: z.optional(roots),
    userPromptSubmit: z.optional(z.object({ prompt: z.optional(z.string()) })),
    postToolUse: z.optional(
      z.object({
        toolName: z.optional(word),
        success: z.optional(z.boolean()),
        /** write_to_file, replace_in_file (the SDK's editor): the file, relative to the workspace root. */
        parameters: z.catch(z.optional(z.object({ path: loosePath })), undefined),
      }),
    ),
    taskStart: z.optional(
      z.object({ taskMetadata: z.optional(z.object({ initialTask: z.optional(z.string()) })) }),
    ),
  }),
);
export type ClineEvent = z.infer<typeof ClineEvent>;

/** Windsurf Cascade: the event in `agent_action_name`, the session in `trajectory_id`, details in `tool_info`. */
export const WindsurfEvent = deferred(() =>
  z.object({
    agent_action_name: name,
    trajectory_id: id,
    execution_id: z.optional(word),
    /** Of another shape (not an object): absent, as a field of it of another shape is. */
    tool_info: z.catch(
      z.optional(
        z.object({
          /** post_run_command: where the command ran. */
          cwd: loosePath,
          /** post_write_code: the file Cascade wrote. */
          file_path: loosePath,
          command_line: looseText,
          user_prompt: z.catch(z.optional(z.string()), undefined),
        }),
      ),
      undefined,
    ),
  }),
);
export type WindsurfEvent = z.infer<typeof WindsurfEvent>;

export { HOOK_AGENTS, type HookAgent } from './hook-agents.js';
