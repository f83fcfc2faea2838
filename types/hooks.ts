import * as z from 'zod';

/**
 * One Claude Code hook event as it arrives on stdin. Only the fields we use are declared; every
 * other field (and every field of events we do not know) is ignored.
 */
export const ClaudeCodeEvent = z.object({
  session_id: z.string().min(1).max(256),
  transcript_path: z.string().optional(),
  cwd: z.string().min(1),
  hook_event_name: z.string().min(1).max(100),
  /** SessionStart: `startup`, `resume`, `clear` or `compact`. */
  source: z.string().max(100).optional(),
  /** UserPromptSubmit: the prompt's text. */
  prompt: z.string().optional(),
  /** PostToolUse: the tool's name (`Bash`, `Edit`, ...); its input is not kept. */
  tool_name: z.string().max(200).optional(),
  tool_input: z.unknown().optional(),
});
export type ClaudeCodeEvent = z.infer<typeof ClaudeCodeEvent>;

/**
 * What one hook run did: `recorded` a checkpoint; `ignored` an event we do not checkpoint or an
 * empty input; `invalid` input; `skipped` the checkpoint when the time budget ran out; `failed`
 * with an error `code`. A hook never fails its agent whatever the status.
 */
export const HookOutcome = z.object({
  status: z.enum(['recorded', 'ignored', 'invalid', 'skipped', 'failed']),
  /** One line for the log and stderr. */
  message: z.string(),
  code: z.string().optional(),
  hash: z.string().optional(),
  prompt: z.number().int().positive().optional(),
});
export type HookOutcome = z.infer<typeof HookOutcome>;
