export {
  runAgentHook,
  logOutcome,
  type AgentCheckpointKind,
  type AgentEvent,
  type AgentHookOptions,
} from './agent-hook.js';
export { runClaudeCodeHook } from './claude-code.js';
export { runEventHook, type EventHookOptions, type EventHookOutcome } from './event-hook.js';
export { ADAPTERS } from './agents/index.js';
export type { HookAdapter, MappedEvent } from './adapter.js';
export { timerDelay } from './budget.js';
