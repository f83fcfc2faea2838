import { fstatSync, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable, Writable } from 'node:stream';
import { isatty } from 'node:tty';
import {
  SERVE_MAX_LINE_BYTES,
  ServeRequest,
  ServeRequestId,
  type ServeRequestId as RequestId,
} from '../../types/serve.js';
import { InvalidRequestError, isAgentgateError, UsageError } from '../errors.js';
import { receivedSignal, signalExitStatus } from '../process/user-command.js';
import { Context } from './context.js';
import { writeStreamedJson } from './json-stream.js';
import { asideLines, errorJson, isClosedPipe } from './output.js';
import { parseCommandLine, type Command, type CommandResult, type GlobalValues } from './spec.js';
import { jsonText } from '../text.js';

/** Options `serve` itself was started with that every request inherits unless it gives its own. */
const INHERITED = ['workspace', 'home', 'artifacts-dir', 'config'] as const;

export interface ServeOptions {
  /** serve's own global options (workspace, home, ...): defaults for every request. */
  defaults: Partial<GlobalValues>;
  /**
   * The command called `name` (commands/index.ts's loadCommand), given by the caller: serve is one
   * of those commands, so importing the registry from here would make a cycle.
   */
  load: (name: string) => Promise<Command | undefined>;
  /** Where what the command line prints beside a result goes (warnings, notices, workflow commands). */
  aside: Writable;
}

/**
 * The long-lived mode: JSON lines over stdio. Reads one request per line from `input`, runs it
 * exactly as the CLI would with --json (same parser, same validation, same error codes) and
 * writes one response per line to `output`, in request order. Returns at end of input, once
 * every request read has been answered, with exit status 0; or, when a signal came while a gate's
 * check ran (passed on to it, the verdict recorded and answered), at once with 128 + its number,
 * reading no further request, as the signal would have ended serve at any other moment.
 */
export async function serve(input: Readable, output: Writable, opts: ServeOptions): Promise<number> {
  try {
    await answerAll(input, output, { ...opts, own: streamIdentities([input, output]) });
  } catch (error) {
    // Nobody reads the answers any more (the orchestrator closed our stdout): stop quietly.
    if (!(error instanceof OutputClosed)) throw error;
  }
  const signal = receivedSignal();
  return signal === null ? 0 : signalExitStatus(signal);
}

/** serve's options, and the identities (`dev:ino`) of its own request and answer streams. */
interface Serving extends ServeOptions {
  own: ReadonlySet<string>;
}

/**
 * serve's own streams, as `dev:ino`: a request that names one (`--config /dev/stdin`, `-o
 * /proc/self/fd/1`, the file the answers are redirected to) would read the requests after it or
 * write over the answers. A device other than a terminal (/dev/null) is left out: nothing is lost.
 */
function streamIdentities(streams: ReadonlyArray<Readable | Writable>): Set<string> {
  const ids = new Set<string>();
  for (const stream of streams) {
    const fd = (stream as { fd?: unknown }).fd;
    if (typeof fd !== 'number') continue;
    let s: Stats;
    try {
      s = fstatSync(fd);
    } catch {
      continue;
    }
    if (s.isFile() || s.isFIFO() || s.isSocket() || (s.isCharacterDevice() && isatty(fd)))
      ids.add(`${s.dev}:${s.ino}`);
  }
  return ids;
}

/** Whether `value`, taken as a path (through links), is one of serve's own streams. */
async function namesOwnStream(value: string, own: ReadonlySet<string>): Promise<boolean> {
  if (own.size === 0 || value === '' || value.includes('\0')) return false;
  const s = await stat(value).catch(() => null);
  return s !== null && own.has(`${s.dev}:${s.ino}`);
}

/** INVALID_REQUEST for an option value or argument that names serve's own stdin or stdout. */
async function refuseOwnStreams(
  options: Readonly<Record<string, unknown>>,
  args: readonly string[],
  own: ReadonlySet<string>,
): Promise<void> {
  const named: Array<[string, string]> = [];
  for (const [name, value] of Object.entries(options)) {
    for (const v of Array.isArray(value) ? value : [value])
      if (typeof v === 'string') named.push([`options.${name}`, v]);
  }
  args.forEach((v, i) => named.push([`args.${i}`, v]));
  for (const [at, value] of named) {
    if (await namesOwnStream(value, own))
      throw new InvalidRequestError(
        `${at}: ${JSON.stringify(value.slice(0, 200))} is serve's own input or output, where the requests come and the answers go; give a file`,
        { details: { argument: at } },
      );
  }
}

async function answerAll(input: Readable, output: Writable, opts: Serving): Promise<void> {
  const max = SERVE_MAX_LINE_BYTES;
  let parts: Buffer[] = [];
  let pending = 0;
  let skipping = false;
  const handle = async (line: Buffer): Promise<void> => {
    if (line.length === 0 || (line.length === 1 && line[0] === 0x0d)) return;
    await respond(output, line, opts);
  };
  for await (const chunk of input as AsyncIterable<Buffer>) {
    let start = 0;
    for (let nl = chunk.indexOf(0x0a, start); nl >= 0; nl = chunk.indexOf(0x0a, start)) {
      const piece = chunk.subarray(start, nl);
      start = nl + 1;
      if (skipping) {
        skipping = false;
      } else if (pending + piece.length > max) {
        await tooLong(output, max);
      } else {
        await handle(Buffer.concat([...parts, piece]));
        if (receivedSignal() !== null) return;
      }
      parts = [];
      pending = 0;
    }
    const rest = chunk.subarray(start);
    if (skipping || rest.length === 0) continue;
    if (pending + rest.length > max) {
      // Refused as soon as it is too long: the rest of the line is read and dropped, never held.
      await tooLong(output, max);
      skipping = true;
      parts = [];
      pending = 0;
    } else {
      parts.push(Buffer.from(rest));
      pending += rest.length;
    }
  }
  if (!skipping && pending > 0) await handle(Buffer.concat(parts));
}

async function tooLong(output: Writable, max: number): Promise<void> {
  await write(
    output,
    errorLine(
      null,
      new InvalidRequestError(`request line longer than ${max} bytes; send one JSON request per line`),
    ),
  );
}

async function respond(output: Writable, line: Buffer, opts: Serving): Promise<void> {
  let id: RequestId | null = null;
  try {
    let body: unknown;
    try {
      body = JSON.parse(line.toString('utf8'));
    } catch {
      throw new InvalidRequestError(
        'a request line must be one JSON object: {"id", "command", "args", "options"}',
      );
    }
    const maybeId = ServeRequestId.safeParse((body as { id?: unknown } | null)?.id);
    if (maybeId.success) id = maybeId.data;
    const parsed = ServeRequest.safeParse(body);
    // zod drops a record's `__proto__` key unseen: an option of that name would be ignored, not refused.
    const options = (body as { options?: unknown } | null)?.options;
    if (
      parsed.success &&
      typeof options === 'object' &&
      options !== null &&
      Object.hasOwn(options, '__proto__')
    )
      throw new InvalidRequestError(
        'invalid request: options.__proto__: no option has that name; expected {"id", "command", "args", "options"}',
        { details: { option: '__proto__' } },
      );
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new InvalidRequestError(
        `invalid request: ${issue ? `${issue.path.join('.') || 'request'}: ${issue.message}` : 'wrong fields'}; expected {"id", "command", "args", "options"}`,
      );
    }
    const result = await execute(parsed.data, opts);
    await writeResult(output, parsed.data.id, result, opts);
  } catch (error) {
    if (error instanceof OutputClosed) throw error;
    await write(output, errorLine(id, error));
  }
}

/** Runs one request through the same steps as the CLI: find the command, parse its options strictly, run it. */
async function execute(request: ServeRequest, opts: Serving): Promise<CommandResult> {
  // A command that owns our stdio (iterate's agent, a hook's event, serve) would share the requests and answers.
  const command = await opts.load(request.command);
  if (!command || command.ownsStdio === true) {
    throw new UsageError(
      `unknown command "${request.command.slice(0, 100)}" for serve; it takes the CLI's commands except serve, iterate and the agent hooks (hook install and hook uninstall are served)`,
      { details: { command: request.command.slice(0, 100) } },
    );
  }
  const argv: string[] = [];
  // A command line's words are always well-formed (a byte that is not UTF-8 reaches it as U+FFFD):
  // half a surrogate pair is read so too, or a branch or file would be made under another name.
  const given = wellFormed(request.options);
  const args = request.args.map((a) => a.toWellFormed());
  // false leaves an option out, as absence does: serve's own value is still the default.
  for (const name of INHERITED)
    if ((given[name] ?? false) === false && typeof opts.defaults[name] === 'string')
      given[name] = opts.defaults[name];
  for (const [name, value] of Object.entries(given)) {
    // --help and --version make the parser skip its required-option checks: never run a command with them.
    if (name === 'help' || name === 'version')
      throw new UsageError(`${name} is not served; run "agentgate-snapshot <command> --${name}"`);
    if (Array.isArray(value)) argv.push(...repeated(command, name, value));
    else if (value === true) argv.push(`--${name}`);
    else if (value !== false) argv.push(`--${name}=${String(value)}`);
  }
  // A gate's CMD and ARGs are a command line it runs with stdio of its own, not files of ours.
  const files = command.positionals.required.includes('CMD') ? [] : args;
  await refuseOwnStreams(given, files, opts.own);
  argv.push('--', ...args);
  const { values, positionals } = parseCommandLine(command, argv);
  const ctx = await Context.create({ ...(values as GlobalValues), json: true });
  return command.run(ctx, { ...values, json: true }, positionals);
}

/** `options` with every string (in a list too) well-formed: half a surrogate pair as U+FFFD. */
function wellFormed(options: ServeRequest['options']): ServeRequest['options'] {
  return Object.fromEntries(
    Object.entries(options).map(([name, value]) => [
      name,
      typeof value === 'string'
        ? value.toWellFormed()
        : Array.isArray(value)
          ? value.map((v) => v.toWellFormed())
          : value,
    ]),
  );
}

/** A list given for an option: the option once per value, as the command line repeats it; only a repeatable option takes one. */
function repeated(command: Command, name: string, values: readonly string[]): string[] {
  const decl = Object.hasOwn(command.options, name) ? command.options[name] : undefined;
  if (decl?.type !== 'string' || decl.multiple !== true) {
    const lists = Object.entries(command.options)
      .filter(([, d]) => d.type === 'string' && d.multiple === true)
      .map(([n]) => n);
    throw new InvalidRequestError(
      `options.${name}: a list is taken only by a repeatable option (${lists.length > 0 ? `"${command.name}": ${lists.join(', ')}` : `"${command.name}" has none`}); give one value`,
      { details: { option: name } },
    );
  }
  return values.map((v) => `--${name}=${v}`);
}

/** `{"id":…,"result":…}` on one line; a streamed result (a patch) is escaped as it is read, never held. */
async function writeResult(
  output: Writable,
  id: RequestId,
  result: CommandResult,
  opts: ServeOptions,
): Promise<void> {
  const head = `{"id":${jsonText(id)},"result":`;
  if ('json' in result) {
    const exit = result.exitCode ? `,"exitCode":${result.exitCode}` : '';
    const aside = asideLines(result, true).stderr;
    if (aside.length > 0) opts.aside.write(`${aside.join('\n')}\n`);
    await write(output, `${head}${jsonText(result.json ?? null)}${exit}}\n`);
    return;
  }
  if ('silent' in result) {
    await write(output, `${head}null}\n`);
    return;
  }
  try {
    await streamResult(output, head, result);
  } catch (error) {
    throw closedOr(error);
  } finally {
    await result.cleanup?.();
  }
}

async function streamResult(
  output: Writable,
  head: string,
  result: Extract<CommandResult, { streamFile: string } | { streamJson: unknown }>,
): Promise<void> {
  if ('streamJson' in result) {
    // Pretty-printed JSON has newlines only between tokens (never inside a string): one line here.
    const flat = (text: string): string => text.replace(/\n\s*/g, '');
    await writeStreamedJson(
      {
        prefix: head + flat(result.streamJson.prefix),
        file: result.streamJson.file,
        suffix: `${flat(result.streamJson.suffix)}}\n`,
      },
      output,
    );
  } else {
    await writeStreamedJson({ prefix: `${head}"`, file: result.streamFile, suffix: '"}\n' }, output);
  }
}

/** `{ id, error: { code, message, details } }`, as the command line prints an error with --json (details when there are any). */
function errorLine(id: RequestId | null, error: unknown): string {
  if (!isAgentgateError(error)) {
    const message = `unexpected failure: ${error instanceof Error ? error.message : String(error)}; please report it with the request you sent`;
    return `${jsonText({ id, error: { code: 'INTERNAL', message } })}\n`;
  }
  return `${jsonText({ id, error: errorJson(error.code, error.message, error.details) })}\n`;
}

/** Our output's reader went away: told apart from a command's own failures, which get an error line. */
class OutputClosed extends Error {}

function closedOr(error: unknown): unknown {
  return isClosedPipe(error) ? new OutputClosed('output closed', { cause: error }) : error;
}

/** Writes and waits until the stream accepted the text (backpressure); rejects on a write error. */
function write(output: Writable, text: string): Promise<void> {
  return new Promise((resolve, reject) => {
    output.write(text, (error) => (error ? reject(closedOr(error)) : resolve()));
  });
}
