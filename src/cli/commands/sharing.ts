import type { AnchorMode } from '../../../types/anchor-record.js';
import type { ReceiveResult } from '../../../types/sharing.js';
import { UsageError } from '../../errors.js';
import { anchorKeeper } from '../../provenance/anchor-keeper.js';
import { provenanceSources } from '../../provenance/sources.js';
import { Sharing } from '../../sharing/sharing.js';
import type { Context } from '../context.js';
import { defineCommand, type Command, type CommandResult } from '../spec.js';

/** Runs that travel: push, fetch, export, import through git remotes and bundles, with the anchors beside them. */
async function sharing(ctx: Context, anchors: AnchorMode): Promise<Sharing> {
  const keeper =
    anchors === 'none' ? {} : { anchors: anchorKeeper(provenanceSources(await ctx.snapshotter())) };
  return new Sharing({
    ...ctx.serviceOptions,
    includeGateLogs: ctx.settings.sharing.includeGateLogs,
    ...keeper,
  });
}

/** `--anchors with|only|none`: which anchors (refs/agentgate/anchors/<commit>) travel. */
const ANCHORS = {
  anchors: {
    type: 'string',
    choices: ['with', 'only', 'none'],
    valueName: 'MODE',
    default: 'with',
    description:
      'the anchors (refs/agentgate/anchors/<commit>) beside the runs they name, only the anchors, or none',
  },
} as const;

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
  values: { run?: string | undefined; all: boolean; anchors: AnchorMode },
): { workspace: string; runId?: string; all?: boolean; anchors: AnchorMode } {
  if (values.run !== undefined && values.all) throw new UsageError('give --run ID or --all, not both');
  return {
    workspace: ctx.workspace,
    ...(values.run === undefined ? {} : { runId: values.run }),
    ...(values.all ? { all: true } : {}),
    anchors: values.anchors,
  };
}

const push = defineCommand({
  name: 'push',
  usage: 'push [--run ID | --all] [--remote NAME|URL] [--anchors with|only|none]',
  summary: 'Publish runs under refs/agentgate/records/ with one git push; never forced.',
  description:
    'Default: every run of this workspace recorded on this machine, with its gate verdicts, and the verdicts recorded on this machine of runs fetched from elsewhere (their records and other verdicts stay where they came from: --run ID or --all publishes them). One ref per iteration and per verdict; a ref the remote already holds with other content is refused with PUSH_REJECTED and the others still land.',
  options: { ...SELECT, remote: REMOTE, ...ANCHORS },
  positionals: { required: [] },
  examples: [
    'push --run "$RUN" --json',
    'push --all --remote https://github.com/acme/shop.git',
    'push --anchors only',
  ],
  async run(ctx, values) {
    const result = await (await sharing(ctx, values.anchors)).push(selection(ctx, values), values.remote);
    return {
      json: result,
      human: () =>
        result.refs === 0
          ? 'No run records, gate verdicts or anchors to publish.'
          : `Published ${result.runs.length} run(s), ${result.gates} gate verdict(s) and ${result.anchors.length} anchor(s) to ${result.remote}: ${result.updated.length} ref(s) new, ${result.upToDate.length} already there.`,
    };
  },
});

const fetch = defineCommand({
  name: 'fetch',
  usage: 'fetch [--run ID | --all] [--remote NAME|URL] [--anchors with|only|none]',
  summary: 'Fetch run records from the remote (only what is new) and rebuild them in the local home.',
  description:
    'Every record is checked before it is used; refused records are listed with the reason. An anchor is kept only when it recomputes the same from the records and git here (with --run, only anchors naming that run).',
  options: { ...SELECT, remote: REMOTE, ...ANCHORS },
  positionals: { required: [] },
  examples: ['fetch --json', 'fetch --run "$RUN" --remote origin'],
  async run(ctx, values) {
    const result = await (await sharing(ctx, values.anchors)).fetch(selection(ctx, values), values.remote);
    return receiveResult(result, `from ${result.remote ?? ''}`);
  },
});

const exportCommand = defineCommand({
  name: 'export',
  usage: 'export [--run ID | --all] -o FILE [--anchors with|only|none]',
  summary:
    'Write runs (default: every run of this workspace recorded here, and the verdicts recorded here of runs fetched from elsewhere) as one git bundle file.',
  options: {
    ...SELECT,
    output: {
      type: 'string',
      short: 'o',
      valueName: 'FILE',
      description: 'the bundle file to write',
      required: true,
    },
    ...ANCHORS,
  },
  positionals: { required: [] },
  examples: ['export --run "$RUN" -o agentgate.bundle'],
  async run(ctx, values) {
    const result = await (await sharing(ctx, values.anchors)).export(selection(ctx, values), values.output);
    return {
      json: result,
      human: () =>
        `Wrote ${result.refs} ref(s) of ${result.runs.length} run(s), ${result.gates} gate verdict(s) and ${result.anchors.length} anchor(s) to ${result.file}.`,
    };
  },
});

const importCommand = defineCommand({
  name: 'import',
  usage: 'import FILE [--anchors with|only|none]',
  summary:
    'Verify a bundle written by "export", take its records into this repository and rebuild them in the local home.',
  description:
    'A damaged or foreign file is BUNDLE_INVALID and changes nothing. An anchor is kept only when it recomputes the same from the records and git here.',
  options: { ...ANCHORS },
  positionals: { required: ['FILE'] },
  examples: ['import agentgate.bundle -C "$WS"'],
  async run(ctx, values, [file]) {
    const result = await (
      await sharing(ctx, values.anchors)
    ).import(ctx.workspace, file as string, undefined, { anchors: values.anchors });
    return receiveResult(result, `from ${result.file ?? ''}`);
  },
});

function receiveResult(result: ReceiveResult, source: string): CommandResult {
  return {
    json: result,
    human: () =>
      [
        `Rebuilt ${result.snapshots} snapshot(s) and ${result.gates} gate verdict(s) of ${result.runs.length} run(s) ${source}; ${result.unchanged} already here; kept ${result.anchors.length} anchor(s).`,
      ].join('\n'),
    notices: result.refused.map((r) => `refused ${r.ref}: ${r.reason}`),
  };
}

export const SHARING_COMMANDS: Command[] = [push, fetch, exportCommand, importCommand];
