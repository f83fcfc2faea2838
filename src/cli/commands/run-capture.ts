import { readFile } from 'node:fs/promises';
import { constants as osConstants } from 'node:os';
import { ON_DIRTY } from '../../../types/config.js';
import type { AgentOutcome, Snapshot } from '../../../types/snapshot.js';
import { InvalidArgumentError } from '../../errors.js';
import { printable, short } from '../output.js';
import { atMostOne, CI_OPTION, defineCommand, MAX_ITERATION } from '../spec.js';
import { appendableGithubFileFor, appendKeyValues } from '../../ci/github.js';
import { RUN_ID, snapshotResult } from './run-output.js';

/** before's options besides --run, which iterate takes too. */
const BEFORE_OPTIONS = {
  'on-dirty': {
    type: 'string',
    choices: ON_DIRTY,
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
    max: MAX_ITERATION,
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
    max: MAX_ITERATION,
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
    const outputFile = await appendableGithubFileFor(values.ci, 'GITHUB_OUTPUT');
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
  ownsStdio: true,
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
    // As gate: an empty CMD names nothing to start, so nothing (no before state, no WIP commit) is recorded.
    if (argv[0] === '') throw new InvalidArgumentError('give the command to run after "--"', { details: {} });
    const outputFile = await appendableGithubFileFor(values.ci, 'GITHUB_OUTPUT');
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
    // The cut is never inside a surrogate pair: its lone half would be written as U+FFFD.
    task: (task ?? '')
      .slice(0, 64 * 1024)
      .replace(/[\ud800-\udbff]$/, '')
      .replace(/(\r?\n)+$/, ''),
  };
}

/** `before`, `after` and `iterate`: the commands that capture a run's iterations. */
export const CAPTURE_COMMANDS = [before, after, iterate];
