/**
 * What every way of adding a verdict shares (run, record, replay): the options check, the iteration
 * a verdict judges, and where an attempt's log goes.
 */
import { readdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import {
  MAX_COMMAND_ARG_CHARS,
  MAX_COMMAND_ARGS,
  MAX_GATE_ATTEMPT,
  MAX_JUNIT_FILES,
  MAX_JUNIT_PATH_CHARS,
  type GateResult,
  type TestCounts,
} from '../../types/gate.js';
import { timeoutProblem } from '../../types/duration.js';
import type { Snapshot } from '../../types/snapshot.js';
import { setAsideBy } from '../../types/run.js';
import { InvalidArgumentError, IterationNotFoundError, RunNotFoundError } from '../errors.js';
import type { GateStore, NewGateResult } from '../store/gate-store.js';
import { assertSafeId, gateLogPath, iterationArtifactsDir, makeRunArtifactsDir } from '../store/paths.js';
import type { Snapshotter } from '../snapshotter/snapshotter.js';
import type { readJunitFiles } from './junit-files.js';
import type { LogSink } from './log.js';

/** The services a gate operation works with (the `Gates` instance). */
export interface GateContext {
  readonly snapshotter: Snapshotter;
  readonly store: GateStore;
}

export function checkOptions(opts: {
  name: string;
  runId: string;
  junit?: readonly string[];
  minTests?: number;
  timeoutMs?: number;
  durationMs?: number;
}): void {
  assertSafeId(opts.runId, 'run id');
  assertSafeId(opts.name, 'gate name');
  // A limit runs from 1 ms, a duration observed elsewhere from 0 (`gate record`'s default).
  const durations = [
    ['timeoutMs', 'the gate timeout', 1],
    ['durationMs', 'the duration', 0],
  ] as const;
  for (const [key, what, min] of durations) {
    const problem = opts[key] === undefined ? null : timeoutProblem(opts[key], what, min);
    if (problem !== null)
      throw new InvalidArgumentError(problem, { details: { [key]: opts[key], argument: `opts.${key}` } });
  }
  // Checked here, before anything runs: the stored verdict's schema would refuse it only afterwards.
  if (opts.minTests !== undefined && !(Number.isSafeInteger(opts.minTests) && opts.minTests >= 0))
    throw new InvalidArgumentError(
      `minTests must be a whole number from 0 up, not ${String(opts.minTests)}`,
      {
        details: { minTests: opts.minTests, argument: 'opts.minTests' },
      },
    );
  if (opts.minTests !== undefined && (opts.junit ?? []).length === 0)
    throw new InvalidArgumentError(
      'the minimum of tests (--min-tests, minTests) counts the tests of the JUnit files: name them too (--junit FILE, junit)',
      { details: { minTests: opts.minTests, argument: 'opts.minTests' } },
    );
  if ((opts.junit ?? []).some((f) => typeof f !== 'string' || f === ''))
    throw new InvalidArgumentError('a JUnit file is named by an empty path; give the file the check writes', {
      details: { junit: opts.junit, argument: 'opts.junit' },
    });
  const junit = opts.junit ?? [];
  const bad = junit.find((f) => f.length > MAX_JUNIT_PATH_CHARS || f.includes('\0'));
  if (junit.length > MAX_JUNIT_FILES || bad !== undefined)
    throw new InvalidArgumentError(
      bad === undefined
        ? `${junit.length} JUnit files named; a verdict keeps at most ${MAX_JUNIT_FILES}`
        : `a JUnit file's path holds a NUL byte or is longer than ${MAX_JUNIT_PATH_CHARS} characters`,
      { details: { argument: 'opts.junit', files: junit.length } },
    );
}

/**
 * A command a verdict can keep (types/gate.ts), refused before it runs (INVALID_ARGUMENT): at most
 * MAX_COMMAND_ARGS arguments of MAX_COMMAND_ARG_CHARS characters, none holding a NUL byte.
 */
export function checkArgv(command: readonly string[]): void {
  const bad = command.findIndex((a) => a.length > MAX_COMMAND_ARG_CHARS || a.includes('\0'));
  if (command.length > MAX_COMMAND_ARGS || bad !== -1)
    throw new InvalidArgumentError(
      bad === -1
        ? `the command has ${command.length} arguments; a verdict keeps at most ${MAX_COMMAND_ARGS}`
        : `argument ${bad} of the command holds a NUL byte or is longer than ${MAX_COMMAND_ARG_CHARS} characters`,
      { details: { argument: 'opts.command', args: command.length } },
    );
}

/**
 * The run's snapshot for `iteration` (default: its last on the accepted line, as `verify
 * --require-gate` asks it: an iteration a declared restart set aside is not the run's last).
 * RUN_NOT_FOUND, ITERATION_NOT_FOUND.
 */
export async function findIteration(
  snapshotter: Snapshotter,
  runId: string,
  iteration: number | undefined,
): Promise<Snapshot> {
  // The run's record only when it is needed: its restarts for the default, else whether it exists.
  const [snapshots, record] = await Promise.all([
    snapshotter.listByRun(assertSafeId(runId, 'run id')),
    iteration === undefined ? snapshotter.store.loadRun(runId) : undefined,
  ]);
  const run = record ?? (snapshots.length === 0 ? await snapshotter.store.loadRun(runId) : undefined);
  if (snapshots.length === 0 && run === null)
    throw new RunNotFoundError(`no run ${runId}; "runs" lists the recorded runs`, { details: { runId } });
  const restarts = run?.restarts ?? [];
  if (iteration !== undefined || restarts.length === 0) return pickIteration(runId, iteration, snapshots);
  const line = snapshots.filter((s) => setAsideBy(restarts, s.iteration) === undefined);
  if (line.length > 0 || snapshots.length === 0) return pickIteration(runId, iteration, line);
  throw new IterationNotFoundError(
    `run ${runId} has no iteration on its accepted line: a restart set aside ${snapshots.map((s) => s.iteration).join(', ')}; run "after" first or give --iteration`,
    { details: { runId, iteration: null } },
  );
}

/** The run's snapshot of `iteration` (undefined: its last), or ITERATION_NOT_FOUND. */
export function pickIteration(
  runId: string,
  iteration: number | undefined,
  snapshots: readonly Snapshot[],
): Snapshot {
  const found = iteration === undefined ? snapshots.at(-1) : snapshots.find((s) => s.iteration === iteration);
  if (found !== undefined) return found;
  const known = snapshots.map((s) => s.iteration).join(', ') || 'none yet';
  throw new IterationNotFoundError(
    `run ${runId} has no iteration${iteration === undefined ? '' : ` ${iteration}`} (recorded: ${known}); run "after" first or give --iteration`,
    { details: { runId, iteration: iteration ?? null } },
  );
}

/** The iteration's artifacts directory, for a gate log about to be written there (the run's made ours: makeRunArtifactsDir). */
export async function logDir(
  snapshotter: Snapshotter,
  snapshot: Pick<Snapshot, 'runId' | 'iteration'>,
): Promise<string> {
  await makeRunArtifactsDir(snapshotter.options.artifactsDir, snapshot.runId);
  return iterationArtifactsDir(snapshotter.options.artifactsDir, snapshot.runId, snapshot.iteration);
}

/** Appends the verdict; its log moves to the attempt's numbered name, which the verdict records. */
export async function appendWithLog(
  ctx: GateContext,
  result: NewGateResult,
  sink: LogSink | null,
): Promise<GateResult> {
  return ctx.store.append(
    result,
    async (attempt) => {
      if (sink === null || result.log === null) return result;
      const path = logPath(ctx, result, attempt);
      await sink.moveTo(path);
      return { ...result, log: { ...result.log, path } };
    },
    loggedAttempts(ctx, result),
  );
}

/**
 * Refused before the check runs (INVALID_ARGUMENT): the verdict could not be numbered, so it could
 * not be stored (GateStore.nextAttempt). The append checks again under the lock.
 */
export async function assertAttemptLeft(
  ctx: GateContext,
  of: Pick<GateResult, 'runId' | 'iteration' | 'name'>,
): Promise<void> {
  await ctx.store.nextAttempt(of, loggedAttempts(ctx, of));
}

type Numbered = Pick<GateResult, 'runId' | 'iteration' | 'name'>;

function logPath(ctx: GateContext, of: Numbered, attempt: number): string {
  return gateLogPath(ctx.snapshotter.options.artifactsDir, of.runId, of.iteration, of.name, attempt);
}

/** A log outlives a verdict file that was damaged: its attempt number stays taken. */
function loggedAttempts(ctx: GateContext, of: Numbered): () => Promise<number> {
  return () => highestLoggedAttempt(dirname(logPath(ctx, of, 1)), of.name);
}

/**
 * The highest attempt number of the gate's logs in an iteration's artifacts directory (0: none).
 * A number no verdict may have (past MAX_GATE_ATTEMPT) is no attempt of ours: it takes nothing.
 */
async function highestLoggedAttempt(dir: string, name: string): Promise<number> {
  const prefix = `gate-${name}-`;
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.reduce((max, file) => {
    const n =
      file.startsWith(prefix) && file.endsWith('.log') ? file.slice(prefix.length, -'.log'.length) : '';
    return /^[1-9]\d{0,9}$/.test(n) && Number(n) <= MAX_GATE_ATTEMPT ? Math.max(max, Number(n)) : max;
  }, 0);
}

/** What a verdict is about: the run, the iteration, the gate and the exact tree it judged. */
export type Judged = Pick<GateResult, 'runId' | 'iteration' | 'name' | 'treeId' | 'afterSha'>;

/** What a verdict of `capture` (a snapshot, or the verdict a replay repeats) is about. */
export function judged(
  capture: Pick<Snapshot, 'runId' | 'iteration' | 'afterSha'>,
  treeId: string,
  name: string,
): Judged {
  return { runId: capture.runId, iteration: capture.iteration, name, treeId, afterSha: capture.afterSha };
}

export function countsOf(tests: Awaited<ReturnType<typeof readJunitFiles>> | null): TestCounts | null {
  return tests !== null && 'counts' in tests ? tests.counts : null;
}
