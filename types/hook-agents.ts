/** The agents `hook <agent>` and `hook install` know (no zod here: the CLI lists them at start-up). */
export const HOOK_AGENTS = [
  'claude-code',
  'codex',
  'gemini',
  'cursor',
  'copilot',
  'qwen',
  'cline',
  'windsurf',
] as const;
export type HookAgent = (typeof HOOK_AGENTS)[number];
