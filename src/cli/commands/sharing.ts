import type { ReceiveResult } from '../../../types/sharing.js';
import { UsageError } from '../../errors.js';
import { Sharing } from '../../sharing/sharing.js';
import type { Context } from '../context.js';
import { printable } from '../output.js';
import { defineCommand, type Command, type CommandResult } from '../spec.js';

/** Runs that travel: push, fetch, export, import through git remotes and bundles. */
function sharing(ctx: Context): Sharing {
  return new Sharing({ ...ctx.serviceOptions, includeGateLogs: ctx.settings.sharing.includeGateLogs });
}

const SELECT = {
  run: { type: 'string', valueName: 'ID', description: 'only this run' },
  all: {
    type: 'boolean',
    description: 'every run record in the repository, also those fetched from elsewhere',
  },
} as const;
const REMOTE = {
  type: 'string',
  valueName: 'NAME|URL',
  description: 'a configured remote or a URL (file, git, ssh or https only)',
  default: 'origin',
} as const;

function selection(
  ctx: Context,
  values: { run?: string | undefined; all: boolean },
): { workspace: string; runId?: string; all?: boolean } {
  if (values.run !== undefined && values.all) throw new UsageError('give --run ID or --all, not both');
  return {
    workspace: ctx.workspace,
    ...(values.run === undefined ? {} : { runId: values.run }),
    ...(values.all ? { all: true } : {}),
  };
}

const push = defineCommand({
  name: 'push',
  usage: 'push [--run ID | --all] [--remote NAME|URL]',
  summary: 'Publish runs under refs/agentgate/records/ with one git push; never forced.',
  description:
    'Default: every run of this workspace. One ref per iteration; a ref the remote already holds with other content is refused with PUSH_REJECTED and the others still land.',
  options: { ...SELECT, remote: REMOTE },
  positionals: { required: [] },
  examples: ['push --run "$RUN" --json', 'push --all --remote https://github.com/acme/shop.git'],
  async run(ctx, values) {
    const result = await sharing(ctx).push(selection(ctx, values), values.remote);
    return {
      json: result,
      human: () =>
        result.refs === 0
          ? 'No run records to publish.'
          : `Published ${result.runs.length} run(s) to ${result.remote}: ${result.updated.length} record(s) new, ${result.upToDate.length} already there.`,
    };
  },
});

const fetch = defineCommand({
  name: 'fetch',
  usage: 'fetch [--run ID | --all] [--remote NAME|URL]',
  summary: 'Fetch run records from the remote (only what is new) and rebuild them in the local home.',
  description: 'Every record is checked before it is used; refused records are listed with the reason.',
  options: { ...SELECT, remote: REMOTE },
  positionals: { required: [] },
  examples: ['fetch --json', 'fetch --run "$RUN" --remote origin'],
  async run(ctx, values) {
    const result = await sharing(ctx).fetch(selection(ctx, values), values.remote);
    return receiveResult(result, `from ${result.remote ?? ''}`);
  },
});

const exportCommand = defineCommand({
  name: 'export',
  usage: 'export [--run ID | --all] -o FILE',
  summary: 'Write runs (default: every run of this workspace) as one git bundle file.',
  options: {
    ...SELECT,
    output: {
      type: 'string',
      short: 'o',
      valueName: 'FILE',
      description: 'the bundle file to write',
      required: true,
    },
  },
  positionals: { required: [] },
  examples: ['export --run "$RUN" -o agentgate.bundle'],
  async run(ctx, values) {
    const result = await sharing(ctx).export(selection(ctx, values), values.output);
    return {
      json: result,
      human: () => `Wrote ${result.refs} record(s) of ${result.runs.length} run(s) to ${result.file}.`,
    };
  },
});

const importCommand = defineCommand({
  name: 'import',
  usage: 'import FILE',
  summary:
    'Verify a bundle written by "export", take its records into this repository and rebuild them in the local home.',
  description: 'A damaged or foreign file is BUNDLE_INVALID and changes nothing.',
  options: {},
  positionals: { required: ['FILE'] },
  examples: ['import agentgate.bundle -C "$WS"'],
  async run(ctx, _values, [file]) {
    const result = await sharing(ctx).import(ctx.workspace, file as string);
    return receiveResult(result, `from ${result.file ?? ''}`);
  },
});

function receiveResult(result: ReceiveResult, source: string): CommandResult {
  return {
    json: result,
    human: () =>
      [
        `Rebuilt ${result.snapshots} snapshot(s) and ${result.gates} gate verdict(s) of ${result.runs.length} run(s) ${source}; ${result.unchanged} already here.`,
        ...result.refused.map((r) => printable(`refused ${r.ref}: ${r.reason}`)),
      ].join('\n'),
  };
}

export const SHARING_COMMANDS: Command[] = [push, fetch, exportCommand, importCommand];
