import { MAX_DURATION_MS } from '../../../types/duration.js';
import { MAX_GATE_ATTEMPT, type GateResult } from '../../../types/gate.js';
import { UsageError } from '../../errors.js';
import {
  paint,
  paintCell,
  printable,
  short,
  storeWarning,
  table,
  VERIFY_FAILED_EXIT,
  type Colour,
} from '../output.js';
import { defineCommand, MAX_ITERATION, type Command, type CommandResult } from '../spec.js';

/** `gate`'s exit status per verdict (CONTRACT.md): 0 pass, 3 fail, 1 error (2 is usage). */
const EXIT: Record<GateResult['verdict'], number> = { pass: 0, fail: VERIFY_FAILED_EXIT, error: 1 };
const COLOUR: Record<GateResult['verdict'], Colour> = { pass: 'green', fail: 'red', error: 'red' };

/** The longest --timeout in seconds: every duration fits Node's timers (types/duration.ts). */
const MAX_TIMEOUT_S = Math.floor(MAX_DURATION_MS / 1000);

/** Signals passed on to the check's process group, so a cancelled CI job still records what happened. */
const FORWARDED: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

const RUN = { type: 'string', valueName: 'ID', description: 'the run' } as const;
const ITERATION = {
  type: 'integer',
  valueName: 'N',
  max: MAX_ITERATION,
  description: 'the iteration judged',
  defaultText: "the run's last",
} as const;
const NAME = {
  type: 'string',
  valueName: 'NAME',
  required: true,
  description: 'the gate: letters, digits, ".", "_" and "-" (test, lint, test-linux)',
} as const;
const JUNIT = {
  type: 'string',
  valueName: 'FILE',
  multiple: true,
  description: 'a JUnit XML report the check writes (relative to where it runs)',
} as const;
const MIN_TESTS = {
  type: 'integer',
  valueName: 'K',
  description: 'at least K tests must run',
  defaultText: '1 with --junit',
} as const;

const gate = defineCommand({
  name: 'gate',
  usage:
    'gate --run ID [--iteration N] --name NAME [--junit FILE]... [--timeout S] [--isolated] [--min-tests K] -- CMD [ARG...]',
  summary: "Run a check on an iteration's after tree and record its verdict (gate record|list|replay: more).",
  description: [
    'Without --isolated the workspace must be clean and at the after commit (GATE_TREE_MISMATCH); with it, CMD runs in a temporary checkout of that tree.',
    "CMD's output streams through (with --json, to stderr) and is kept whole in <artifacts>/<run>/iteration-<n>/gate-<name>-<attempt>.log.",
    'pass: CMD exited 0, the JUnit files show no failure or error, and at least --min-tests tests ran (with --junit, zero tests is a fail).',
    'Exit status: 0 pass, 3 fail, 1 error (CMD could not start, timed out, a JUnit file is missing or malformed: the reason starts with its code), 2 usage.',
    'Subcommands: gate record, gate list, gate replay.',
  ].join('\n'),
  options: {
    run: { ...RUN, required: true },
    iteration: ITERATION,
    name: NAME,
    junit: JUNIT,
    timeout: {
      type: 'integer',
      valueName: 'S',
      min: 1,
      max: MAX_TIMEOUT_S,
      description: `kill the whole process group after S seconds (1 to ${MAX_TIMEOUT_S}: about 24.8 days, the longest any duration can be)`,
    },
    isolated: { type: 'boolean', description: 'run in a temporary checkout of the after tree' },
    'min-tests': MIN_TESTS,
  },
  positionals: { required: ['CMD'], rest: 'ARG' },
  examples: [
    'gate --run "$RUN" --name test --junit junit.xml -- node --test --test-reporter=junit --test-reporter-destination=junit.xml',
  ],
  async run(ctx, values, command) {
    const gates = await ctx.gates();
    const result = await gates.run(ctx.workspace, {
      runId: values.run,
      ...(values.iteration === undefined ? {} : { iteration: values.iteration }),
      name: values.name,
      command,
      junit: values.junit,
      ...(values.timeout === undefined ? {} : { timeoutMs: values.timeout * 1000 }),
      isolated: values.isolated,
      ...(values['min-tests'] === undefined ? {} : { minTests: values['min-tests'] }),
      stdoutToStderr: ctx.json,
      forwardSignals: FORWARDED,
    });
    return verdictResult(result);
  },
});

const record = defineCommand({
  name: 'gate record',
  usage:
    'gate record --run ID [--iteration N] --name NAME --exit-code C [--junit FILE]... [--log FILE] [--duration-ms MS] [--min-tests K]',
  summary: 'Record a verdict observed elsewhere (a container, another runner): observed is false.',
  description:
    'The same verdict rules as "gate" apply to the exit code and JUnit files given; --log is copied into the artifacts with its sha256. Exit status: 0 pass, 3 fail, 1 error.',
  options: {
    run: { ...RUN, required: true },
    iteration: ITERATION,
    name: NAME,
    'exit-code': { type: 'integer', valueName: 'C', required: true, description: "the check's exit status" },
    junit: { ...JUNIT, description: 'a JUnit XML report of the check (relative to the current directory)' },
    log: { type: 'string', valueName: 'FILE', description: "the check's output" },
    'duration-ms': {
      type: 'integer',
      valueName: 'MS',
      max: MAX_DURATION_MS,
      description: 'how long the check ran',
      defaultText: '0',
    },
    'min-tests': MIN_TESTS,
  },
  positionals: { required: [] },
  examples: [
    'gate record --run "$RUN" --name test-container --exit-code 0 --junit out/junit.xml --log out/test.log',
  ],
  async run(ctx, values) {
    const gates = await ctx.gates();
    const result = await gates.record(ctx.workspace, {
      runId: values.run,
      ...(values.iteration === undefined ? {} : { iteration: values.iteration }),
      name: values.name,
      exitCode: values['exit-code'],
      junit: values.junit,
      ...(values.log === undefined ? {} : { logFile: values.log }),
      ...(values['duration-ms'] === undefined ? {} : { durationMs: values['duration-ms'] }),
      ...(values['min-tests'] === undefined ? {} : { minTests: values['min-tests'] }),
    });
    return verdictResult(result);
  },
});

const list = defineCommand({
  name: 'gate list',
  usage: 'gate list [--run ID] [--iteration N]',
  summary:
    'List recorded gate verdicts, oldest first (by startedAt; a fetched one no later than when it was received).',
  options: {
    run: { ...RUN, description: 'only this run' },
    iteration: { type: 'integer', valueName: 'N', max: MAX_ITERATION, description: 'only this iteration' },
  },
  positionals: { required: [] },
  examples: ['gate list --run "$RUN" --json'],
  async run(ctx, values) {
    await ctx.assertGivenWorkspace();
    const gates = await ctx.gates();
    const { results, problems } = await gates.list({
      ...(values.run === undefined ? {} : { runId: values.run }),
      ...(values.iteration === undefined ? {} : { iteration: values.iteration }),
    });
    return {
      json: results,
      warnings: problems.map(storeWarning),
      human: (colour) => {
        const rows = results.map((r) => [
          r.runId,
          String(r.iteration),
          r.name,
          String(r.attempt),
          r.id,
          // A verdict of a deleted capture stays listed (append-only) but counts no more.
          r.superseded === null
            ? paintCell(r.verdict, COLOUR[r.verdict], colour)
            : paintCell(`${r.verdict} (superseded)`, 'dim', colour),
          r.tests === null ? '-' : `${r.tests.passed}/${r.tests.total}`,
          `${r.durationMs} ms`,
          r.observed ? (r.isolated ? 'isolated' : 'workspace') : 'recorded',
          short(r.afterSha),
          r.superseded === null
            ? r.reason
            : `snapshot ${r.superseded.snapshotId} it judged was deleted at ${r.superseded.deletedAt}; ${r.reason}`,
        ]);
        const warnings = problems.map((p) =>
          paint(`warning: ${p.code}: ${printable(p.message)}`, 'yellow', colour),
        );
        return [
          rows.length
            ? table(
                [
                  'RUN',
                  'ITER',
                  'GATE',
                  'ATTEMPT',
                  'ID',
                  'VERDICT',
                  'TESTS',
                  'TIME',
                  'WHERE',
                  'AFTER',
                  'REASON',
                ],
                rows,
              )
            : 'No gate verdicts.',
          ...warnings,
        ].join('\n');
      },
    };
  },
});

const replay = defineCommand({
  name: 'gate replay',
  usage: 'gate replay --run ID (--iteration N --name NAME [--attempt K] | --id GATE_ID) --yes',
  summary: 'Run a recorded gate command again on the recorded tree, in isolation, and compare.',
  description: [
    'The command may come from another machine (after fetch): without --yes nothing runs (REPLAY_NOT_CONFIRMED) and the command is printed. The replay is recorded as a new attempt with replayOf. Exit status: 0 verdict and test counts reproduced, 3 they differ, 1 error.',
    'Attempts are numbered where each verdict was recorded, so in a CI matrix two runners may both have an attempt 1: --attempt K naming more than one verdict is AMBIGUOUS_ID (the message lists their ids); pick one with --id (gate list shows the ids).',
  ].join('\n'),
  options: {
    run: { ...RUN, required: true },
    iteration: {
      type: 'integer',
      valueName: 'N',
      max: MAX_ITERATION,
      description: 'the iteration (needed without --id)',
    },
    name: { ...NAME, required: false, description: `${NAME.description} (needed without --id)` },
    attempt: {
      type: 'integer',
      valueName: 'K',
      min: 1,
      max: MAX_GATE_ATTEMPT,
      description: 'the attempt to replay',
      defaultText: 'the newest with a command',
    },
    id: {
      type: 'string',
      valueName: 'GATE_ID',
      description:
        'the verdict to replay, by its id (gate list shows them); --iteration and --name may be left out',
    },
    yes: { type: 'boolean', description: 'run the recorded command' },
  },
  positionals: { required: [] },
  examples: [
    'gate replay --run "$RUN" --iteration 2 --name test --yes',
    'gate replay --run "$RUN" --id "$GATE_ID" --yes',
  ],
  async run(ctx, values) {
    if (values.id !== undefined && values.attempt !== undefined)
      throw new UsageError('give --attempt K or --id GATE_ID, not both');
    if (values.id === undefined && (values.iteration === undefined || values.name === undefined))
      throw new UsageError('give --iteration N and --name NAME (and --attempt K), or --id GATE_ID');
    const gates = await ctx.gates();
    const out = await gates.replay(ctx.workspace, {
      runId: values.run,
      ...(values.iteration === undefined ? {} : { iteration: values.iteration }),
      ...(values.name === undefined ? {} : { name: values.name }),
      ...(values.attempt === undefined ? {} : { attempt: values.attempt }),
      ...(values.id === undefined ? {} : { id: values.id }),
      confirmed: values.yes,
      stdoutToStderr: ctx.json,
      forwardSignals: FORWARDED,
    });
    return {
      json: out,
      exitCode: out.reproduced ? 0 : VERIFY_FAILED_EXIT,
      human: (colour) =>
        [
          out.reproduced
            ? paint('Reproduced: same verdict and test counts.', 'green', colour)
            : paint('NOT reproduced: the verdict or the test counts differ.', 'red', colour),
          `  original  ${describe(out.original)}`,
          `  replay    ${describe(out.replay)}`,
        ].join('\n'),
    };
  },
});

function verdictResult(result: GateResult): CommandResult {
  return {
    json: result,
    exitCode: EXIT[result.verdict],
    human: (colour) =>
      [
        `${paint(result.verdict.toUpperCase(), COLOUR[result.verdict], colour)} ${describe(result)}`,
        ...(result.tests?.failures ?? []).map(
          (f) =>
            `  failed: ${printable(f.suite)} ${printable(f.name)}: ${printable(f.message.split('\n')[0] ?? '')}`,
        ),
        ...(result.log?.path ? [`  log: ${printable(result.log.path)}`] : []),
      ].join('\n'),
  };
}

function describe(r: GateResult): string {
  return printable(
    `gate ${r.name} attempt ${r.attempt} on iteration ${r.iteration} (${short(r.afterSha)}): ${r.verdict}, ${r.reason} [${r.durationMs} ms]`,
  );
}

export const GATE_COMMANDS: readonly Command[] = [gate, record, list, replay];
