import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OnDirty } from '../../../types/config.js';
import type { DiffStats, FileChange, Snapshot } from '../../../types/snapshot.js';
import { InvalidArgumentError, UsageError } from '../../errors.js';
import { str, type Context } from '../context.js';
import { paint, short, table } from '../output.js';
import type { CommandResult, CommandSpec, Values } from '../spec.js';

const before: CommandSpec = {
  name: 'before',
  usage: 'before --run ID [--on-dirty wip-commit|error]',
  summary: 'Capture and record the before state of the run\'s next iteration (uncommitted work becomes a WIP commit).',
  options: { run: { type: 'string' }, 'on-dirty': { type: 'string' } },
  positionals: { required: [] },
  async run(ctx, values) {
    const onDirty = values['on-dirty'] === undefined ? undefined : choice(OnDirty.options, values['on-dirty'], '--on-dirty');
    const state = await ctx.snapshotter.captureBeforeState(ctx.workspace, { runId: required(values, 'run'), ...(onDirty ? { onDirty } : {}) });
    return {
      json: state,
      human: () =>
        `Run ${state.runId}: next iteration starts at ${short(state.sha)} on ${state.branch} (${state.headState})` +
        (state.wipSha ? `\nUncommitted work was saved as WIP commit ${short(state.wipSha)}.` : ''),
    };
  },
};

const after: CommandSpec = {
  name: 'after',
  usage: 'after --run ID --iteration N [--task TEXT | --task-file F] [--gate TEXT] [--before SHA]',
  summary: 'Stage everything, commit the iteration, compute stats, write the patch artifact and store the snapshot.',
  options: {
    run: { type: 'string' },
    iteration: { type: 'string' },
    task: { type: 'string' },
    'task-file': { type: 'string' },
    gate: { type: 'string' },
    before: { type: 'string' },
  },
  positionals: { required: [] },
  async run(ctx, values) {
    if (values.task !== undefined && values['task-file'] !== undefined) throw new UsageError('give --task or --task-file, not both');
    const taskFile = str(values['task-file']);
    const taskPrompt = taskFile === undefined ? str(values.task) : await readTaskFile(taskFile);
    const snapshot = await ctx.snapshotter.captureAfterState(ctx.workspace, null, {
      runId: required(values, 'run'),
      iteration: iteration(required(values, 'iteration')),
      ...(taskPrompt === undefined ? {} : { taskPrompt }),
      ...(typeof values.gate === 'string' ? { gatePlanSource: values.gate } : {}),
      ...(typeof values.before === 'string' ? { beforeSha: values.before } : {}),
    });
    return snapshotResult(snapshot);
  },
};

const show: CommandSpec = {
  name: 'show',
  usage: 'show ID',
  summary: 'Show one snapshot; ID may be a snapshot id or a full or abbreviated after SHA.',
  options: {},
  positionals: { required: ['ID'] },
  async run(ctx, _values, [id]) {
    return snapshotResult(await ctx.snapshotter.getSnapshot(id as string));
  },
};

const list: CommandSpec = {
  name: 'list',
  usage: 'list [--run ID]',
  summary: 'List snapshots, by run then iteration.',
  options: { run: { type: 'string' } },
  positionals: { required: [] },
  async run(ctx, values) {
    const runId = str(values.run);
    const listed = runId === undefined ? await ctx.snapshotter.store.list() : { snapshots: await ctx.snapshotter.listByRun(runId), problems: [] };
    return {
      json: listed.snapshots,
      human: (colour) => {
        const rows = listed.snapshots.map((s) => [s.runId, String(s.iteration), s.id, String(s.filesChanged), `+${s.insertions}`, `-${s.deletions}`, short(s.afterSha), s.patchPath ?? '-']);
        const warnings = listed.problems.map((p) => paint(`warning: ${p.code}: ${p.message}`, 'yellow', colour));
        return [rows.length ? table(['RUN', 'ITER', 'ID', 'FILES', '+', '-', 'AFTER', 'PATCH'], rows) : 'No snapshots.', ...warnings].join('\n');
      },
    };
  },
};

const runs: CommandSpec = {
  name: 'runs',
  usage: 'runs',
  summary: 'List run records.',
  options: {},
  positionals: { required: [] },
  async run(ctx) {
    const listed = await ctx.snapshotter.store.listRuns();
    return {
      json: listed.runs,
      human: (colour) => {
        const rows = listed.runs.map((r) => [r.runId, String(r.snapshotIds.length), short(r.before?.sha), r.updatedAt, r.workspace]);
        const warnings = listed.problems.map((p) => paint(`warning: ${p.code}: ${p.message}`, 'yellow', colour));
        return [rows.length ? table(['RUN', 'SNAPSHOTS', 'BEFORE', 'UPDATED', 'WORKSPACE'], rows) : 'No runs.', ...warnings].join('\n');
      },
    };
  },
};

const patch: CommandSpec = {
  name: 'patch',
  usage: 'patch ID [-o FILE]',
  summary: 'Print (or write to FILE) the snapshot\'s unified diff; regenerated from git when the artifact is gone. With --json: { "id", "diff" }.',
  options: { output: { type: 'string', short: 'o' } },
  positionals: { required: ['ID'] },
  async run(ctx, values, [id]): Promise<CommandResult> {
    const snapshot = await ctx.snapshotter.getSnapshot(id as string);
    const output = str(values.output);
    if (output !== undefined) {
      await ctx.snapshotter.generatePatch(snapshot, output, givenPaths(ctx, values));
      return { json: { id: snapshot.id, path: output }, human: () => `Wrote ${output}` };
    }
    // --json promises exactly one JSON document on stdout, so the diff travels inside one.
    if (ctx.json) {
      const diff = await ctx.snapshotter.generatePatch(snapshot, undefined, givenPaths(ctx, values));
      return { json: { id: snapshot.id, diff }, human: () => diff };
    }
    const dir = await mkdtemp(join(tmpdir(), 'agentgate-patch-'));
    const file = join(dir, 'patch.diff');
    await ctx.snapshotter.generatePatch(snapshot, file, givenPaths(ctx, values));
    return { streamFile: file, cleanup: () => rm(dir, { recursive: true, force: true }) };
  },
};

const stats: CommandSpec = {
  name: 'stats',
  usage: 'stats FROM TO',
  summary: 'Diff statistics between any two revisions of the workspace.',
  options: {},
  positionals: { required: ['FROM', 'TO'] },
  async run(ctx, _values, [from, to]) {
    const result = await ctx.snapshotter.stats(ctx.workspace, from as string, to as string);
    return { json: result, human: () => statsText(result) };
  },
};

const verify: CommandSpec = {
  name: 'verify',
  usage: 'verify [ID | --run ID | --all]',
  summary: 'Validate stored snapshots against git, their artifacts and their runs; exits 1 when a check fails.',
  options: { run: { type: 'string' }, all: { type: 'boolean' } },
  positionals: { required: [], optional: ['ID'] },
  async run(ctx, values, [id]) {
    const chosen = [id !== undefined, values.run !== undefined, values.all === true].filter(Boolean).length;
    if (chosen > 1) throw new UsageError('give one of ID, --run ID or --all');
    const target = id !== undefined ? { id } : typeof values.run === 'string' ? { runId: values.run } : { all: true as const };
    const report = await ctx.snapshotter.verify(target, givenPaths(ctx, values));
    return {
      json: report,
      exitCode: report.ok ? 0 : 1,
      human: (colour) => {
        const rows = report.checks.map((c) => [c.ok ? paint('ok', 'green', colour) : paint('FAIL', 'red', colour), c.snapshotId ?? '-', c.check, c.detail]);
        const verdict = report.ok ? paint(`All ${report.checks.length} checks passed.`, 'green', colour) : paint(`${report.checks.filter((c) => !c.ok).length} of ${report.checks.length} checks failed.`, 'red', colour);
        return `${rows.length ? `${table(['', 'SNAPSHOT', 'CHECK', 'DETAIL'], rows)}\n` : ''}${verdict}`;
      },
    };
  },
};

const del: CommandSpec = {
  name: 'delete',
  usage: 'delete ID',
  summary: 'Remove a snapshot\'s metadata and its link from its run (the commit stays in git).',
  options: {},
  positionals: { required: ['ID'] },
  async run(ctx, _values, [id]) {
    const deleted = await ctx.snapshotter.delete(id as string);
    return { json: { deleted }, human: () => `Deleted ${deleted}.` };
  },
};

const cherryPick: CommandSpec = {
  name: 'cherry-pick',
  usage: 'cherry-pick ID [--onto BRANCH]',
  summary: 'Apply a snapshot\'s whole change as one commit on BRANCH (default: the current branch).',
  options: { onto: { type: 'string' } },
  positionals: { required: ['ID'] },
  async run(ctx, values, [id]) {
    const commit = await ctx.snapshotter.cherryPick(id as string, str(values.onto));
    return { json: commit, human: () => `Created ${short(commit.sha)}${values.onto ? ` on ${String(values.onto)}` : ''}: ${commit.message.split('\n')[0] ?? ''}` };
  },
};

export const RUN_SNAPSHOT_COMMANDS: CommandSpec[] = [before, after, show, list, runs, patch, stats, verify, del, cherryPick];

function snapshotResult(s: Snapshot): CommandResult {
  return {
    json: s,
    human: () =>
      [
        `Snapshot ${s.id}: run ${s.runId} iteration ${s.iteration} on ${s.branch}`,
        `  ${short(s.beforeSha)}..${short(s.afterSha)}  ${s.filesChanged} files, +${s.insertions} -${s.deletions}${s.beforeSha === s.afterSha ? ' (no change)' : ''}`,
        `  patch: ${s.patchPath ?? '-'}`,
        ...(s.files.length ? ['', filesTable(s.files)] : []),
      ].join('\n'),
  };
}

function statsText(s: DiffStats): string {
  return `${s.filesChanged} files, +${s.insertions} -${s.deletions}${s.files.length ? `\n\n${filesTable(s.files)}` : ''}`;
}

function filesTable(files: FileChange[]): string {
  return table(
    ['STATUS', '+', '-', 'PATH'],
    files.map((f) => [f.status, f.binary ? 'bin' : String(f.insertions), f.binary ? 'bin' : String(f.deletions), f.oldPath ? `${f.oldPath} -> ${f.path}` : f.path]),
  );
}

function required(values: Values, name: string): string {
  const value = values[name];
  if (typeof value !== 'string') throw new UsageError(`--${name} is required`);
  if (value.length === 0) throw new InvalidArgumentError(`--${name} must not be empty`);
  return value;
}

function iteration(text: string): number {
  if (!/^\d{1,9}$/.test(text)) throw new InvalidArgumentError(`--iteration must be a whole number from 0 up, not ${JSON.stringify(text.slice(0, 40))}`);
  return Number(text);
}

function choice<T extends string>(allowed: readonly T[], value: string | boolean, flag: string): T {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value)) return value as T;
  throw new InvalidArgumentError(`${flag} must be one of ${allowed.join(', ')}`);
}

async function readTaskFile(path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    throw new InvalidArgumentError(`cannot read --task-file ${path}: ${(cause as NodeJS.ErrnoException).code ?? 'error'}`, { cause });
  }
}

/** `-C` given on this machine stands in for a recorded workspace that is not here (runs that travel). */
function givenPaths(ctx: Context, values: Values): { workspace?: string } {
  return typeof values.workspace === 'string' ? { workspace: ctx.workspace } : {};
}
