/**
 * How a command is declared. Read this before adding one.
 *
 * A command is one `defineCommand({...})` in a file under `src/cli/commands/`, registered with a
 * lazy loader in `src/cli/commands/index.ts` (so its code, and the library it pulls in, load only
 * when it runs). Every option is declared once; the declaration gives the parser, the typed
 * values handed to `run`, and the command's `--help`:
 *
 *   export const gc = defineCommand({
 *     name: 'checkpoint gc',                      // 'before', or 'checkpoint gc' for a subcommand
 *     summary: 'One short line: the command list and the top of --help.',
 *     description: 'Optional: more for --help (forms of the arguments, what is printed).',
 *     usage: 'checkpoint gc [--keep N] [--prune AGE]', // optional: generated when left out
 *     positionals: { required: [], optional: [], rest: undefined }, // names; `rest` takes any number
 *     options: {
 *       keep: { type: 'integer', valueName: 'N', description: 'checkpoints to keep', defaultText: '100' },
 *       prune: { type: 'string', valueName: 'AGE', description: 'a git date', default: '2.weeks.ago' },
 *       run: { type: 'string', valueName: 'ID', description: 'the run', required: true },
 *       'on-dirty': { type: 'string', choices: ['wip-commit', 'error'], description: '...' },
 *       all: { type: 'boolean', short: 'a', description: '...' },
 *     },
 *     examples: ['checkpoint gc --keep 20 --prune 1.day.ago'],   // shown after "Example:"
 *     async run(ctx, values, positionals) {
 *       // values.keep: number | undefined, values.prune: string, values.run: string,
 *       // values['on-dirty']: 'wip-commit' | 'error' | undefined, values.all: boolean,
 *       // plus the global options (values.json, values.workspace, ...).
 *     },
 *   });
 *
 * Types: 'string' (a `choices` list narrows it to those words), 'integer' (a whole number from `min`
 * to `max`, by default 0 to 999999999; an iteration number takes MAX_ITERATION) and 'boolean'. A value is `T | undefined` unless the option
 * is `required: true` or has a `default`. The parser reports an unknown option, a missing value or a
 * missing required option as USAGE (exit 2), and a value of the wrong form (not a whole number in
 * its range, not one of the choices, an empty required value, an empty FILE or DIR) as
 * INVALID_ARGUMENT (exit 2), naming the option.
 */
import { InvalidArgumentError, UsageError } from '../errors.js';
import type { Context } from './context.js';
import type { StreamedJson } from './json-stream.js';
import { nearestName } from './suggest.js';

/** Value names of options that name a file or a directory: never empty. */
const PATHS = ['FILE', 'DIR'];

export const PROGRAM = 'agentgate-snapshot';

/** `--ci github|none`, shared by the commands that speak GitHub Actions (each gives its own description). */
export const CI_OPTION = {
  type: 'string',
  choices: ['github', 'none'],
  valueName: 'MODE',
  defaultText: 'github when GITHUB_ACTIONS=true, else none',
} as const;

interface OptionBase {
  /** One letter: `-o` for `--output`. */
  short?: string;
  /** What it does, for --help: lower case, no final full stop. */
  description: string;
  /** The placeholder in --help and usage: FILE, N, AGE, ID. */
  valueName?: string;
  /** For --help when the default is not a constant of the parser (comes from the config, ...). */
  defaultText?: string;
}
export interface StringOption extends OptionBase {
  type: 'string';
  choices?: readonly string[];
  default?: string;
  required?: boolean;
  /** May be given more than once (`--junit A --junit B`): the value is every one, in order (none: []). */
  multiple?: boolean;
}
export interface IntegerOption extends OptionBase {
  type: 'integer';
  default?: number;
  required?: boolean;
  /** The range taken (default 0 to 999999999): one check and one message for a value of any other form. */
  min?: number;
  max?: number;
}
export interface BooleanOption extends OptionBase {
  type: 'boolean';
}
export type OptionDecl = StringOption | IntegerOption | BooleanOption;

/**
 * The largest iteration number an option takes: the records, the library and a fetched run take
 * any whole number JSON holds exactly, so an iteration they hold can always be named here too.
 */
export const MAX_ITERATION = Number.MAX_SAFE_INTEGER;
export type OptionDecls = Readonly<Record<string, OptionDecl>>;

type Always<D> = D extends { required: true } ? true : D extends { default: string | number } ? true : false;
type Base<D> = D extends { type: 'integer' }
  ? number
  : D extends { choices: readonly (infer C extends string)[] }
    ? C
    : string;
/** The value `run` receives for one declared option. */
export type OptionValue<D> = D extends { type: 'boolean' }
  ? boolean
  : D extends { multiple: true }
    ? string[]
    : Always<D> extends true
      ? Base<D>
      : Base<D> | undefined;
export type ValuesOf<O extends OptionDecls> = { -readonly [K in keyof O]: OptionValue<O[K]> };

/** Options every command takes. */
export const GLOBAL_OPTIONS = {
  workspace: {
    type: 'string',
    short: 'C',
    valueName: 'DIR',
    description: 'the workspace',
    defaultText: 'the current directory',
  },
  home: {
    type: 'string',
    valueName: 'DIR',
    description: 'agentgate home',
    defaultText: '$AGENTGATE_HOME, else ~/.agentgate',
  },
  'artifacts-dir': {
    type: 'string',
    valueName: 'DIR',
    description: 'where patch artifacts go',
    defaultText: '$AGENTGATE_ARTIFACTS_DIR, else <home>/artifacts',
  },
  config: {
    type: 'string',
    valueName: 'FILE',
    description: 'configuration file',
    defaultText: '<home>/config.yaml',
  },
  json: { type: 'boolean', description: 'print exactly one JSON document on stdout' },
  help: { type: 'boolean', short: 'h', description: 'show help' },
  version: { type: 'boolean', short: 'V', description: 'print the version' },
} as const satisfies OptionDecls;
export type GlobalValues = ValuesOf<typeof GLOBAL_OPTIONS>;

/** What a command hands back: a JSON document plus its rendering for people, a file to stream, or a streamed JSON document. */
export type CommandResult =
  | {
      json: unknown;
      human: (colour: boolean) => string;
      exitCode?: number;
      /**
       * CI workflow command lines (`::error ...`). Printed on stdout after the output for people;
       * with --json (or `documentOnStdout`) on stderr, so that stdout stays one document (GitHub
       * reads both streams).
       */
      workflowCommands?: string[];
      /** stdout is a document (a report printed without -o): workflow commands go to stderr, as with --json. */
      documentOnStdout?: boolean;
      /** Problems that do not stop the command (a store file that does not load): with --json, one `{"warnings":[...]}` line on stderr. */
      warnings?: Array<{ code: string; message: string; file: string | null }>;
      /** Lines for people on stderr, with or without --json (what a fetch refused, say); stdout keeps the result. */
      notices?: string[];
    }
  | { streamFile: string; cleanup?: () => Promise<void> }
  /** One JSON document whose big string member is read from a file as it is written (see json-stream.ts). */
  | { streamJson: StreamedJson; cleanup?: () => Promise<void> }
  /** The command wrote its own output (serve). */
  | { silent: true; exitCode?: number };

/** Names of the positional arguments; `rest` takes any number. */
export interface Positionals {
  required: readonly string[];
  optional?: readonly string[];
  rest?: string;
}

export interface CommandDefinition<O extends OptionDecls> {
  name: string;
  summary: string;
  description?: string;
  usage?: string;
  options: O;
  positionals: Positionals;
  examples: readonly string[];
  /** The command uses our stdin or stdout itself (an agent, a hook event, serve): `serve` refuses it. */
  ownsStdio?: boolean;
  run(ctx: Context, values: ValuesOf<O> & GlobalValues, positionals: string[]): Promise<CommandResult>;
}

/** A command with its option types erased, as the registry and the parser handle it. */
export interface Command {
  name: string;
  summary: string;
  description?: string;
  usage: string;
  options: OptionDecls;
  positionals: Positionals;
  examples: readonly string[];
  /** The command uses our stdin or stdout itself (an agent, a hook event, serve): `serve` refuses it. */
  ownsStdio?: boolean;
  run(ctx: Context, values: Record<string, unknown>, positionals: string[]): Promise<CommandResult>;
}

export function defineCommand<const O extends OptionDecls>(def: CommandDefinition<O>): Command {
  // The parser builds `values` from these same declarations, so the erased type is sound.
  return {
    ...def,
    usage: def.usage ?? generatedUsage(def.name, def.options, def.positionals),
    run: def.run as Command['run'],
  };
}

function generatedUsage(name: string, options: OptionDecls, positionals: Positionals): string {
  const parts = [name];
  for (const [key, decl] of Object.entries(options)) {
    const text = decl.type === 'boolean' ? `--${key}` : `--${key} ${placeholder(decl)}`;
    const many = decl.type === 'string' && decl.multiple === true ? '...' : '';
    parts.push(decl.type !== 'boolean' && decl.required === true ? text : `[${text}]${many}`);
  }
  parts.push(...positionals.required, ...(positionals.optional ?? []).map((p) => `[${p}]`));
  if (positionals.rest) parts.push(`[${positionals.rest}...]`);
  return parts.join(' ');
}

/** An option's value placeholder in --help and usage: its valueName, its choices, N or VALUE. */
export function placeholder(decl: StringOption | IntegerOption): string {
  if (decl.valueName) return decl.valueName;
  if (decl.type === 'string' && decl.choices) return decl.choices.join('|');
  return decl.type === 'integer' ? 'N' : 'VALUE';
}

// ---- parsing ----

export interface Parsed {
  values: Record<string, unknown>;
  positionals: string[];
}

/**
 * Parses `args` (the command words already removed) against the global and the command's
 * options. `--name value`, `--name=value`, `-x value`, `-xvalue`; `--` ends the options. A value
 * that starts with `-` must be attached (`--iteration=-1`), else it is taken for an option.
 */
export function parseCommandLine(command: Command, args: readonly string[]): Parsed {
  const decls: OptionDecls = { ...GLOBAL_OPTIONS, ...command.options };
  const raw = new Map<string, string | true | string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--') {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith('-') || arg === '-') {
      positionals.push(arg);
      continue;
    }
    const { name, shown, inline } = splitOption(arg, decls);
    const decl = name === undefined ? undefined : decls[name];
    if (name === undefined || decl === undefined) {
      // A long option mistyped (--itertion) gets the nearest one the command takes.
      const nearest = shown.startsWith('--') ? nearestName(shown.slice(2), Object.keys(decls)) : null;
      const hint = nearest === null ? '' : `did you mean "--${nearest}"? `;
      throw new UsageError(
        `unknown option ${shown} for "${command.name}"; ${hint}run "${PROGRAM} ${command.name} --help" for its options`,
        { details: { option: shown, ...(nearest === null ? {} : { suggestion: `--${nearest}` }) } },
      );
    }
    if (decl.type === 'boolean') {
      if (inline !== undefined)
        throw new UsageError(`option ${shown} takes no value`, { details: { option: shown } });
      raw.set(name, true);
      continue;
    }
    let value = inline;
    if (value === undefined) {
      const next = args[i + 1];
      if (next === undefined || (next.startsWith('-') && next !== '-')) {
        throw new UsageError(
          `option ${shown} needs a value (${shown} ${placeholder(decl)}${next === undefined ? '' : `, or ${shown}=${placeholder(decl)} for a value starting with "-"`})`,
          {
            details: { option: shown },
          },
        );
      }
      value = next;
      i++;
    }
    if (decl.type === 'string' && decl.multiple === true) {
      const earlier = raw.get(name);
      raw.set(name, [...(Array.isArray(earlier) ? earlier : []), value]);
    } else raw.set(name, value);
  }
  const help = raw.get('help') === true || raw.get('version') === true;
  if (!help) {
    checkPositionals(command, positionals.length);
    checkPathPositionals(command, positionals);
  }
  const values: Record<string, unknown> = {};
  for (const [name, decl] of Object.entries(decls)) values[name] = convert(name, decl, raw.get(name), help);
  return { values, positionals };
}

function splitOption(
  arg: string,
  decls: OptionDecls,
): { name: string | undefined; shown: string; inline: string | undefined } {
  if (arg.startsWith('--')) {
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    return {
      name: Object.hasOwn(decls, name) ? name : undefined,
      shown: `--${name}`,
      inline: eq < 0 ? undefined : arg.slice(eq + 1),
    };
  }
  const letter = arg.slice(1, 2);
  const name = Object.entries(decls).find(([, d]) => d.short === letter)?.[0];
  const attached = arg.slice(2);
  return { name, shown: `-${letter}`, inline: attached === '' ? undefined : attached.replace(/^=/, '') };
}

function checkPositionals(command: Command, count: number): void {
  const { required, optional = [], rest } = command.positionals;
  if (count < required.length) {
    throw new UsageError(`missing ${required.slice(count).join(' ')}; usage: ${PROGRAM} ${command.usage}`, {
      details: { missing: required.slice(count) },
    });
  }
  if (!rest && count > required.length + optional.length)
    throw new UsageError(`too many arguments; usage: ${PROGRAM} ${command.usage}`);
}

/** A FILE or DIR argument given as '' names nothing (it would resolve to the working directory), as for options. */
function checkPathPositionals(command: Command, positionals: readonly string[]): void {
  const names = [...command.positionals.required, ...(command.positionals.optional ?? [])];
  const empty = names.findIndex((name, i) => PATHS.includes(name) && positionals[i] === '');
  if (empty !== -1)
    throw new InvalidArgumentError(`${names[empty]} must not be empty`, {
      details: { argument: names[empty] },
    });
}

function convert(
  name: string,
  decl: OptionDecl,
  value: string | true | string[] | undefined,
  help: boolean,
): unknown {
  if (decl.type === 'boolean') return value === true;
  if (Array.isArray(value)) return value;
  if (decl.type === 'string' && decl.multiple === true) return [];
  if (value === undefined || value === true) {
    if (decl.default !== undefined) return decl.default;
    if (decl.required === true && !help)
      throw new UsageError(`--${name} ${placeholder(decl)} is required`, {
        details: { option: `--${name}` },
      });
    return undefined;
  }
  // A file or directory named by nothing would be written to or read from nowhere, silently.
  if ((decl.required === true || PATHS.includes(decl.valueName ?? '')) && value === '')
    throw new InvalidArgumentError(`--${name} must not be empty`, { details: { option: `--${name}` } });
  if (decl.type === 'integer') {
    const [min, max] = [decl.min ?? 0, decl.max ?? 999_999_999];
    // 16 digits reach MAX_ITERATION; a longer or larger one rounds past it and is refused.
    if (!/^\d{1,16}$/.test(value) || Number(value) < min || Number(value) > max)
      throw new InvalidArgumentError(
        `--${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(value.slice(0, 40))}`,
        { details: { option: `--${name}`, min, max } },
      );
    return Number(value);
  }
  if (decl.choices && !decl.choices.includes(value)) {
    throw new InvalidArgumentError(
      `--${name} must be one of ${decl.choices.join(', ')}, not ${JSON.stringify(value.slice(0, 40))}`,
      { details: { option: `--${name}` } },
    );
  }
  return value;
}

/** Two options that exclude each other, e.g. `--task` and `--task-file`. */
export function atMostOne(values: Record<string, unknown>, names: readonly string[]): void {
  const given = names.filter((n) => values[n] !== undefined && values[n] !== false);
  if (given.length > 1)
    throw new UsageError(`give ${names.map((n) => `--${n}`).join(' or ')}, not both`, {
      details: { options: given },
    });
}

// ---- help ----

/** `Usage:`, the summary, every option described, the global options and the examples. */
export function commandHelp(command: Command): string {
  const sections = [
    `Usage: ${PROGRAM} ${command.usage}`,
    command.summary,
    ...(command.description ? [command.description] : []),
  ];
  if (Object.keys(command.options).length > 0) sections.push(`Options:\n${optionLines(command.options)}`);
  sections.push(`Global options:\n${optionLines(GLOBAL_OPTIONS)}`);
  if (command.examples.length > 0)
    sections.push(
      `Example${command.examples.length > 1 ? 's' : ''}:\n${command.examples.map((e) => `  ${PROGRAM} ${e}`).join('\n')}`,
    );
  return sections.join('\n\n');
}

export function optionLines(decls: OptionDecls): string {
  const heads = Object.entries(decls).map(([name, d]) => {
    const flag = `${d.short ? `-${d.short}, ` : '    '}--${name}`;
    return d.type === 'boolean' ? flag : `${flag} ${placeholder(d)}`;
  });
  const width = Math.max(...heads.map((h) => h.length));
  return Object.values(decls)
    .map((d, i) => `  ${(heads[i] as string).padEnd(width)}  ${describeOption(d)}`)
    .join('\n');
}

/** An option's --help text: its description, then its choices, required, repeatable and default. */
export function describeOption(d: OptionDecl): string {
  const notes: string[] = [];
  if (d.type === 'string' && d.choices) notes.push(`one of: ${d.choices.join(', ')}`);
  if (d.type !== 'boolean' && d.required === true) notes.push('required');
  if (d.type === 'string' && d.multiple === true) notes.push('repeatable');
  const dflt =
    d.defaultText ?? (d.type !== 'boolean' && d.default !== undefined ? String(d.default) : undefined);
  if (dflt !== undefined) notes.push(`default: ${dflt}`);
  return notes.length > 0 ? `${d.description} (${notes.join('; ')})` : d.description;
}
