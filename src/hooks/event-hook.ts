import type { HookAgent } from '../../types/agent-hooks.js';
import type { HookOutcome } from '../../types/hooks.js';
import { dirname, isAbsolute, resolve } from 'node:path';
import { EventHookOptionsArg, HookAgentArg, HookInputArg } from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { isInside } from '../fs/inside.js';
import { firstChars } from '../text.js';
import type { HookAdapter, Mapping } from './adapter.js';
import { badArguments, hookHome, logOutcome, runAgentHook, type AgentHookOptions } from './agent-hook.js';
import { ADAPTERS } from './agents/index.js';
import { parseCostProblem } from './json-depth.js';
import { currentDirectory } from '../fs/current-dir.js';
import { MAX_REPAIRED, parseLenientJson, STRING_KEEP } from './lenient-json.js';
import { hookWorkspace, nativePath, nestedRepository } from './workspace.js';

export interface EventHookOptions extends AgentHookOptions {
  /** The event's name where the payload has none (`--event`, Copilot's camelCase dialect). */
  event?: string | undefined;
  /** Where the hook runs: the workspace of an event that names none (default: process.cwd()). */
  cwd?: string;
  /** The home directory an event's workspace may not be (default: os.homedir()). */
  homeDir?: string;
  /** Where the agent's variables are read (its project directory): default process.env. */
  env?: NodeJS.ProcessEnv;
  /** Filled with the event's name and session once they are read: the last-resort log line names them. */
  seen?: { event?: string; session?: string };
}

/** What one event did, and exactly what the hook prints on stdout for its agent (see HookAdapter.answer). */
export type EventHookOutcome = HookOutcome & { answer: string };

/**
 * `hook <agent>`: one event as read from stdin (or why it could not be read) to the checkpoint its
 * agent's adapter maps it to, in the workspace it names. Never throws; every outcome is logged to
 * `<home>/logs/hooks.log`.
 */
export async function runEventHook(
  agent: HookAgent,
  input: string | { unreadable: string },
  opts: EventHookOptions = {},
): Promise<EventHookOutcome> {
  // Arguments that do not type-check: an `invalid` outcome (logged nowhere: no home was named).
  const noAgent = badArguments(() => checkArgument(HookAgentArg, agent, 'agent'));
  if (noAgent !== null) return { ...noAgent, answer: '' };
  const adapter = ADAPTERS[agent];
  const badOptions = badArguments(() => checkArgument(EventHookOptionsArg, opts, 'opts'));
  if (badOptions !== null) return { ...badOptions, answer: adapter.answer(undefined) };
  const outcome = await checkpointOf(adapter, input, opts);
  return { ...outcome.outcome, answer: adapter.answer(outcome.event) };
}

async function checkpointOf(
  adapter: HookAdapter,
  input: string | { unreadable: string },
  opts: EventHookOptions,
): Promise<{ outcome: HookOutcome; event: string | undefined }> {
  const agent = adapter.agent;
  const home = hookHome(opts);
  if (typeof home !== 'string') return { outcome: home, event: undefined };
  const refuse = async (
    status: 'ignored' | 'invalid',
    message: string,
    event?: string,
    session?: string,
  ) => ({
    event,
    outcome: await logOutcome(
      home,
      {
        agent,
        ...(event === undefined ? {} : { event }),
        ...(session === undefined ? {} : { session }),
      },
      { status, message },
    ),
  });
  const badInput = badArguments(() => checkArgument(HookInputArg, input, 'input'));
  if (badInput !== null) return refuse('invalid', badInput.message, opts.event);
  if (typeof input !== 'string') return refuse('invalid', input.unreadable, opts.event);
  if (input.trim() === '') return refuse('ignored', 'no event on stdin (empty input)', opts.event);
  // A byte order mark (what a Windows shell or editor may put first) is no part of the JSON.
  const json = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const costly = parseCostProblem(json);
  if (costly !== null)
    return refuse('invalid', `stdin is not a JSON event: ${costly}, which no agent's event does`, opts.event);
  let raw: unknown;
  let cut = false;
  try {
    if (adapter.lenientJson === true) ({ value: raw, cut } = parseLenientJson(json));
    else raw = JSON.parse(json);
  } catch (error) {
    return refuse(
      'invalid',
      `stdin is not a JSON event (${firstChars((error as Error).message, 200).text})`,
      opts.event,
    );
  }
  const mapping: Mapping = adapter.map(raw, { event: opts.event });
  const known = 'mapped' in mapping ? mapping.mapped : mapping;
  if (opts.seen !== undefined)
    Object.assign(opts.seen, definedOf({ event: known.event, session: known.session }));
  if (!('mapped' in mapping)) return refuse(mapping.status, mapping.message, mapping.event, mapping.session);
  // A relative workspace root or cwd would be taken from where the hook runs: it counts as none.
  const relative = (path: string | undefined) => path !== undefined && !isAbsolute(nativePath(path));
  const [relativeRoot, relativeCwd] = [relative(mapping.mapped.root), relative(mapping.mapped.cwd)];
  const e = {
    ...mapping.mapped,
    ...(relativeRoot ? { root: undefined } : {}),
    ...(relativeCwd ? { cwd: undefined } : {}),
    ...(cut
      ? {
          note: `a string of the event was cut (to ${STRING_KEEP} characters, or emptied past the first ${MAX_REPAIRED} that needed repair)`,
        }
      : {}),
  };
  // An event that names no workspace is not checkpointed in whatever directory the hook runs in,
  // unless its agent runs hooks in the workspace root (Windsurf).
  if (e.root === undefined && e.cwd === undefined && adapter.hooksRunInRoot !== true)
    return refuse(
      'ignored',
      `no checkpoint: the event names no workspace (no ${relativeRoot ? 'absolute ' : ''}workspace root, no ${relativeCwd ? 'absolute ' : ''}cwd)`,
      e.event,
      e.session,
    );
  // The directory the hook runs in may have been deleted under the agent: an absolute root or cwd still names the workspace.
  const current = opts.cwd ?? currentDirectory();
  if (current === undefined && e.root === undefined && e.cwd === undefined)
    return refuse(
      'ignored',
      'no checkpoint: the event names no workspace, and the directory the hook runs in (its workspace root) no longer exists',
      e.event,
      e.session,
    );
  // Only absolute paths are resolved against it when it is gone (relative ones were dropped above).
  const here = current ?? '/';
  const cwd = e.cwd === undefined ? undefined : resolve(here, nativePath(e.cwd));
  // Relative to the directory the event names (Cline's paths: its workspace root).
  const touched = e.touched?.map((p) => resolve(here, nativePath(e.cwd ?? e.root ?? here), nativePath(p)));
  const where = await hookWorkspace(
    await storeDirOf(adapter, { root: e.root, cwd, touched }, current, opts),
    {
      ...(opts.homeDir === undefined ? {} : { homeDir: opts.homeDir }),
    },
  );
  if ('refused' in where) return refuse('ignored', `no checkpoint: ${where.refused}`, e.event, e.session);
  const outcome = await runAgentHook(
    {
      agent,
      workspace: where.workspace,
      session: e.session,
      event: e.event,
      kind: e.kind,
      ...(e.detail === undefined ? {} : { detail: e.detail }),
      ...(e.promptText === undefined ? {} : { promptText: e.promptText }),
      ...(e.note === undefined ? {} : { note: e.note }),
      ...(touched === undefined ? {} : { touched }),
    },
    opts,
  );
  return { outcome, event: e.event };
}

interface EventPlaces {
  root: string | undefined;
  /** Absolute, as are `touched`. */
  cwd: string | undefined;
  touched: string[] | undefined;
}

/**
 * The directory whose store keeps an event: that of `baseOf`, unless where the event happened lies
 * in a repository nested in it: then that repository, as inside git the repository's top level is
 * the store's workspace for every agent (the outer store skips nested repositories). Where it
 * happened is the one file its tool wrote when that lies in a nested repository (a cwd at the root
 * says no more than the root), else its cwd.
 */
async function storeDirOf(
  adapter: HookAdapter,
  e: EventPlaces,
  here: string | undefined,
  opts: EventHookOptions,
): Promise<string> {
  const base = baseOf(adapter, e, here, opts);
  const file = e.touched?.length === 1 ? (e.touched[0] as string) : undefined;
  const ofFile = file === undefined ? undefined : await nestedRepository(base, dirname(file));
  return ofFile ?? (e.cwd === undefined ? undefined : await nestedRepository(base, e.cwd)) ?? base;
}

/**
 * The workspace root the event names; else the project the agent gives its hooks
 * (`projectDirVariable`) when its cwd lies below it, so that a shell event in a subdirectory
 * outside git joins the project's store; else, for an agent that runs its hooks in the workspace
 * root (Windsurf), that root when the cwd is none or lies below it; else the cwd.
 */
function baseOf(
  adapter: HookAdapter,
  e: EventPlaces,
  here: string | undefined,
  opts: EventHookOptions,
): string {
  // `here` is undefined only when the hook's directory is gone and the root or the cwd is absolute.
  const at = here ?? '/';
  if (e.root !== undefined) return resolve(at, nativePath(e.root));
  const project = adapter.projectDirVariable && (opts.env ?? process.env)[adapter.projectDirVariable];
  if (project && e.cwd !== undefined && isInside(resolve(at, project), e.cwd)) return resolve(at, project);
  if (adapter.hooksRunInRoot === true && here !== undefined && (e.cwd === undefined || isInside(here, e.cwd)))
    return here;
  return e.cwd ?? at;
}

/** The fields that have a value. */
function definedOf(o: { event?: string | undefined; session?: string | undefined }) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
