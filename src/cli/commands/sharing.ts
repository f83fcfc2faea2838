import type { ReceiveResult } from '../../../types/sharing.js';
import { UsageError } from '../../errors.js';
import { Sharing } from '../../sharing/sharing.js';
import { str, type Context } from '../context.js';
import type { CommandResult, CommandSpec, Values } from '../spec.js';

/** Runs that travel: push, fetch, export, import (CONTRACT.md, "Runs that travel"). */
function sharing(ctx: Context): Sharing {
  const s = ctx.settings;
  return new Sharing({ home: s.home, artifactsDir: s.artifactsDir, identity: s.identity, gitTimeoutMs: s.gitTimeoutMs, lockTimeoutMs: s.lockTimeoutMs });
}

function selection(ctx: Context, values: Values): { workspace: string; runId?: string; all?: boolean } {
  const runId = str(values.run);
  if (runId !== undefined && values.all === true) throw new UsageError('give --run ID or --all, not both');
  return { workspace: ctx.workspace, ...(runId === undefined ? {} : { runId }), ...(values.all === true ? { all: true } : {}) };
}

const push: CommandSpec = {
  name: 'push',
  usage: 'push [--run ID | --all] [--remote NAME|URL]',
  summary: 'Publish runs (default: every run of this workspace; --all: every record in the repository) under refs/agentgate/records/ with one git push; never forced.',
  options: { run: { type: 'string' }, all: { type: 'boolean' }, remote: { type: 'string' } },
  positionals: { required: [] },
  async run(ctx, values) {
    const result = await sharing(ctx).push(selection(ctx, values), str(values.remote) ?? 'origin');
    return {
      json: result,
      human: () =>
        result.refs === 0
          ? 'No run records to publish.'
          : `Published ${result.runs.length} run(s) to ${result.remote}: ${result.updated.length} record(s) new, ${result.upToDate.length} already there.`,
    };
  },
};

const fetch: CommandSpec = {
  name: 'fetch',
  usage: 'fetch [--run ID | --all] [--remote NAME|URL]',
  summary: 'Fetch run records from the remote (only what is new) and rebuild them in the local home.',
  options: { run: { type: 'string' }, all: { type: 'boolean' }, remote: { type: 'string' } },
  positionals: { required: [] },
  async run(ctx, values) {
    const result = await sharing(ctx).fetch(selection(ctx, values), str(values.remote) ?? 'origin');
    return receiveResult(result, `from ${result.remote ?? ''}`);
  },
};

const exportCommand: CommandSpec = {
  name: 'export',
  usage: 'export [--run ID | --all] -o FILE',
  summary: 'Write runs (default: every run of this workspace) as one git bundle file.',
  options: { run: { type: 'string' }, all: { type: 'boolean' }, output: { type: 'string', short: 'o' } },
  positionals: { required: [] },
  async run(ctx, values) {
    const file = str(values.output);
    if (file === undefined) throw new UsageError('-o FILE is required');
    const result = await sharing(ctx).export(selection(ctx, values), file);
    return { json: result, human: () => `Wrote ${result.refs} record(s) of ${result.runs.length} run(s) to ${result.file}.` };
  },
};

const importCommand: CommandSpec = {
  name: 'import',
  usage: 'import FILE',
  summary: 'Verify a bundle written by "export", take its records into this repository and rebuild them in the local home.',
  options: {},
  positionals: { required: ['FILE'] },
  async run(ctx, _values, [file]) {
    const result = await sharing(ctx).import(ctx.workspace, file as string);
    return receiveResult(result, `from ${result.file ?? ''}`);
  },
};

function receiveResult(result: ReceiveResult, source: string): CommandResult {
  return {
    json: result,
    human: () =>
      [
        `Rebuilt ${result.snapshots} snapshot(s) of ${result.runs.length} run(s) ${source}; ${result.unchanged} already here.`,
        ...result.refused.map((r) => `refused ${r.ref}: ${r.reason}`),
      ].join('\n'),
  };
}

export const SHARING_COMMANDS: CommandSpec[] = [push, fetch, exportCommand, importCommand];
