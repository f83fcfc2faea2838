import type { HookAgent } from '../../types/agent-hooks.js';
import type * as z from '../../types/zod.js';
import type { AgentCheckpointKind } from './agent-hook.js';

/**
 * One agent's hook protocol, reduced to the one event model: which of its events keep which
 * checkpoint kind, with which session id, in which workspace, and what its stdout must carry.
 * The checkpoint itself is taken once, for every agent, by event-hook.ts.
 */
export interface HookAdapter {
  agent: HookAgent;
  /** Raw control characters inside JSON strings are escaped before parsing (Windsurf sends them). */
  lenientJson?: boolean;
  /**
   * The agent runs its hooks in the workspace root (Windsurf): an event's `cwd` at or below the
   * hook's own directory counts as that directory, so that a command run in a subdirectory is
   * checkpointed with the rest of the session (in a repository nested in it: that repository's). An
   * unrelated `cwd` still names the workspace.
   */
  hooksRunInRoot?: boolean;
  /**
   * The variable in which the agent gives its hooks the project's root (`CLAUDE_PROJECT_DIR`): an
   * event whose `cwd` lies below it is checkpointed there, so that a directory outside git keeps
   * one store whichever subdirectory a shell event ran in.
   */
  projectDirVariable?: string;
  /**
   * Exactly what stdout carries after the event, whatever happened ('' for nothing): the minimal
   * "carry on" answer where the agent requires one, never an answer that blocks or steers it.
   */
  answer(event: string | undefined): string;
  /** The event (`event` is what `--event NAME` gave) mapped onto a checkpoint, or why not. */
  map(raw: unknown, opts: { event?: string | undefined }): Mapping;
}

export interface MappedEvent {
  /** The agent's own name for the event, kept on the checkpoint. */
  event: string;
  session: string;
  kind: AgentCheckpointKind;
  /** The workspace root the agent names (the first path in Cursor's workspace_roots, in Cline's workspaceRoots). */
  root?: string | undefined;
  /** The directory the event happened in (may be below the workspace root). */
  cwd?: string | undefined;
  promptText?: string | undefined;
  /** A word for the label: the session start's source, the tool's name. */
  detail?: string | undefined;
  /**
   * The files the event's tool says it wrote, as the event names them (absolute, or relative to
   * its `cwd`, else its `root`): only where the agent documents such a field (writtenBy). Absent for
   * a shell or any other tool: the whole change since the last checkpoint is the session's.
   */
  touched?: string[] | undefined;
  /** Something the log should say about how the event was read (an --event the payload overrode). */
  note?: string | undefined;
}

export type Mapping =
  | { mapped: MappedEvent }
  | {
      status: 'ignored' | 'invalid';
      message: string;
      event?: string | undefined;
      session?: string | undefined;
    };

/** The kind an event keeps, or undefined (an own key only: `constructor` is no event). */
export function kindOf(
  kinds: Readonly<Record<string, AgentCheckpointKind>>,
  event: string,
): AgentCheckpointKind | undefined {
  return Object.hasOwn(kinds, event) ? kinds[event] : undefined;
}

/** Parses `raw` with `schema`, or says which field is wrong. */
export function parseEvent<T>(
  schema: z.ZodMiniType<T>,
  raw: unknown,
  what: string,
): { data: T } | { status: 'invalid'; message: string } {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return { data: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue?.path.length ? issue.path.join('.') : 'the event';
  return { status: 'invalid', message: `not a ${what} hook event: ${where}: ${issue?.message ?? 'invalid'}` };
}

/** The refusal for an event that keeps no checkpoint. */
export function noCheckpoint(
  kinds: Readonly<Record<string, AgentCheckpointKind>>,
  event: string,
  session?: string,
): Mapping {
  return {
    status: 'ignored',
    message: `no checkpoint for event ${JSON.stringify(event)} (only ${Object.keys(kinds).join(', ')})`,
    event,
    session,
  };
}

/**
 * The paths a tool event names for the file its tool wrote, when the tool is one of `writers` (its
 * agent's file-writing tools, whose path field is documented); else undefined.
 */
export function writtenBy(
  writers: ReadonlySet<string>,
  tool: string | undefined,
  ...paths: Array<string | undefined>
): string[] | undefined {
  if (tool === undefined || !writers.has(tool)) return undefined;
  const named = paths.filter((p): p is string => p !== undefined && p !== '');
  return named.length > 0 ? named : undefined;
}

/** A patch names at most this many files here: past 100 its step is the session's whole anyway. */
const PATCH_PATHS_READ = 1000;

/**
 * The files an apply_patch envelope (Codex) adds, updates, deletes or moves to, in its order
 * (`*** Update File: <path>`, `*** Move to: <path>`), relative to the event's cwd.
 */
export function patchPaths(patch: string): string[] {
  const out: string[] = [];
  for (const m of patch.matchAll(
    /^\*\*\* (?:Add File|Update File|Delete File|Move to): *(.*\S)[^\S\n]*$/gm,
  )) {
    out.push(m[1] as string);
    if (out.length >= PATCH_PATHS_READ) break;
  }
  return out;
}
