/**
 * The CLI's entry point: find the command, load only its module, parse its options, run it, print
 * its result and map every failure to a code. Kept light (no library import at the top): in the
 * bundle (scripts/bundle.mjs), a module's top-level code runs only when a command imports it.
 */
import { createReadStream } from 'node:fs';
import { isAgentgateError, UsageError } from '../errors.js';
import { COMMAND_GROUPS } from './groups.js';
import { COMMAND_NAMES, loadAllCommands, loadCommand } from './commands/index.js';
import { asideLines, errorJson, isClosedPipe, noWorkflowCommands, printable, useColour } from './output.js';
import {
  commandHelp,
  GLOBAL_OPTIONS,
  optionLines,
  parseCommandLine,
  PROGRAM,
  type Command,
  type CommandResult,
  type GlobalValues,
} from './spec.js';
import { listenWhenStdoutIsMade, writeStdout } from './stdout.js';
import { nearestName } from './suggest.js';
import { packageVersion } from './version.js';
import { jsonText } from '../text.js';

async function main(argv: string[]): Promise<number> {
  // Only an option before `--`: after it, `--json` is a path (checkpoint revert HASH -- --json).
  const options = argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv;
  const json = options.includes('--json');
  const { words, rest } = findCommand(argv);
  const name = words.join(' ');
  const agentHook = words[0] === 'hook' && COMMAND_NAMES.includes(name) && !HOOK_SETUP.includes(name);
  // A hook's agent reads a non-zero exit as "block" or "cancel": a failed answer is no failure.
  listenWhenStdoutIsMade(!agentHook);
  try {
    if (words.length === 0 || (COMMAND_GROUPS.includes(name) && !COMMAND_NAMES.includes(name)))
      return await withoutCommand(name, options, argv.length === 0, json);
    if (!COMMAND_NAMES.includes(name)) {
      const nearest = nearestName(name, COMMAND_NAMES);
      const hint = nearest === null ? '' : `did you mean "${nearest}"? `;
      throw new UsageError(`unknown command "${name}"; ${hint}run "${PROGRAM} --help" for the list`, {
        details: { command: name, ...(nearest === null ? {} : { suggestion: nearest }) },
      });
    }
    const command = (await loadCommand(name)) as Command;
    const { values, positionals } = parseCommandLine(command, rest);
    if (values.version === true) return printVersion(json);
    if (values.help === true) return printHelp(commandHelp(command), json);
    const { Context } = await import('./context.js');
    const ctx = await Context.create(values as GlobalValues, { cwdMayBeGone: agentHook });
    const result = await command.run(ctx, values, positionals);
    await emit(result, json);
    return 'exitCode' in result ? (result.exitCode ?? 0) : 0;
  } catch (error) {
    // A hook never fails its agent, not even with a bad option or config file.
    if (agentHook)
      return (await import('./commands/hook.js')).hookCommandFailed(
        error,
        optionValue(options, '--home'),
        name,
      );
    return fail(error, json);
  }
}

/** The hook commands a person runs (they fail like any command); every other `hook` command is an agent's hook. */
const HOOK_SETUP = ['hook install', 'hook uninstall'];

/** The value of `--home DIR` or `--home=DIR` as typed, before parsing (which may have failed). */
function optionValue(options: string[], flag: string): string | undefined {
  const at = options.findIndex((o) => o === flag || o.startsWith(`${flag}=`));
  if (at < 0) return undefined;
  const option = options[at] as string;
  return option.includes('=') ? option.slice(flag.length + 1) : options[at + 1];
}

/**
 * The command words: the first word that is not an option or an option's value, and a second one
 * after a group word (`checkpoint`). An option the global set does not know belongs to a command
 * and may come first (`--run R before`): it takes the next word unless that word is a command
 * (after a group word: one of the group's subcommands, so `gate --name verify` names a gate).
 */
function findCommand(argv: string[]): { words: string[]; rest: string[] } {
  const picked: number[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    const group = picked.length === 1 ? (argv[picked[0] as number] as string) : null;
    if (arg.startsWith('-') && arg !== '-') {
      if (takesNext(arg, argv[i + 1], group)) i++;
      continue;
    }
    picked.push(i);
    if (picked.length === 2 || !COMMAND_GROUPS.includes(arg)) break;
  }
  return { words: picked.map((i) => argv[i] as string), rest: argv.filter((_, i) => !picked.includes(i)) };
}

function takesNext(arg: string, next: string | undefined, group: string | null): boolean {
  if (arg.includes('=') || next === undefined || next.startsWith('-')) return false;
  const global = Object.entries(GLOBAL_OPTIONS).find(
    ([name, d]) => arg === `--${name}` || ('short' in d && arg === `-${d.short}`),
  );
  if (global) return global[1].type === 'string';
  if (/^-[^-]./.test(arg)) return false; // -xVALUE
  if (group !== null) return !COMMAND_NAMES.includes(`${group} ${next}`);
  return !COMMAND_NAMES.some((c) => c.split(' ')[0] === next);
}

/** No command, or a group word alone: the version, the help (exit 0 when asked for), or a usage error. */
async function withoutCommand(
  group: string,
  options: string[],
  noArguments: boolean,
  json: boolean,
): Promise<number> {
  if (options.includes('--version') || options.includes('-V')) return printVersion(json);
  const asked = options.includes('--help') || options.includes('-h');
  const help = await programHelp(group);
  if (asked) return printHelp(help, json);
  if (!json) process.stderr.write(`${noWorkflowCommands(help)}\n\n`);
  const what = group === '' ? 'no command given' : `"${group}" needs a subcommand`;
  throw new UsageError(`${what}; run "${PROGRAM} ${group === '' ? '' : `${group} `}--help" for the list`, {
    details: { noArguments },
  });
}

async function programHelp(group: string): Promise<string> {
  const all = await loadAllCommands();
  const listed = group === '' ? all : all.filter((c) => c.name.startsWith(`${group} `));
  const width = Math.max(...listed.map((c) => c.name.length));
  const lines = listed.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    `Usage: ${PROGRAM} ${group === '' ? '<command>' : `${group} <subcommand>`} [options]`,
    `${group === '' ? 'Commands' : `${group[0]?.toUpperCase()}${group.slice(1)} subcommands`}:\n${lines.join('\n')}`,
    `Global options:\n${optionLines(GLOBAL_OPTIONS)}`,
    `Run "${PROGRAM} <command> --help" for a command's options and an example.`,
  ].join('\n\n');
}

/** With --json, stdout is one JSON document here too: `{ "help": TEXT }`. */
function printHelp(text: string, json: boolean): number {
  writeStdout(json ? `${jsonText({ help: text })}\n` : `${noWorkflowCommands(text)}\n`);
  return 0;
}

/** `0.1.0`, or `{ "version": "0.1.0" }` with --json. */
function printVersion(json: boolean): number {
  writeStdout(json ? `${JSON.stringify({ version: packageVersion() })}\n` : `${packageVersion()}\n`);
  return 0;
}

async function emit(result: CommandResult, json: boolean): Promise<void> {
  if ('silent' in result) return;
  if ('streamFile' in result || 'streamJson' in result) {
    try {
      // Loaded here: node:stream is some twenty of Node's modules that `--version` never needs.
      if ('streamFile' in result) {
        const { pipeline } = await import('node:stream/promises');
        await pipeline(createReadStream(result.streamFile), process.stdout, { end: false });
      } else await (await import('./json-stream.js')).writeStreamedJson(result.streamJson, process.stdout);
    } catch (error) {
      if (!isClosedPipe(error)) throw error;
    } finally {
      await result.cleanup?.();
    }
    return;
  }
  // JSON escapes every line break, so only the text for people can hold a line CI would obey.
  // node:tty is loaded for people only: it brings node:net and the streams (stdout.ts).
  const text = json
    ? jsonText(result.json, 2)
    : noWorkflowCommands(result.human(useColour((await import('node:tty')).isatty(1))));
  if (text.length > 0) writeStdout(`${text}\n`);
  const aside = asideLines(result, json);
  if (aside.stderr.length > 0) process.stderr.write(`${aside.stderr.join('\n')}\n`);
  if (aside.stdout.length > 0) writeStdout(`${aside.stdout.join('\n')}\n`);
}

function fail(error: unknown, json: boolean): number {
  if (!isAgentgateError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return report(
      'INTERNAL',
      `unexpected failure: ${message}; please report it with the command you ran`,
      json,
      1,
    );
  }
  const hint = WORKSPACE_CODES.includes(error.code) ? ' (-C, --workspace DIR)' : '';
  return report(error.code, `${error.message}${hint}`, json, error.exitCode, error.details);
}

/** The library says "give the path of ..."; on the command line, that is -C. */
const WORKSPACE_CODES = ['WORKSPACE_NOT_FOUND', 'NOT_A_REPOSITORY', 'UNSAFE_WORKSPACE'];

/**
 * With --json the error's details (for a git failure: the command, its exit code and git's whole
 * stderr) travel in the document; for people, AGENTGATE_DEBUG=1 prints git's whole stderr too.
 */
function report(
  code: string,
  message: string,
  json: boolean,
  status: number,
  details: Record<string, unknown> = {},
): number {
  if (json) writeStdout(`${jsonText({ error: errorJson(code, message, details) })}\n`);
  else {
    process.stderr.write(`${PROGRAM}: ${code}: ${noWorkflowCommands(printable(message))}\n`);
    if (process.env.AGENTGATE_DEBUG === '1' && typeof details.stderr === 'string' && details.stderr !== '')
      process.stderr.write(`git said:\n${noWorkflowCommands(details.stderr)}\n`);
  }
  return status;
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(`${PROGRAM}: INTERNAL: ${noWorkflowCommands(printable(String(error)))}\n`);
    process.exitCode = 1;
  },
);
