import * as z from './zod.js';
import { deferred } from './zod.js';

/**
 * One Claude Code hook event as it arrives on stdin. Only the fields we use are declared; every
 * other field (and every field of events we do not know) is ignored. Kept for library users: the
 * hook itself reads `ClaudeStyleEvent` (types/agent-hooks.ts), shared with Codex and Qwen Code.
 */
export const ClaudeCodeEvent = deferred(() =>
  z.object({
    session_id: z.string().check(z.minLength(1), z.maxLength(256)),
    transcript_path: z.optional(z.string()),
    cwd: z.string().check(z.minLength(1)),
    hook_event_name: z.string().check(z.minLength(1), z.maxLength(100)),
    /** SessionStart: `startup`, `resume`, `clear` or `compact`. */
    source: z.optional(z.string().check(z.maxLength(100))),
    /** UserPromptSubmit: the prompt's text. */
    prompt: z.optional(z.string()),
    /** PostToolUse: the tool's name (`Bash`, `Edit`, ...); its input is not kept. */
    tool_name: z.optional(z.string().check(z.maxLength(200))),
    tool_input: z.optional(z.unknown()),
  }),
);
export type ClaudeCodeEvent = z.infer<typeof ClaudeCodeEvent>;

/**
 * What one hook run did: `recorded` a checkpoint; `ignored` an event we do not checkpoint or an
 * empty input; `invalid` input; `skipped` the checkpoint when the time budget ran out; `failed`
 * with an error `code` (a `recorded` one carries `STORE_RECOVERED` when a damaged store was set
 * aside first). A hook never fails its agent whatever the status.
 */
export const HookOutcome = deferred(() =>
  z.object({
    status: z.enum(['recorded', 'ignored', 'invalid', 'skipped', 'failed']),
    /** One line for the log and stderr. */
    message: z.string(),
    code: z.optional(z.string()),
    hash: z.optional(z.string()),
    prompt: z.optional(z.int().check(z.positive())),
  }),
);
export type HookOutcome = z.infer<typeof HookOutcome>;
