export {
  runAgentHook,
  logOutcome,
  type AgentCheckpointKind,
  type AgentEvent,
  type AgentHookOptions,
} from './agent-hook.js';
export { runClaudeCodeHook } from './claude-code.js';
