#!/usr/bin/env node
import { createReadStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { parseArgs } from 'node:util';
import { isAgentgateError, UsageError } from '../errors.js';
import { COMMANDS } from './commands/index.js';
import { Context } from './context.js';
import { writeStreamedJson } from './json-stream.js';
import { useColour } from './output.js';
import { GLOBAL_OPTIONS, GLOBAL_USAGE, type CommandResult, type CommandSpec } from './spec.js';

const PROGRAM = 'agentgate-snapshot';

/** Entry point: parse, run one command, print its result, and map every failure to a code. */
async function main(argv: string[]): Promise<number> {
  // Only an option before `--`: after it, `--json` is a path (checkpoint revert HASH -- --json).
  const json = (argv.includes('--') ? argv.slice(0, argv.indexOf('--')) : argv).includes('--json');
  process.stdout.on('error', onStdoutError);
  try {
    const { spec, rest } = findCommand(argv);
    if (!spec) return printHelp(rest.includes('--help') || rest.includes('-h') || rest.length === 0 ? 0 : 2, rest);
    const { values, positionals } = parse(spec, rest);
    if (values.help === true) {
      process.stdout.write(`${commandHelp(spec)}\n`);
      return 0;
    }
    const ctx = await Context.create(values);
    const result = await spec.run(ctx, values, positionals);
    await emit(result, json);
    return 'exitCode' in result ? (result.exitCode ?? 0) : 0;
  } catch (error) {
    return fail(error, json);
  }
}

/** The command is the first word that is not an option or an option's value; `checkpoint` takes a second word. */
function findCommand(argv: string[]): { spec: CommandSpec | undefined; rest: string[] } {
  const words: number[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const arg = argv[i] as string;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (takesValue(arg) && !arg.includes('=')) i++;
      continue;
    }
    words.push(i);
    if (arg !== 'checkpoint') break;
  }
  const name = words.map((i) => argv[i]).join(' ');
  const spec = COMMANDS.find((c) => c.name === name);
  if (!spec && words.length > 0) {
    throw new UsageError(`unknown command "${name}"; run "${PROGRAM} --help" for the list`, { details: { command: name } });
  }
  return { spec, rest: argv.filter((_, i) => !words.includes(i)) };
}

function takesValue(arg: string): boolean {
  const flag = arg.replace(/=.*$/, '');
  if (flag === '-C') return true;
  const name = flag.replace(/^--/, '');
  const known = COMMANDS.flatMap((c) => Object.entries(c.options)).concat(Object.entries(GLOBAL_OPTIONS));
  return known.some(([n, o]) => (n === name || `-${o.short ?? ''}` === flag) && o.type === 'string');
}

function parse(spec: CommandSpec, args: string[]): { values: Record<string, string | boolean | undefined>; positionals: string[] } {
  let parsed;
  try {
    parsed = parseArgs({ args, options: { ...GLOBAL_OPTIONS, ...spec.options }, allowPositionals: true, strict: true });
  } catch (cause) {
    throw new UsageError(`${(cause as Error).message.split('\n')[0]}; usage: ${PROGRAM} ${spec.usage}`, { cause });
  }
  const { required, optional = [], rest } = spec.positionals;
  const count = parsed.positionals.length;
  if (parsed.values.help !== true && (count < required.length || (!rest && count > required.length + optional.length))) {
    throw new UsageError(`wrong number of arguments; usage: ${PROGRAM} ${spec.usage}`);
  }
  return { values: parsed.values as Record<string, string | boolean | undefined>, positionals: parsed.positionals };
}

async function emit(result: CommandResult, json: boolean): Promise<void> {
  if ('silent' in result) return;
  if ('streamFile' in result) {
    try {
      await pipeline(createReadStream(result.streamFile), process.stdout, { end: false });
    } catch (error) {
      if (!isClosedPipe(error)) throw error;
    } finally {
      await result.cleanup?.();
    }
    return;
  }
  if ('streamJson' in result) {
    try {
      await writeStreamedJson(result.streamJson, process.stdout);
    } catch (error) {
      if (!isClosedPipe(error)) throw error;
    } finally {
      await result.cleanup?.();
    }
    return;
  }
  const text = json ? JSON.stringify(result.json, null, 2) : result.human(useColour(process.stdout));
  if (text.length > 0) process.stdout.write(`${text}\n`);
}

/** A reader that stops early (`| head`) closes the pipe: the output it did not want is no failure. */
function isClosedPipe(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/** Without a listener, a failed write to stdout crashes the process with a stack trace. */
function onStdoutError(error: NodeJS.ErrnoException): void {
  if (isClosedPipe(error)) return;
  process.stderr.write(`${PROGRAM}: WRITE_FAILED: could not write the output (${error.code ?? error.message})\n`);
  process.exitCode = 1;
}

function fail(error: unknown, json: boolean): number {
  if (!isAgentgateError(error)) {
    const message = error instanceof Error ? error.message : String(error);
    return report('INTERNAL', `unexpected failure: ${message}; please report it with the command you ran`, json, 1);
  }
  return report(error.code, error.message, json, error.exitCode);
}

function report(code: string, message: string, json: boolean, status: number): number {
  if (json) process.stdout.write(`${JSON.stringify({ error: { code, message } })}\n`);
  else process.stderr.write(`${PROGRAM}: ${code}: ${message}\n`);
  return status;
}

function printHelp(status: number, rest: string[]): number {
  const out = status === 0 ? process.stdout : process.stderr;
  if (status !== 0) out.write(`${PROGRAM}: USAGE: no command given in "${rest.join(' ')}"\n`);
  const width = Math.max(...COMMANDS.map((c) => c.name.length));
  const lines = COMMANDS.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  out.write(`Usage: ${PROGRAM} <command> [options]\n\nCommands:\n${lines.join('\n')}\n\n${GLOBAL_USAGE}\n\nRun "${PROGRAM} <command> --help" for a command's options.\n`);
  return status;
}

function commandHelp(spec: CommandSpec): string {
  return `Usage: ${PROGRAM} ${spec.usage}\n\n${spec.summary}\n\n${GLOBAL_USAGE}`;
}

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    process.stderr.write(`${PROGRAM}: INTERNAL: ${String(error)}\n`);
    process.exitCode = 1;
  },
);
