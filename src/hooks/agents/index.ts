import type { HookAgent } from '../../../types/agent-hooks.js';
import type { HookAdapter } from '../adapter.js';
import { claudeCode, codex, qwen } from './claude-style.js';
import { cline } from './cline.js';
import { copilot } from './copilot.js';
import { cursor } from './cursor.js';
import { gemini } from './gemini.js';
import { windsurf } from './windsurf.js';

/** Every agent's adapter, by the name `hook <agent>` takes. */
export const ADAPTERS: Readonly<Record<HookAgent, HookAdapter>> = {
  'claude-code': claudeCode,
  codex,
  gemini,
  cursor,
  copilot,
  qwen,
  cline,
  windsurf,
};
