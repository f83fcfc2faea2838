import { join, resolve } from 'node:path';
import type { HookOutcome } from '../../types/hooks.js';
import { Checkpoints } from '../checkpoints/index.js';
import { AgentEventArg, AgentHookOptionsArg, LogOutcomeArgs } from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { isAgentgateError } from '../errors.js';
import { resolveSettings, type Settings } from '../store/config.js';
import { saveParsedConfig } from '../store/config-cache.js';
import { chooseHome, layout, resolveHome } from '../store/paths.js';
import { ellipsized } from '../text.js';
import { withinBudget } from './budget.js';
import { appendHookLog } from './log.js';

/**
 * What an agent hook keeps: `baseline` (a session starts or resumes), `before-prompt` (the state
 * just before the session's next prompt, numbered), `latest` (after a tool, at the end of a turn).
 */
export type AgentCheckpointKind = 'baseline' | 'before-prompt' | 'latest';

export interface AgentEvent {
  /** Who sent it, for the log: `claude-code`, `marvin`. */
  agent: string;
  workspace: string;
  session: string;
  /** The agent's own event name, kept on the checkpoint: `UserPromptSubmit`, `turn.start`. */
  event: string;
  kind: AgentCheckpointKind;
  /** The prompt (before-prompt): only a short label of it is kept unless `hooks.recordPrompts` is true. */
  promptText?: string;
  /** A word for the label: the session start's source, the tool's name. */
  detail?: string;
  /**
   * `latest` after a tool: the files the tool says it wrote (absolute, or relative to `workspace`).
   * The change is then the session's for those files only (TrackOptions.touched); absent: all of it.
   */
  touched?: readonly string[];
  /** Added to the outcome's message (and the log): how the event was read, when that needs saying. */
  note?: string;
}

export interface AgentHookOptions {
  /** The settings to use (the CLI's); without them, they are read from `home` and `configFile` as the CLI would. */
  settings?: Settings;
  home?: string;
  configFile?: string;
  /**
   * When (Date.now()) the hook must be done, reading and parsing its event included: the
   * checkpoint gets what is left of hooks.timeoutMs then (the CLI's hook counts from its start).
   */
  deadline?: number;
}

/** A prompt's label keeps this many characters of it (all of it, up to RECORDED_PROMPT_MAX, with recordPrompts). */
const PROMPT_LABEL_CHARS = 60;
const RECORDED_PROMPT_MAX = 10_000;

/**
 * Takes the checkpoint an agent event asks for, within `hooks.timeoutMs`, and logs what happened
 * to `<home>/logs/hooks.log`. Never throws and never prints: every problem is in the outcome
 * (and in the log), so that a hook can never fail or stall its agent.
 */
export async function runAgentHook(event: AgentEvent, opts: AgentHookOptions = {}): Promise<HookOutcome> {
  // Options that do not type-check name no home to log in: the outcome alone says why.
  const refused = badArguments(() => checkArgument(AgentHookOptionsArg, opts, 'opts'));
  if (refused !== null) return refused;
  const home = hookHome(opts);
  if (typeof home !== 'string') return home;
  const badEvent = badArguments(() => checkArgument(AgentEventArg, event, 'event'));
  if (badEvent !== null) return logOutcome(home, { agent: agentOf(event) }, badEvent);
  const named = nameable(event);
  const outcome = await checkpointFor(named, opts).catch(failure);
  if (event.note !== undefined) outcome.message = `${outcome.message}; ${event.note}`;
  await logOutcome(home, named, outcome);
  return outcome;
}

/**
 * Appends an outcome to the hook log (its message then says if the log could not be written); never
 * throws: arguments that do not type-check are an `invalid` outcome, logged nowhere.
 */
export async function logOutcome(
  home: string,
  event: Pick<AgentEvent, 'agent'> & Partial<AgentEvent>,
  outcome: HookOutcome,
): Promise<HookOutcome> {
  const refused = badArguments(() => checkArgument(LogOutcomeArgs, [home, event, outcome], 'logOutcome'));
  if (refused !== null) return refused;
  const where = [event.event, event.session === undefined ? null : `session=${event.session}`]
    .filter((w): w is string => w !== null && w !== undefined)
    .join(' ');
  const problem = await appendHookLog(
    logFile(home),
    `${new Date().toISOString()} ${event.agent}${where ? ` ${where}` : ''} ${outcome.status}: ${outcome.message}`,
  );
  if (problem !== null) outcome.message = `${outcome.message}; ${problem}`;
  return outcome;
}

/**
 * The home a hook logs in (and keeps its checkpoints in), or the `failed` outcome when there is
 * none to be found (HOME empty and no account entry: a container's arbitrary uid), logged nowhere.
 */
export function hookHome(opts: Pick<AgentHookOptions, 'settings' | 'home'>): string | HookOutcome {
  try {
    return opts.settings?.home ?? resolveHome(opts.home);
  } catch (error) {
    return failure(error);
  }
}

/** The `invalid` outcome of a hook's arguments that `check` refuses (checkArgument), or null. */
export function badArguments(check: () => unknown): HookOutcome | null {
  try {
    check();
    return null;
  } catch (error) {
    return { ...failure(error), status: 'invalid', message: `hook not run: ${errorText(error)}` };
  }
}

/**
 * The event with a session id that `--session ID` can name, and texts that any JSON reader takes:
 * a lone surrogate (no argument can hold one; jq refuses its escape) becomes U+FFFD, as does a NUL
 * (no argument can hold one either). Without this, `restore --prompt N --session ID` could never
 * reach such a session.
 */
function nameable(event: AgentEvent): AgentEvent {
  const text = (t: string) => t.toWellFormed().replaceAll('\0', '\uFFFD');
  return {
    ...event,
    session: text(event.session),
    event: text(event.event),
    ...(event.detail === undefined ? {} : { detail: text(event.detail) }),
    ...(event.promptText === undefined ? {} : { promptText: event.promptText.toWellFormed() }),
  };
}

/** Who sent an event that does not type-check, for the log line. */
function agentOf(event: unknown): string {
  const agent = (event as { agent?: unknown } | null | undefined)?.agent;
  return typeof agent === 'string' ? agent : 'unknown';
}

function logFile(home: string): string {
  return join(layout(home).logs, 'hooks.log');
}

async function checkpointFor(event: AgentEvent, opts: AgentHookOptions): Promise<HookOutcome> {
  const chosen = chooseHome(opts.home);
  const settings =
    opts.settings ??
    (await resolveSettings({
      home: chosen.home,
      homeSource: chosen.source,
      ...(opts.configFile === undefined ? {} : { configFile: opts.configFile }),
    }));
  const budget =
    opts.deadline === undefined
      ? settings.hooks.timeoutMs
      : Math.max(1, Math.min(settings.hooks.timeoutMs, opts.deadline - Date.now()));
  const label = labelOf(event, settings.hooks.recordPrompts);
  const run = await withinBudget(budget, async (signal) => {
    const cp = await Checkpoints.open(event.workspace, {
      home: settings.home,
      maxFileSizeBytes: settings.checkpoints.maxFileSizeBytes,
      maxStoreBytes: settings.checkpoints.maxStoreBytes,
      keep: settings.checkpoints.keep,
      excludePaths: [settings.artifactsDir],
      identity: settings.identity,
      gitTimeoutMs: Math.min(settings.gitTimeoutMs, budget),
      lockTimeoutMs: budget,
      signal,
    });
    return cp.track(label, {
      baseline: event.kind === 'baseline',
      beforePrompt: event.kind === 'before-prompt',
      // Another agent's hooks may deliver this prompt too (the Copilot CLI runs Claude Code's).
      ...(event.kind === 'before-prompt'
        ? { delivery: { hook: `${event.agent} ${event.event}`, text: event.promptText ?? '' } }
        : {}),
      session: event.session,
      event: event.event,
      unlessUnchanged: event.kind === 'latest',
      ...(event.touched === undefined || event.kind !== 'latest'
        ? {}
        : { touched: event.touched.map((p) => resolve(event.workspace, p)) }),
    });
  });
  if (!run.done)
    return {
      status: 'skipped',
      message: `checkpoint skipped: not done within hooks.timeoutMs (${budget} ms) in ${event.workspace}; raise hooks.timeoutMs in config.yaml for a very large workspace`,
    };
  const t = run.value;
  if (t.duplicate === true)
    return {
      status: 'ignored',
      message: `prompt ${t.prompt} again, delivered by another hook too: counted and checkpointed once, nothing recorded in ${event.workspace}`,
      ...(t.prompt === undefined ? {} : { prompt: t.prompt }),
    };
  // The next event's hook reads the config without the yaml parser (config-cache.ts).
  await saveParsedConfig();
  const parts = [
    t.unchanged
      ? `unchanged since latest checkpoint ${t.hash.slice(0, 12)}`
      : `${event.kind} checkpoint ${t.hash.slice(0, 12)}`,
    t.prompt === undefined ? null : `prompt ${t.prompt}`,
    event.promptText === undefined ? null : `prompt text ${event.promptText.length} chars`,
    t.skipped.length > 0 ? `${t.skipped.length} files skipped` : null,
    t.upkeepError === undefined ? null : `store upkeep failed (${errorText(t.upkeepError)})`,
  ];
  // A recovered store lost what was damaged: said in the log and (its code set) on stderr.
  const recovered = t.recovered === undefined ? '' : `; STORE_RECOVERED: ${t.recovered}`;
  return {
    status: 'recorded',
    message: `${parts.filter((p) => p !== null).join(', ')} in ${event.workspace}${recovered}`,
    ...(t.recovered === undefined ? {} : { code: 'STORE_RECOVERED' }),
    hash: t.hash,
    ...(t.prompt === undefined ? {} : { prompt: t.prompt }),
  };
}

/** The checkpoint's label: the event, a word of detail, and for a prompt a short label of its text. */
function labelOf(event: AgentEvent, recordPrompts: boolean): string {
  const head = `${event.event}${event.detail ? ` ${event.detail}` : ''}`;
  if (event.promptText === undefined) return head;
  const text = recordPrompts ? event.promptText : collapsed(event.promptText, PROMPT_LABEL_CHARS);
  return `${head}: ${ellipsized(text, recordPrompts ? RECORDED_PROMPT_MAX : PROMPT_LABEL_CHARS)}`;
}

/**
 * The text's words joined by single spaces, only as far as past `max` characters (ellipsized
 * then cuts it): a prompt may be megabytes, of which a label reads the start.
 */
function collapsed(text: string, max: number): string {
  const words: string[] = [];
  let length = 0;
  const word = /\S+/g;
  for (let m = word.exec(text); m !== null && length <= max; m = word.exec(text)) {
    words.push(m[0]);
    length += m[0].length + 1;
  }
  return words.join(' ');
}

function failure(error: unknown): HookOutcome {
  return {
    status: 'failed',
    message: `checkpoint failed: ${errorText(error)}`,
    ...(isAgentgateError(error) ? { code: error.code } : {}),
  };
}

function errorText(error: unknown): string {
  if (isAgentgateError(error)) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}
