import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OnDirty } from '../../../types/config.js';
import { constants as osConstants } from 'node:os';
import type { AgentOutcome, DiffStats, FileChange, Snapshot } from '../../../types/snapshot.js';
import { InvalidArgumentError, SnapshotNotFoundError, UsageError } from '../../errors.js';
import type { Context } from '../context.js';
import { assertSafeId } from '../../store/paths.js';
import { paint, printable, short, storeWarning, table } from '../output.js';
import { atMostOne, CI_OPTION, defineCommand, type Command, type CommandResult } from '../spec.js';
import { appendKeyValues, detectCi, errorAnnotations, githubFileFor } from '../../ci/github.js';

/** verify's exit status when a check fails, apart from 1 (the tool itself failed) and 2 (usage). */
export const VERIFY_FAILED_EXIT = 3;

const RUN_ID = {
  type: 'string',
  valueName: 'ID',
  description: 'the run id: letters, digits, ".", "_" and "-"',
} as const;

/** before's options besides --run, which iterate takes too. */
const BEFORE_OPTIONS = {
  'on-dirty': {
    type: 'string',
    choices: OnDirty.options,
    description:
      'what to do with uncommitted work: commit it as "[agentgate] WIP before run", or refuse with DIRTY_WORKSPACE',
    defaultText: 'onDirty in the config, else wip-commit',
  },
  branch: {
    type: 'string',
    valueName: 'NAME',
    description:
      'commit the run on branch NAME instead of the checked-out one: created at HEAD when missing (BRANCH_EXISTS when it is at another commit), HEAD is switched to it without touching files, and your branch never moves',
    defaultText: 'the checked-out branch',
  },
  init: {
    type: 'boolean',
    description:
      'initialise a directory that is not a repository yet (branch main) and commit its files as the first commit; nested repositories are left out and listed',
  },
  'restart-from': {
    type: 'integer',
    valueName: 'N',
    description:
      "retry from a known point: the next iteration starts from iteration N's after commit (0: the run's start), where HEAD must be; recorded, so verify accepts it. Without it, a HEAD that does not build on the run's last iteration is RUN_DIVERGED",
  },
} as const;

const before = defineCommand({
  name: 'before',
  usage: 'before --run ID [--on-dirty wip-commit|error] [--branch NAME] [--init] [--restart-from N]',
  summary:
    "Capture and record the before state of the run's next iteration (uncommitted work becomes a WIP commit).",
  options: { run: { ...RUN_ID, required: true }, ...BEFORE_OPTIONS },
  positionals: { required: [] },
  examples: [
    'before --run "$RUN" -C "$WS" --json',
    'before --run "$RUN" --branch "agentgate/$RUN" -C "$WS"',
    'before --run "$RUN" -C ./new-project --init',
    'before --run "$RUN" --restart-from 2 -C "$WS"',
  ],
  async run(ctx, values) {
    const { 'on-dirty': onDirty, branch, 'restart-from': restartFrom } = values;
    const snapshotter = await ctx.snapshotter();
    const state = await snapshotter.captureBeforeState(ctx.workspace, {
      runId: values.run,
      init: values.init,
      ...(onDirty ? { onDirty } : {}),
      ...(branch === undefined ? {} : { branch }),
      ...(restartFrom === undefined ? {} : { restartFrom }),
    });
    return {
      json: state,
      human: () =>
        `Run ${state.runId}: next iteration starts at ${short(state.sha)} on ${printable(state.branch)} (${state.headState})` +
        (state.wipSha ? `\nUncommitted work was saved as WIP commit ${short(state.wipSha)}.` : '') +
        (state.nestedRepositories?.length
          ? `\nNested repositories left out: ${printable(state.nestedRepositories.join(', '))}`
          : ''),
    };
  },
});

/** after's options but --before, which iterate takes too (it takes its own before state). */
const AFTER_OPTIONS = {
  run: { ...RUN_ID, required: true },
  iteration: {
    type: 'integer',
    valueName: 'N',
    description: 'the iteration number, 0 or more; each number once per run',
    required: true,
  },
  task: {
    type: 'string',
    valueName: 'TEXT',
    description: 'the task prompt; its first 100 characters go into the commit message as "Task:"',
  },
  'task-file': { type: 'string', valueName: 'F', description: 'read the task prompt from file F' },
  gate: {
    type: 'string',
    valueName: 'TEXT',
    description:
      'a label for the gate plan that checks the iteration (its source text or name), recorded on one line as "Gate:"',
  },
  'gate-file': {
    type: 'string',
    valueName: 'F',
    description: 'read the gate label from file F (its text, not its name, is recorded)',
  },
  ci: {
    ...CI_OPTION,
    description: 'GitHub Actions integration: github writes step outputs/annotations, none turns it off',
  },
} as const;

const after = defineCommand({
  name: 'after',
  usage:
    'after --run ID --iteration N [--task TEXT | --task-file F] [--gate TEXT | --gate-file F] [--before SHA] [--ci github|none]',
  summary:
    'Stage everything, commit the iteration, compute stats, write the patch artifact and store the snapshot.',
  options: {
    ...AFTER_OPTIONS,
    before: {
      type: 'string',
      valueName: 'SHA',
      description: "the iteration's start (a full or abbreviated SHA or any revision)",
      defaultText: "the run's recorded before state",
    },
  },
  positionals: { required: [] },
  examples: ['after --run "$RUN" --iteration 1 --task-file task.md --gate "npm test" -C "$WS" --json'],
  async run(ctx, values) {
    const outputFile = githubFileFor(values.ci, 'GITHUB_OUTPUT');
    const labels = await afterLabels(values);
    const snapshotter = await ctx.snapshotter();
    const snapshot = await snapshotter.captureAfterState(ctx.workspace, null, {
      runId: values.run,
      iteration: values.iteration,
      ...labels,
      ...(values.before === undefined ? {} : { beforeSha: values.before }),
    });
    if (outputFile !== null) await appendKeyValues(outputFile, afterOutputs(snapshot, labels.taskPrompt));
    return snapshotResult(snapshot);
  },
});

const iterate = defineCommand({
  name: 'iterate',
  usage:
    'iterate --run ID --iteration N [--task TEXT | --task-file F] [--gate TEXT | --gate-file F] [--on-dirty wip-commit|error] [--branch NAME] [--init] [--restart-from N] [--ci github|none] -- CMD [ARG...]',
  summary:
    "One whole iteration in one process: before, then CMD (the agent) in the workspace, then after, whatever CMD's exit status.",
  description:
    "CMD gets our stdin, stdout and stderr (with --json its stdout goes to our stderr, so that stdout stays one JSON document) and the signals we receive (SIGINT, SIGTERM, SIGHUP). Prints the snapshot plus agent: { exitCode, signal, durationMs }. Exit status: CMD's when it failed (128 + the signal number when a signal ended it), else 0; 1 when the iteration could not be recorded. A CMD that cannot start is AGENT_NOT_STARTED (exit 1) with the before state recorded and no snapshot.",
  options: { ...AFTER_OPTIONS, ...BEFORE_OPTIONS },
  positionals: { required: ['CMD'], rest: 'ARG' },
  examples: [
    'iterate --run "$RUN" --iteration 1 --task-file task.md -C "$WS" --json -- my-agent --prompt-file task.md',
  ],
  async run(ctx, values, argv) {
    const outputFile = githubFileFor(values.ci, 'GITHUB_OUTPUT');
    const labels = await afterLabels(values);
    const { 'on-dirty': onDirty, branch, 'restart-from': restartFrom } = values;
    const snapshotter = await ctx.snapshotter();
    const snapshot = await snapshotter.iterate(ctx.workspace, {
      runId: values.run,
      iteration: values.iteration,
      ...labels,
      ...(onDirty ? { onDirty } : {}),
      ...(branch === undefined ? {} : { branch }),
      ...(restartFrom === undefined ? {} : { restartFrom }),
      init: values.init,
      agent: { argv, stdoutToStderr: ctx.json },
    });
    if (outputFile !== null) await appendKeyValues(outputFile, afterOutputs(snapshot, labels.taskPrompt));
    const { agent } = snapshot;
    const result = snapshotResult(snapshot);
    return {
      ...result,
      human: (colour) => `${result.human(colour)}\n  agent: ${agentText(agent)}`,
      exitCode: agentExitStatus(agent),
    };
  },
});

/** The task and gate labels of after and iterate, from their text or their file. */
async function afterLabels(values: {
  task?: string | undefined;
  'task-file'?: string | undefined;
  gate?: string | undefined;
  'gate-file'?: string | undefined;
}): Promise<{ taskPrompt?: string; gatePlanSource?: string }> {
  atMostOne(values, ['task', 'task-file']);
  atMostOne(values, ['gate', 'gate-file']);
  const taskPrompt =
    values['task-file'] === undefined
      ? values.task
      : await readOptionFile(values['task-file'], '--task-file');
  const gatePlanSource =
    values['gate-file'] === undefined
      ? values.gate
      : await readOptionFile(values['gate-file'], '--gate-file');
  return {
    ...(taskPrompt === undefined ? {} : { taskPrompt }),
    ...(gatePlanSource === undefined ? {} : { gatePlanSource }),
  };
}

/** The agent's status as ours: its exit code when it failed, 128 + the signal's number when a signal ended it, else 0. */
function agentExitStatus(agent: AgentOutcome): number {
  if (agent.signal !== null) return 128 + (osConstants.signals[agent.signal as NodeJS.Signals] ?? 0);
  return agent.exitCode ?? 1;
}

function agentText(agent: AgentOutcome): string {
  const how = agent.signal !== null ? `ended by ${agent.signal}` : `exited ${String(agent.exitCode)}`;
  return `${how} after ${(agent.durationMs / 1000).toFixed(1)} s`;
}

const SNAPSHOT_KEY = 'a snapshot id, or a full or abbreviated after SHA that names one snapshot';

const show = defineCommand({
  name: 'show',
  usage: 'show ID',
  summary: 'Show one snapshot.',
  description: `ID is ${SNAPSHOT_KEY}.`,
  options: {},
  positionals: { required: ['ID'] },
  examples: ['show 3f2a9c1e0b --json'],
  async run(ctx, _values, [id]) {
    const snapshotter = await ctx.snapshotter();
    return snapshotResult(await snapshotter.getSnapshot(id));
  },
});

const list = defineCommand({
  name: 'list',
  usage: 'list [--run ID]',
  summary: 'List snapshots, by run then iteration.',
  options: { run: { ...RUN_ID, description: 'only the snapshots of this run' } },
  positionals: { required: [] },
  examples: ['list --run "$RUN"'],
  async run(ctx, values) {
    const runId = values.run;
    const listed =
      runId === undefined
        ? await ctx.store.list()
        : await ctx.store.inspectRun(assertSafeId(runId, 'run id'));
    const local = ctx.localPaths;
    const snapshots = await Promise.all(listed.snapshots.map((s) => local.snapshot(s)));
    return {
      json: snapshots,
      // stdout stays Snapshot[]; with --json, the files that do not load are named on stderr.
      warnings: listed.problems.map(storeWarning),
      human: (colour) => {
        const rows = snapshots.map((s) => [
          s.runId,
          String(s.iteration),
          s.id,
          String(s.filesChanged),
          `+${s.insertions}`,
          `-${s.deletions}`,
          short(s.afterSha),
          s.patchPath ?? '-',
        ]);
        const warnings = listed.problems.map((p) =>
          paint(`warning: ${p.code}: ${printable(p.message)}`, 'yellow', colour),
        );
        return [
          rows.length
            ? table(['RUN', 'ITER', 'ID', 'FILES', '+', '-', 'AFTER', 'PATCH'], rows)
            : 'No snapshots.',
          ...warnings,
        ].join('\n');
      },
    };
  },
});

const runs = defineCommand({
  name: 'runs',
  usage: 'runs',
  summary: 'List run records.',
  options: {},
  positionals: { required: [] },
  examples: ['runs --json'],
  async run(ctx) {
    const listed = await ctx.store.listRuns();
    const local = ctx.localPaths;
    const runs = await Promise.all(listed.runs.map((r) => local.run(r)));
    return {
      json: runs,
      warnings: listed.problems.map(storeWarning),
      human: (colour) => {
        const rows = runs.map((r) => [
          r.runId,
          String(r.snapshotIds.length),
          short(r.before?.sha),
          r.updatedAt,
          r.workspace,
        ]);
        const warnings = listed.problems.map((p) =>
          paint(`warning: ${p.code}: ${printable(p.message)}`, 'yellow', colour),
        );
        return [
          rows.length ? table(['RUN', 'SNAPSHOTS', 'BEFORE', 'UPDATED', 'WORKSPACE'], rows) : 'No runs.',
          ...warnings,
        ].join('\n');
      },
    };
  },
});

const patch = defineCommand({
  name: 'patch',
  usage: 'patch ID [-o, --output FILE]',
  summary: "Print (or write to FILE) the snapshot's unified diff.",
  description: `ID is ${SNAPSHOT_KEY}. The diff is the patch artifact when it is intact, else regenerated from git, byte for byte. With --json: { "id", "diff" }, or { "id", "path" } with -o.`,
  options: {
    output: {
      type: 'string',
      short: 'o',
      valueName: 'FILE',
      description: 'write the diff to FILE (atomically) instead of printing it',
    },
  },
  positionals: { required: ['ID'] },
  examples: ['patch 3f2a9c1e0b -o iteration-1.diff'],
  async run(ctx, values, [id]): Promise<CommandResult> {
    const snapshotter = await ctx.snapshotter();
    const snapshot = await snapshotter.getSnapshot(id);
    const output = values.output;
    if (output !== undefined) {
      await snapshotter.generatePatch(snapshot, output);
      return { json: { id: snapshot.id, path: output }, human: () => `Wrote ${output}` };
    }
    const dir = await mkdtemp(join(tmpdir(), 'agentgate-patch-'));
    const file = join(dir, 'patch.diff');
    const cleanup = () => rm(dir, { recursive: true, force: true });
    try {
      await snapshotter.generatePatch(snapshot, file);
    } catch (error) {
      await cleanup();
      throw error;
    }
    // --json promises exactly one JSON document on stdout, so the diff travels inside one: streamed
    // from the file and escaped chunk by chunk (the same bytes as JSON.stringify, never held whole).
    if (ctx.json)
      return {
        streamJson: {
          prefix: `{\n  "id": ${JSON.stringify(snapshot.id)},\n  "diff": "`,
          file,
          suffix: '"\n}\n',
        },
        cleanup,
      };
    return { streamFile: file, cleanup };
  },
});

const stats = defineCommand({
  name: 'stats',
  usage: 'stats FROM TO | stats SNAPSHOT | stats --run ID',
  summary: 'Diff statistics between two revisions, of one snapshot, or of a whole run.',
  description: `FROM TO: any two revisions of the workspace. SNAPSHOT: ${SNAPSHOT_KEY}; its before..after. --run ID: from the run's first snapshot's before SHA to its last snapshot's after SHA. A snapshot or run is read in its recorded workspace unless -C is given.`,
  options: {
    run: {
      ...RUN_ID,
      description: "the whole run: from its first snapshot's before SHA to its last snapshot's after SHA",
    },
  },
  positionals: { required: [], optional: ['FROM', 'TO'] },
  examples: ['stats HEAD~3 HEAD', 'stats --run "$RUN" --json'],
  async run(ctx, values, positionals) {
    const result = await statsFor(ctx, values.run, positionals);
    return { json: result, human: () => statsText(result) };
  },
});

/** FROM TO in the workspace; SNAPSHOT or --run ID in the recorded workspace unless -C names one. */
async function statsFor(ctx: Context, runId: string | undefined, positionals: string[]): Promise<DiffStats> {
  const [from, to] = positionals;
  if (runId !== undefined && positionals.length > 0)
    throw new UsageError('give FROM TO, SNAPSHOT or --run ID, not several');
  const snapshotter = await ctx.snapshotter();
  if (from !== undefined && to !== undefined) return snapshotter.stats(ctx.workspace, from, to);
  let range: Snapshot[];
  if (from !== undefined) range = [await snapshotter.getSnapshot(from)];
  else if (runId !== undefined) range = await snapshotter.listByRun(runId);
  else
    throw new UsageError(
      'give FROM TO, SNAPSHOT or --run ID; run "agentgate-snapshot stats --help" for the forms',
    );
  const first = range[0];
  const last = range[range.length - 1];
  if (first === undefined || last === undefined) {
    throw new SnapshotNotFoundError(`run ${runId ?? ''} has no snapshots yet; "after" records them`, {
      details: { runId },
    });
  }
  return snapshotter.stats(
    ctx.workspaceGiven ? ctx.workspace : first.workspace,
    first.beforeSha,
    last.afterSha,
  );
}

const verify = defineCommand({
  name: 'verify',
  usage:
    'verify [ID | --run ID | --all | --attestation FILE] [--require-gate NAME]... [--each-iteration] [--ci github|none]',
  summary:
    'Validate stored snapshots against git, their artifacts and their runs; exits 3 when a check fails.',
  description:
    'Exit status: 0 every check passed; 3 a check failed (the report says which); 1 verify itself could not run, NOTHING_TO_VERIFY included (an empty or wrong home verifies nothing and never passes); 2 usage.',
  options: {
    run: { ...RUN_ID, description: 'every snapshot of this run, and the run record' },
    all: {
      type: 'boolean',
      description: 'the whole store, including files that no longer load (the default when nothing is given)',
    },
    'require-gate': {
      type: 'string',
      valueName: 'NAME',
      multiple: true,
      description:
        "with --run: fail unless the newest verdict of gate NAME on the run's last iteration is an observed pass",
    },
    'each-iteration': { type: 'boolean', description: 'ask --require-gate of every iteration of the run' },
    ci: {
      ...CI_OPTION,
      description:
        'GitHub Actions integration: github writes failed checks as ::error annotations, none turns it off',
    },
    attestation: {
      type: 'string',
      valueName: 'FILE',
      description: 'check a statement written by "attest" against the local records instead',
    },
  },
  positionals: { required: [], optional: ['ID'] },
  examples: [
    'verify --run "$RUN"',
    'verify --run "$RUN" --require-gate test --require-gate lint',
    'verify --attestation agentgate.intoto.json',
  ],
  async run(ctx, values, [id]) {
    const ci = detectCi(values.ci);
    const chosen = [
      id !== undefined,
      values.run !== undefined,
      values.all,
      values.attestation !== undefined,
    ].filter(Boolean).length;
    if (chosen > 1) throw new UsageError('give one of ID, --run ID, --all or --attestation FILE');
    if (values.attestation !== undefined)
      return (await import('./attest.js')).verifyAttestation(ctx, values.attestation, ci.mode === 'github');
    const target =
      id !== undefined ? { id } : values.run !== undefined ? { runId: values.run } : { all: true as const };
    if ((values['require-gate'].length > 0 || values['each-iteration']) && !('runId' in target))
      throw new UsageError('--require-gate and --each-iteration need --run ID');
    if (values['each-iteration'] && values['require-gate'].length === 0)
      throw new UsageError('--each-iteration asks --require-gate NAME of every iteration: give one');
    // Snapshot checks, plus every gate verdict of the runs covered (src/gates/verify.ts).
    const gates = await ctx.gates();
    const report = await gates.verify(target, {
      requireGates: values['require-gate'],
      eachIteration: values['each-iteration'],
    });
    return {
      json: report,
      exitCode: report.ok ? 0 : VERIFY_FAILED_EXIT,
      ...(ci.mode === 'github' ? { workflowCommands: errorAnnotations(report.checks) } : {}),
      human: (colour) => {
        const rows = report.checks.map((c) => [
          c.ok ? paint('ok', 'green', colour) : paint('FAIL', 'red', colour),
          c.snapshotId ?? '-',
          c.check,
          c.detail,
        ]);
        const verdict = report.ok
          ? paint(`All ${report.checks.length} checks passed.`, 'green', colour)
          : paint(
              `${report.checks.filter((c) => !c.ok).length} of ${report.checks.length} checks failed.`,
              'red',
              colour,
            );
        return `${rows.length ? `${table(['', 'SNAPSHOT', 'CHECK', 'DETAIL'], rows)}\n` : ''}${verdict}`;
      },
    };
  },
});

const del = defineCommand({
  name: 'delete',
  usage: 'delete ID',
  summary: "Remove a snapshot's metadata and its link from its run (the commit stays in git).",
  options: {},
  positionals: { required: ['ID'] },
  examples: ['delete 3f2a9c1e0b'],
  async run(ctx, _values, [id]) {
    const snapshotter = await ctx.snapshotter();
    const deleted = await snapshotter.delete(id);
    return { json: { deleted }, human: () => `Deleted ${deleted}.` };
  },
});

const cherryPick = defineCommand({
  name: 'cherry-pick',
  usage: 'cherry-pick ID [--onto BRANCH]',
  summary: "Apply a snapshot's whole change (before..after) as one commit on BRANCH.",
  options: {
    onto: {
      type: 'string',
      valueName: 'BRANCH',
      description: 'the branch to commit on',
      defaultText: 'the current branch',
    },
  },
  positionals: { required: ['ID'] },
  examples: ['cherry-pick 3f2a9c1e0b --onto release'],
  async run(ctx, values, [id]) {
    const snapshotter = await ctx.snapshotter();
    const commit = await snapshotter.cherryPick(id, values.onto);
    return {
      json: commit,
      human: () =>
        `Created ${short(commit.sha)}${values.onto ? ` on ${printable(values.onto)}` : ''}: ${printable(commit.message.split('\n')[0] ?? '')}`,
    };
  },
});

export const RUN_SNAPSHOT_COMMANDS: Command[] = [
  before,
  after,
  iterate,
  show,
  list,
  runs,
  patch,
  stats,
  verify,
  del,
  cherryPick,
];

function snapshotResult(s: Snapshot): { json: Snapshot; human: (colour: boolean) => string } {
  return {
    json: s,
    human: () =>
      [
        `Snapshot ${s.id}: run ${s.runId} iteration ${s.iteration} on ${printable(s.branch)}`,
        `  ${short(s.beforeSha)}..${short(s.afterSha)}  ${s.filesChanged} files, +${s.insertions} -${s.deletions}${s.beforeSha === s.afterSha ? ' (no change)' : ''}`,
        `  patch: ${printable(s.patchPath ?? '-')}`,
        ...(s.files.length ? ['', filesTable(s.files)] : []),
      ].join('\n'),
  };
}

function statsText(s: DiffStats): string {
  return `${s.filesChanged} distinct files changed, +${s.insertions} -${s.deletions}${s.files.length ? `\n\n${filesTable(s.files)}` : ''}`;
}

function filesTable(files: FileChange[]): string {
  return table(
    ['STATUS', '+', '-', 'PATH'],
    files.map((f) => [
      f.status,
      f.binary ? 'bin' : String(f.insertions),
      f.binary ? 'bin' : String(f.deletions),
      f.oldPath ? `${f.oldPath} -> ${f.path}` : f.path,
    ]),
  );
}

async function readOptionFile(path: string, flag: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (cause) {
    throw new InvalidArgumentError(
      `cannot read ${flag} ${path}: ${(cause as NodeJS.ErrnoException).code ?? 'error'}`,
      { cause, details: { option: flag } },
    );
  }
}

// --- GitHub Actions (--ci github|none; on by default when GITHUB_ACTIONS=true) ---

/** The step outputs of `after` (CONTRACT.md), plus the run, iteration and the task as given. */
function afterOutputs(s: Snapshot, task: string | undefined): Record<string, string | number> {
  return {
    'snapshot-id': s.id,
    'after-sha': s.afterSha,
    'patch-path': s.patchPath ?? '',
    'files-changed': s.filesChanged,
    insertions: s.insertions,
    deletions: s.deletions,
    'run-id': s.runId,
    iteration: s.iteration,
    // Step outputs share a 1 MiB budget per job: a long task file is cut. A task file's final line
    // break is no part of the task (it read as an extra blank line at the end of the output).
    task: (task ?? '').slice(0, 64 * 1024).replace(/(\r?\n)+$/, ''),
  };
}
