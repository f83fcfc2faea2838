import type { HookAgent } from '../../types/agent-hooks.js';
import type { HookOutcome } from '../../types/hooks.js';
import { isAbsolute, resolve } from 'node:path';
import { EventHookOptionsArg, HookAgentArg, HookInputArg } from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { isInside } from '../fs/inside.js';
import { resolveHome } from '../store/paths.js';
import { firstChars } from '../text.js';
import type { HookAdapter, Mapping } from './adapter.js';
import { badArguments, logOutcome, runAgentHook, type AgentHookOptions } from './agent-hook.js';
import { ADAPTERS } from './agents/index.js';
import { MAX_REPAIRED, parseLenientJson, STRING_KEEP } from './lenient-json.js';
import { hookWorkspace, inNestedRepository, nativePath } from './workspace.js';

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
  const home = opts.settings?.home ?? resolveHome(opts.home);
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
  let raw: unknown;
  let cut = false;
  try {
    if (adapter.lenientJson === true) ({ value: raw, cut } = parseLenientJson(input));
    else raw = JSON.parse(input);
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
  const here = opts.cwd ?? process.cwd();
  const cwd =
    adapter.hooksRunInRoot === true && e.cwd !== undefined && isInside(here, resolve(here, e.cwd))
      ? here
      : e.cwd;
  // An event that names no workspace is not checkpointed in whatever directory the hook runs in,
  // unless its agent runs hooks in the workspace root (Windsurf).
  if (e.root === undefined && cwd === undefined && adapter.hooksRunInRoot !== true)
    return refuse(
      'ignored',
      `no checkpoint: the event names no workspace (no ${relativeRoot ? 'absolute ' : ''}workspace root, no ${relativeCwd ? 'absolute ' : ''}cwd)`,
      e.event,
      e.session,
    );
  const named = e.root ?? cwd ?? here;
  const where = await hookWorkspace(await workspaceOf(adapter, e.root === undefined, named, here, opts), {
    ...(opts.homeDir === undefined ? {} : { homeDir: opts.homeDir }),
  });
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
      // Relative to the directory the event names (Cline's paths: its workspace root).
      ...(e.touched === undefined
        ? {}
        : { touched: e.touched.map((p) => resolve(here, nativePath(cwd ?? e.root ?? here), nativePath(p))) }),
    },
    opts,
  );
  return { outcome, event: e.event };
}

/**
 * The directory whose store keeps an event that names `named` (its cwd, unless `ownRoot`): the
 * project the agent gives its hooks (`projectDirVariable`) when `named` lies below it, so that a
 * shell event in a subdirectory outside git joins the project's store; but a directory in a
 * repository nested in the project is its own, as inside git the repository's top level is the
 * store's workspace for every agent.
 */
async function workspaceOf(
  adapter: HookAdapter,
  cwdNamed: boolean,
  named: string,
  here: string,
  opts: EventHookOptions,
): Promise<string> {
  const project = adapter.projectDirVariable && (opts.env ?? process.env)[adapter.projectDirVariable];
  if (!cwdNamed || !project) return named;
  const [top, dir] = [resolve(project), resolve(here, named)];
  return isInside(top, dir) && !(await inNestedRepository(top, dir)) ? project : named;
}

/** The fields that have a value. */
function definedOf(o: { event?: string | undefined; session?: string | undefined }) {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined));
}
