import type { ParseArgsConfig } from 'node:util';
import type { Context } from './context.js';

export type OptionSpecs = NonNullable<ParseArgsConfig['options']>;
export type Values = Record<string, string | boolean | undefined>;

/** What a command hands back: a JSON document plus its rendering for people, or a file to stream. */
export type CommandResult =
  | {
      json: unknown;
      human: (colour: boolean) => string;
      exitCode?: number;
      /**
       * CI workflow command lines (`::error ...`). Printed on stdout after the output for people;
       * with --json on stderr, so that stdout stays one JSON document (GitHub reads both streams).
       */
      workflowCommands?: string[];
    }
  | { streamFile: string; cleanup?: () => Promise<void> };

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
