import { HOOK_AGENTS, type HookAgent } from '../../../types/agent-hooks.js';
import type { HookOutcome } from '../../../types/hooks.js';
import { isAgentgateError } from '../../errors.js';
import { ADAPTERS, logOutcome, runEventHook, timerDelay } from '../../hooks/index.js';
import { parseCostProblem } from '../../hooks/json-depth.js';
import { parseLenientJson } from '../../hooks/lenient-json.js';
import { resolveHome } from '../../store/paths.js';
import { printable } from '../output.js';
import { defineCommand, PROGRAM, type Command } from '../spec.js';
import { writeStdout } from '../stdout.js';

/** A larger event is not read (agents' events are far smaller, even with a pasted file). */
const MAX_EVENT_BYTES = 64 * 1024 * 1024;

/** What each agent's events keep, for --help. */
const EVENTS: Readonly<Record<HookAgent, string>> = {
  'claude-code':
    'SessionStart keeps a baseline, UserPromptSubmit the state just before the prompt, PostToolUse and Stop the latest state.',
  codex:
    'SessionStart keeps a baseline, UserPromptSubmit the state just before the prompt, PostToolUse and Stop the latest state (Stop also catches a failed tool, which fires no PostToolUse). The session is session_id (or thread_id).',
  gemini:
    'SessionStart keeps a baseline, BeforeAgent the state just before the prompt, AfterTool and AfterAgent the latest state. Prints {} (Gemini parses stdout as JSON).',
  cursor:
    'sessionStart keeps a baseline, beforeSubmitPrompt the state just before the prompt, afterFileEdit, afterShellExecution, postToolUse and stop the latest state, in the first path of workspace_roots. Prints {"continue":true} for beforeSubmitPrompt and for an event it cannot read, else {}.',
  copilot:
    'sessionStart keeps a baseline, userPromptSubmitted the state just before the prompt, postToolUse, postToolUseFailure and agentStop the latest state. camelCase payloads do not name their event: --event names it.',
  qwen: 'SessionStart keeps a baseline, UserPromptSubmit with submitted_prompt (typed by a person) the state just before the prompt, PostToolUse, PostToolUseFailure, Stop and a continuation the latest state.',
  cline:
    'TaskStart and TaskResume keep a baseline, UserPromptSubmit the state just before the prompt, PostToolUse, TaskComplete and TaskCancel the latest state, in the first path of workspaceRoots. Prints {"cancel": false}.',
  windsurf:
    'pre_user_prompt keeps the state just before the prompt, post_write_code, post_run_command and post_cascade_response the latest state. Raw control characters inside JSON strings are accepted.',
};

/** The agents' own names, for --help. */
const TITLES: Readonly<Record<HookAgent, string>> = {
  'claude-code': 'Claude Code',
  codex: 'OpenAI Codex',
  gemini: 'Gemini CLI',
  cursor: 'Cursor',
  copilot: 'GitHub Copilot',
  qwen: 'Qwen Code',
  cline: 'Cline',
  windsurf: 'Windsurf (Cascade)',
};

const EVENT_OPTION = {
  event: {
    type: 'string',
    valueName: 'NAME',
    description:
      'the event of a payload that does not name it (Copilot camelCase: sessionStart, ...); a payload that names its event keeps it; given twice, the last counts',
  },
} as const;

function agentCommand(agent: HookAgent): Command {
  return defineCommand({
    name: `hook ${agent}`,
    ownsStdio: true,
    summary: `Keep checkpoints from ${TITLES[agent]} hooks: reads one hook event (JSON) on stdin.`,
    description: `${EVENTS[agent]} Prompts are numbered per session ("checkpoint restore --prompt N --session ID"). Always exits 0; stdout carries only what the agent must read to carry on; problems go to stderr and <home>/logs/hooks.log. Within hooks.timeoutMs (default 5000) or the checkpoint is skipped. Installed by "hook install ${agent}".`,
    options: agent === 'copilot' ? EVENT_OPTION : {},
    positionals: { required: [] },
    examples: [
      agent === 'copilot' ? `hook copilot --event postToolUse < event.json` : `hook ${agent} < event.json`,
    ],
    async run(ctx, values) {
      const started = Date.now();
      const budget = ctx.settings.hooks.timeoutMs;
      let answered = false;
      const answer = (text: string) => {
        if (answered) return;
        answered = true;
        if (text !== '') writeStdout(`${text}\n`);
      };
      // The last word on "within hooks.timeoutMs": whatever still runs then (a file system that never
      // answers: Node's recursive mkdir spins for ever under /proc) is left, the agent gets its answer.
      // It is logged too, unless the log cannot be written at once (it may be on that file system).
      const seen: { event?: string; session?: string } = {};
      setTimeout(
        () => {
          const message = `not done within hooks.timeoutMs (${budget} ms)`;
          process.stderr.write(`${PROGRAM} hook: skipped: ${message}\n`);
          answer(ADAPTERS[agent].answer(undefined));
          const exit = () => process.exit(0);
          setTimeout(exit, HARD_STOP_GRACE_MS);
          logOutcome(
            ctx.settings.home,
            { agent, ...seen },
            { status: 'skipped', message: `${message}: left unfinished` },
          ).then(exit, exit);
        },
        timerDelay(budget + HARD_STOP_GRACE_MS),
      ).unref();
      const input = await readEvent(budget, (text) => isWholeEvent(agent, text));
      const given = (values as { event?: unknown }).event;
      const event = typeof given === 'string' ? given : undefined;
      const outcome = await runEventHook(agent, input, {
        settings: ctx.settings,
        // Reading and parsing the event count against the budget too.
        deadline: started + budget,
        event,
        seen,
      });
      report(outcome);
      // Not through process.stdout: making its stream costs more than the few bytes (stdout.ts).
      answer(outcome.answer);
      return { silent: true, exitCode: 0 };
    },
  });
}

/** How long past hooks.timeoutMs a hook may take to log what it did before it is ended regardless. */
const HARD_STOP_GRACE_MS = 100;

/** Problems go to stderr (agents show a hook's stderr to the user, not to the model). */
function report(outcome: HookOutcome): void {
  // A recorded outcome with a code (STORE_RECOVERED) has something to say.
  if ((outcome.status === 'recorded' && outcome.code === undefined) || outcome.status === 'ignored') return;
  process.stderr.write(`${PROGRAM} hook: ${outcome.status}: ${printable(outcome.message)}\n`);
}

/**
 * A pause this long in what arrives on stdin is when the text so far is tried as a whole event:
 * some agents leave stdin open after writing the event (the Copilot CLI for its tool hooks,
 * github/copilot-cli#4034; Claude Code under Git Bash), and waiting for its end would cost every
 * such event the whole budget and its checkpoint.
 */
const PAUSE_MS = 25;

/**
 * The event on stdin, or why there is none: a terminal, too large, neither closed nor `whole`
 * within the budget.
 */
async function readEvent(
  timeoutMs: number,
  whole: (text: string) => boolean,
): Promise<string | { unreadable: string }> {
  const stdin = process.stdin;
  if (stdin.isTTY) return { unreadable: 'stdin is a terminal; a hook reads its event from a pipe' };
  const chunks: Buffer[] = [];
  let size = 0;
  const result = await new Promise<string | { unreadable: string }>((resolve) => {
    let pause: NodeJS.Timeout | undefined;
    const timer = setTimeout(
      () => done({ unreadable: `no complete event on stdin within hooks.timeoutMs (${timeoutMs} ms)` }),
      timerDelay(timeoutMs),
    );
    const done = (value: string | { unreadable: string }) => {
      clearTimeout(timer);
      clearTimeout(pause);
      resolve(value);
    };
    const tryWhole = () => {
      // A text is made of what came only when it ends as an event does: a pause mid-way through a
      // large event costs nothing.
      if (lastByte(chunks) !== CLOSING_BRACE) return;
      const text = Buffer.concat(chunks).toString('utf8');
      if (whole(text)) done(text);
    };
    stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_EVENT_BYTES)
        return done({ unreadable: `the event is larger than ${MAX_EVENT_BYTES} bytes` });
      chunks.push(chunk);
      clearTimeout(pause);
      pause = setTimeout(tryWhole, PAUSE_MS);
    });
    stdin.once('end', () => done(Buffer.concat(chunks).toString('utf8')));
    stdin.once('error', (error: NodeJS.ErrnoException) =>
      done({ unreadable: `could not read stdin (${error.code ?? error.message})` }),
    );
  });
  // Whatever is left unread must not keep the process alive.
  stdin.destroy();
  return result;
}

const CLOSING_BRACE = 0x7d;

/** The last byte of the chunks that is no JSON blank (space, tab, line break), or -1. */
function lastByte(chunks: readonly Buffer[]): number {
  for (let c = chunks.length - 1; c >= 0; c -= 1) {
    const chunk = chunks[c] as Buffer;
    for (let i = chunk.length - 1; i >= 0; i -= 1) {
      const byte = chunk[i] as number;
      if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d) return byte;
    }
  }
  return -1;
}

/**
 * Whether `text` is one whole JSON event (a byte order mark before it, and for Windsurf raw
 * control characters in its strings, allowed): nothing sent after it could make it another.
 */
function isWholeEvent(agent: HookAgent, text: string): boolean {
  const json = text.startsWith('\uFEFF') ? text.slice(1) : text;
  if (!json.trimEnd().endsWith('}')) return false;
  // Too deep or too large to parse in time: whatever follows, the hook refuses it (runEventHook says why).
  if (parseCostProblem(json) !== null) return true;
  try {
    if (ADAPTERS[agent].lenientJson === true) parseLenientJson(json);
    else JSON.parse(json);
    return true;
  } catch {
    return false;
  }
}

/**
 * A hook command that could not even start (a bad option, an invalid config file) still exits 0
 * (Claude Code reads exit status 2 as "block this prompt", Cline any non-zero status) and still
 * prints its agent's carry-on answer. The problem goes to stderr and the log.
 */
export async function hookCommandFailed(
  error: unknown,
  home: string | undefined,
  command: string,
): Promise<number> {
  const agent = HOOK_AGENTS.find((a) => command === `hook ${a}`) ?? 'claude-code';
  const text = isAgentgateError(error)
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
  const message = `hook did not run: ${text}`;
  let outcome: HookOutcome = { status: 'failed', message };
  try {
    outcome = await logOutcome(resolveHome(home), { agent }, outcome);
  } catch {
    // No home at all (HOME empty, no account entry): nowhere to log; stderr still says why.
  }
  process.stderr.write(`${PROGRAM} hook: failed: ${printable(outcome.message)}\n`);
  const answer = ADAPTERS[agent].answer(undefined);
  if (answer !== '') writeStdout(`${answer}\n`);
  return 0;
}

export const HOOK_COMMANDS: Command[] = HOOK_AGENTS.map(agentCommand);
