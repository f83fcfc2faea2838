/**
 * Checkpoints for Marvin (seed 004), built on agentgate-snapshotter: copy this file into
 * `~/.config/marvin/hooks/` in a project that has agentgate-snapshotter installed.
 *
 * - `session.start` and `session.resume`: a baseline checkpoint of the workspace.
 * - `turn.start`: first the state the previous turn left, as this session's own change (Marvin has
 *   no end-of-turn event), then a checkpoint of the state just before the turn, numbered per
 *   session, so that `agentgate-snapshot checkpoint restore --prompt N` undoes turn N and everything
 *   the session did after it, shell-made changes included.
 *
 * Checkpoints live in agentgate's private object store (`<home>/checkpoints/`), never in the
 * project's `.git`, and work outside git too. A handler never throws and never takes longer than
 * `hooks.timeoutMs` (default 5 s; the checkpoint is skipped and logged past it); problems go to
 * stderr and `<home>/logs/hooks.log`.
 */
import { runAgentHook, type AgentCheckpointKind } from 'agentgate-snapshotter';

/** The part of Marvin's hook API this hook uses (apps/coding-agent/src/hooks/types.ts), typed locally. */
export interface MarvinHookContext {
  exec(
    cmd: string,
    args: string[],
    opts?: { timeout?: number },
  ): Promise<{ code: number; stdout: string; stderr: string }>;
  /** Marvin's working directory: the workspace to checkpoint. */
  cwd: string;
  configDir?: string;
}

export interface MarvinHookApi {
  on(event: string, handler: (event: unknown, ctx: MarvinHookContext) => Promise<void> | void): void;
}

const EVENTS: ReadonlyArray<readonly [string, readonly AgentCheckpointKind[]]> = [
  ['session.start', ['baseline']],
  ['session.resume', ['baseline']],
  // What the last turn changed is the session's (restore --prompt puts back only a session's own changes).
  ['turn.start', ['latest', 'before-prompt']],
];

export default function marvinCheckpoints(marvin: MarvinHookApi): void {
  // Marvin's events carry no session id we can rely on: one per load of the hook.
  const session = `marvin-${new Date().toISOString().replace(/[-:.]/g, '')}-${process.pid}`;
  for (const [name, kinds] of EVENTS) {
    marvin.on(name, async (event, ctx) => {
      try {
        for (const kind of kinds) {
          const outcome = await runAgentHook({
            agent: 'marvin',
            workspace: ctx.cwd,
            session: sessionOf(event) ?? session,
            event: name,
            kind,
          });
          if (outcome.status !== 'recorded') {
            console.error(`[agentgate] ${name}: ${outcome.status}: ${outcome.message}`);
            break;
          }
        }
      } catch (error) {
        // runAgentHook does not throw; this guards Marvin against anything unforeseen.
        console.error(`[agentgate] ${name}: ${error instanceof Error ? error.message : String(error)}`);
      }
    });
  }
}

function sessionOf(event: unknown): string | undefined {
  const id = (event as { sessionId?: unknown } | null)?.sessionId;
  return typeof id === 'string' && id.length > 0 && id.length <= 256 ? id : undefined;
}
