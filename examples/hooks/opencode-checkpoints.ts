/**
 * Checkpoints for OpenCode, built on agentgate-snapshotter: copy this file into
 * `.opencode/plugins/` (one project) or `~/.config/opencode/plugins/` (every project) where
 * agentgate-snapshotter is installed.
 *
 * - `session.created`: a baseline checkpoint of the workspace.
 * - `chat.message` (a person's message): the state just before the prompt, numbered per session,
 *   so that `agentgate-snapshot checkpoint restore --prompt N --session ID` undoes prompt N and
 *   everything after it, shell-made changes included.
 * - `tool.execute.after` for the edit and shell tools, and `session.idle` (the end of a turn,
 *   which also catches what any other tool changed): the latest state.
 *
 * A handler never throws, never changes what OpenCode sends or runs, and never takes longer than
 * `hooks.timeoutMs` (default 5 s; the checkpoint is skipped and logged past it). Problems go to
 * stderr and `<home>/logs/hooks.log`.
 */
import { runAgentHook, type AgentCheckpointKind } from 'agentgate-snapshotter';

/** The part of OpenCode's plugin API (packages/plugin/src/index.ts) this plugin uses, typed locally. */
export interface OpenCodePluginInput {
  /** The directory OpenCode runs in. */
  directory: string;
  /** The project's worktree root (the workspace to checkpoint). */
  worktree?: string;
}

export interface OpenCodeEvent {
  type: string;
  properties?: { sessionID?: unknown; info?: { id?: unknown } };
}

export interface OpenCodeHooks {
  event(input: { event: OpenCodeEvent }): Promise<void>;
  'chat.message'(
    input: { sessionID: string },
    output: { parts?: ReadonlyArray<{ type?: string; text?: string; synthetic?: boolean }> },
  ): Promise<void>;
  'tool.execute.after'(
    input: { tool: string; sessionID: string; callID: string },
    output: unknown,
  ): Promise<void>;
}

/** The tools that change files (OpenCode's own and the names git-ai tracks); others are caught at session.idle. */
const CHANGING_TOOLS = new Set(['edit', 'write', 'patch', 'multiedit', 'apply_patch', 'bash', 'shell']);

export async function OpenCodeCheckpoints(input: OpenCodePluginInput): Promise<OpenCodeHooks> {
  const workspace = input.worktree && input.worktree !== '/' ? input.worktree : input.directory;
  const checkpoint = async (
    event: string,
    session: unknown,
    kind: AgentCheckpointKind,
    extra: { detail?: string; promptText?: string } = {},
  ): Promise<void> => {
    if (typeof session !== 'string' || session.length === 0 || session.length > 256) return;
    try {
      const outcome = await runAgentHook({ agent: 'opencode', workspace, session, event, kind, ...extra });
      if (outcome.status !== 'recorded')
        console.error(`[agentgate] ${event}: ${outcome.status}: ${outcome.message}`);
    } catch (error) {
      // runAgentHook does not throw; this guards OpenCode against anything unforeseen.
      console.error(`[agentgate] ${event}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return {
    async event({ event }) {
      if (event.type === 'session.created')
        await checkpoint(event.type, event.properties?.info?.id, 'baseline');
      else if (event.type === 'session.idle')
        await checkpoint(event.type, event.properties?.sessionID, 'latest');
    },
    async 'chat.message'(message, output) {
      const text = (output.parts ?? [])
        .filter((p) => p.type === 'text' && p.synthetic !== true && typeof p.text === 'string')
        .map((p) => p.text)
        .join('\n');
      await checkpoint(
        'chat.message',
        message.sessionID,
        'before-prompt',
        text === '' ? {} : { promptText: text },
      );
    },
    async 'tool.execute.after'(call) {
      if (CHANGING_TOOLS.has(call.tool))
        await checkpoint('tool.execute.after', call.sessionID, 'latest', { detail: call.tool });
    },
  };
}

export default OpenCodeCheckpoints;
