import type { HookOutcome } from '../../../types/hooks.js';
import { isAgentgateError } from '../../errors.js';
import { logOutcome, runClaudeCodeHook } from '../../hooks/index.js';
import { resolveHome } from '../../store/paths.js';
import { printable } from '../output.js';
import { defineCommand, PROGRAM, type Command } from '../spec.js';

/** A larger event is not read (Claude Code's events are far smaller, even with a pasted file). */
const MAX_EVENT_BYTES = 64 * 1024 * 1024;

const claudeCode = defineCommand({
  name: 'hook claude-code',
  usage: 'hook claude-code',
  summary: 'Keep checkpoints from a Claude Code hook: reads one hook event (JSON) on stdin.',
  description:
    'SessionStart keeps a baseline, UserPromptSubmit the state just before the prompt (numbered per session: "checkpoint restore --prompt N"), PostToolUse and Stop the latest state. Always exits 0 and prints nothing on stdout; problems go to stderr and <home>/logs/hooks.log. Within hooks.timeoutMs (default 5000) or the checkpoint is skipped.',
  options: {},
  positionals: { required: [] },
  examples: ['hook claude-code < event.json'],
  async run(ctx) {
    const started = Date.now();
    const budget = ctx.settings.hooks.timeoutMs;
    const input = await readEvent(budget);
    const left = Math.max(1, budget - (Date.now() - started));
    const outcome = await runClaudeCodeHook(input, {
      settings: { ...ctx.settings, hooks: { ...ctx.settings.hooks, timeoutMs: left } },
    });
    report(outcome);
    return { silent: true, exitCode: 0 };
  },
});

/** Problems go to stderr (Claude Code shows a hook's stderr to the user, never to the model). */
function report(outcome: HookOutcome): void {
  if (outcome.status === 'recorded' || outcome.status === 'ignored') return;
  process.stderr.write(`${PROGRAM} hook: ${outcome.status}: ${printable(outcome.message)}\n`);
}

/** The event on stdin, or why there is none: a terminal, too large, not closed within the budget. */
async function readEvent(timeoutMs: number): Promise<string | { unreadable: string }> {
  const stdin = process.stdin;
  if (stdin.isTTY) return { unreadable: 'stdin is a terminal; a hook reads its event from a pipe' };
  const chunks: Buffer[] = [];
  let size = 0;
  const result = await new Promise<string | { unreadable: string }>((resolve) => {
    const timer = setTimeout(
      () => resolve({ unreadable: `no complete event on stdin within hooks.timeoutMs (${timeoutMs} ms)` }),
      timeoutMs,
    );
    const done = (value: string | { unreadable: string }) => {
      clearTimeout(timer);
      resolve(value);
    };
    stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_EVENT_BYTES) done({ unreadable: `the event is larger than ${MAX_EVENT_BYTES} bytes` });
      else chunks.push(chunk);
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

/**
 * A hook command that could not even start (a bad option, an invalid config file) still exits 0:
 * Claude Code reads exit status 2 as "block this prompt". The problem goes to stderr and the log.
 */
export async function hookCommandFailed(error: unknown, home: string | undefined): Promise<number> {
  const text = isAgentgateError(error)
    ? `${error.code}: ${error.message}`
    : error instanceof Error
      ? error.message
      : String(error);
  const outcome = await logOutcome(
    resolveHome(home),
    { agent: 'claude-code' },
    { status: 'failed', message: `hook did not run: ${text}` },
  );
  process.stderr.write(`${PROGRAM} hook: failed: ${printable(outcome.message)}\n`);
  return 0;
}

export const HOOK_COMMANDS: Command[] = [claudeCode];
