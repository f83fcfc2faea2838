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
 * A handler never throws (whatever OpenCode passes it), never changes what OpenCode sends or runs,
 * and never takes longer than `hooks.timeoutMs` (default 5 s; the checkpoint is skipped and logged
 * past it). Problems, an event without a session id among them, go to stderr and
 * `<home>/logs/hooks.log`.
 */
import { logOutcome, resolveHome, runAgentHook, type AgentCheckpointKind } from 'agentgate-snapshotter';

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

/** A field of a value that may be anything (OpenCode's payloads are not checked before they reach us). */
function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** A problem, on stderr and in the hook log; never throws. */
async function report(event: string, status: 'invalid' | 'failed', message: string): Promise<void> {
  try {
    console.error(`[agentgate] ${event}: ${status}: ${message}`);
    await logOutcome(resolveHome(), { agent: 'opencode', event }, { status, message });
  } catch {
    // Nothing is left to tell: stderr itself failed.
  }
}

/** The person's own text of a message: its text parts, without the ones OpenCode added. */
function promptOf(output: unknown): string {
  const parts = field(output, 'parts');
  if (!Array.isArray(parts)) return '';
  return parts
    .filter((p) => field(p, 'type') === 'text' && field(p, 'synthetic') !== true)
    .map((p) => field(p, 'text'))
    .filter((t): t is string => typeof t === 'string')
    .join('\n');
}

export async function OpenCodeCheckpoints(input: OpenCodePluginInput): Promise<OpenCodeHooks> {
  const worktree = text(field(input, 'worktree'));
  const workspace =
    worktree && worktree !== '/' ? worktree : (text(field(input, 'directory')) ?? process.cwd());
  const checkpoint = async (
    event: string,
    session: unknown,
    kind: AgentCheckpointKind,
    extra: { detail?: string; promptText?: string } = {},
  ): Promise<void> => {
    if (typeof session !== 'string' || session.length === 0 || session.length > 256)
      return report(event, 'invalid', 'no session id (1 to 256 characters) in the event: no checkpoint');
    const outcome = await runAgentHook({ agent: 'opencode', workspace, session, event, kind, ...extra });
    if (outcome.status !== 'recorded')
      console.error(`[agentgate] ${event}: ${outcome.status}: ${outcome.message}`);
  };
  /** The handler `name` made total: whatever it is given, it resolves. */
  const safely =
    <A extends unknown[]>(name: string, handler: (...args: A) => Promise<void>) =>
    async (...args: A): Promise<void> => {
      try {
        await handler(...args);
      } catch (error) {
        // runAgentHook does not throw; this guards OpenCode against anything unforeseen.
        await report(name, 'failed', error instanceof Error ? error.message : String(error));
      }
    };
  return {
    event: safely('event', async (arg: unknown) => {
      const event = field(arg, 'event');
      const type = field(event, 'type');
      const properties = field(event, 'properties');
      if (type === 'session.created')
        await checkpoint(type, field(field(properties, 'info'), 'id'), 'baseline');
      else if (type === 'session.idle') await checkpoint(type, field(properties, 'sessionID'), 'latest');
    }),
    'chat.message': safely('chat.message', async (message: unknown, output: unknown) => {
      const prompt = promptOf(output);
      await checkpoint(
        'chat.message',
        field(message, 'sessionID'),
        'before-prompt',
        prompt === '' ? {} : { promptText: prompt },
      );
    }),
    'tool.execute.after': safely('tool.execute.after', async (call: unknown) => {
      const tool = field(call, 'tool');
      if (typeof tool === 'string' && CHANGING_TOOLS.has(tool))
        await checkpoint('tool.execute.after', field(call, 'sessionID'), 'latest', { detail: tool });
    }),
  };
}

export default OpenCodeCheckpoints;
