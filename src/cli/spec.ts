import type { ParseArgsConfig } from 'node:util';
import type { Context } from './context.js';
import type { StreamedJson } from './json-stream.js';

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

/** What a command hands back: a JSON document plus its rendering for people, a file to stream, or a streamed JSON document. */
export type CommandResult =
  | { json: unknown; human: (colour: boolean) => string; exitCode?: number }
  | { streamFile: string; cleanup?: () => Promise<void> }
  /** One JSON document whose big string member is read from a file as it is written (see json-stream.ts). */
  | { streamJson: StreamedJson; cleanup?: () => Promise<void> }
  /** The command wrote its own output (serve). */
  | { silent: true; exitCode?: number };

export interface CommandSpec {
  /** 'before', or 'checkpoint track' for subcommands. */
  name: string;
  usage: string;
  summary: string;
  options: OptionSpecs;
  /** Names of the positional arguments; a trailing '...' takes any number. */
  positionals: { required: string[]; optional?: string[]; rest?: string };
  run(ctx: Context, values: Values, positionals: string[]): Promise<CommandResult>;
}

export const GLOBAL_OPTIONS: OptionSpecs = {
  workspace: { type: 'string', short: 'C' },
  home: { type: 'string' },
  'artifacts-dir': { type: 'string' },
  config: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
};

export const GLOBAL_USAGE = `Global options:
  -C, --workspace DIR     the workspace (default: the current directory)
      --home DIR          agentgate home (default: $AGENTGATE_HOME or ~/.agentgate)
      --artifacts-dir DIR patch artifacts (default: $AGENTGATE_ARTIFACTS_DIR or <home>/artifacts)
      --config FILE       configuration file (default: <home>/config.yaml)
      --json              print exactly one JSON document on stdout
  -h, --help              show help`;
