/**
 * Gate verdicts (CONTRACT.md, "Gate verdicts"): run a check on an iteration's after tree and record
 * what it observed, record a verdict observed elsewhere, list, replay and verify them. The verdicts
 * live in the GateStore; the iterations they judge come from the Snapshotter's records.
 */
import { realpath, rm, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import type { GateResult, TestCounts } from '../../types/gate.js';
import { sortGateResults } from '../../types/gate-rules.js';
import { timeoutProblem } from '../../types/duration.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import {
  GateNotFoundError,
  GateNotReplayableError,
  GateTreeMismatchError,
  InvalidArgumentError,
  IterationNotFoundError,
  PathNotFoundError,
  ReplayNotConfirmedError,
  RunNotFoundError,
  type StoreCorruptError,
} from '../errors.js';
import { getTree } from '../git/refs.js';
import { isInside, openRepo, type Repo } from '../git/repo.js';
import { getRepoState } from '../git/state.js';
import { runUserCommand } from '../process/user-command.js';
import { GateStore, type NewGateResult } from '../store/gate-store.js';
import { assertSafeId, gateLogPath, iterationArtifactsDir, layout } from '../store/paths.js';
import { workspaceExcludes } from '../snapshotter/excludes.js';
import type { Snapshotter } from '../snapshotter/snapshotter.js';
import { withIsolatedCheckout } from './isolated.js';
import { readJunitFiles } from './junit-files.js';
import { copyIntoSink, openLogSink, type LogSink } from './log.js';
import { decideVerdict } from './verdict.js';
import { verifyGates, type GateVerifyOptions } from './verify.js';

export interface GateRunOptions {
  runId: string;
  /** Default: the run's last iteration. */
  iteration?: number;
  name: string;
  /** The check's argv; run directly, never through a shell. */
  command: readonly string[];
  /** JUnit files the check writes, relative to where it runs. */
  junit?: readonly string[];
  timeoutMs?: number;
  /** Run in a temporary checkout of the after tree instead of the workspace. */
  isolated?: boolean;
  /** At least this many tests must run (needs `junit`); with `junit` and none given, 1. */
  minTests?: number;
  /** Where the check's output is echoed as it runs (default: our stdout and stderr). */
  echo?: { stdout: Writable; stderr: Writable };
  /** Echo the check's stdout to `echo.stderr` (the CLI's --json keeps stdout for the result). */
  stdoutToStderr?: boolean;
  /** Signals we receive that are passed on to the check's process group while it runs (the CLI: SIGINT, SIGTERM). */
  forwardSignals?: readonly NodeJS.Signals[];
}

export interface GateRecordOptions {
  runId: string;
  iteration?: number;
  name: string;
  exitCode: number;
  junit?: readonly string[];
  /** A log the caller kept; copied into the artifacts with its digest. */
  logFile?: string;
  durationMs?: number;
  minTests?: number;
}

export interface GateReplayOptions {
  runId: string;
  iteration: number;
  name: string;
  /** Default: the newest attempt that has a command. */
  attempt?: number;
  /** The caller agreed to run the recorded command (`--yes`): it may come from another machine. */
  confirmed: boolean;
  echo?: GateRunOptions['echo'];
  stdoutToStderr?: boolean;
  forwardSignals?: readonly NodeJS.Signals[];
}

export interface GateReplay {
  reproduced: boolean;
  original: GateResult;
  replay: GateResult;
}

export class Gates {
  readonly store: GateStore;

  constructor(readonly snapshotter: Snapshotter) {
    this.store = new GateStore(snapshotter.options.home, {
      lockTimeoutMs: snapshotter.options.lockTimeoutMs,
    });
  }

  /**
   * Runs the check on the iteration's after tree and records what it observed. Refused before
   * anything runs: an unknown run or iteration, an unsafe name, and without `isolated` a workspace
   * that is dirty or not at the after commit (GATE_TREE_MISMATCH).
   */
  async run(workspace: string, opts: GateRunOptions): Promise<GateResult> {
    return this.execute(workspace, opts, null);
  }

  /** Records a verdict the caller observed itself (`observed: false`). */
  async record(workspace: string, opts: GateRecordOptions): Promise<GateResult> {
    checkOptions(opts);
    const snapshot = await this.iteration(opts.runId, opts.iteration);
    const repo = await openRepo(workspace, this.snapshotter.gitOptions());
    const treeId = await getTree(repo, snapshot.afterSha);
    const junit = opts.junit ?? [];
    const tests = junit.length === 0 ? null : await readJunitFiles(junit, process.cwd(), null);
    const durationMs = opts.durationMs ?? 0;
    const { verdict, reason } = decideVerdict({
      exitCode: opts.exitCode,
      signal: null,
      timedOut: false,
      timeoutMs: null,
      spawnError: null,
      command: null,
      junit: tests,
      minTests: opts.minTests ?? null,
    });
    let sink: LogSink | null = null;
    let log: GateResult['log'] = null;
    if (opts.logFile !== undefined) {
      const info = await stat(opts.logFile).catch(() => null);
      if (info === null || !info.isFile())
        throw new PathNotFoundError(`--log ${JSON.stringify(opts.logFile)} is not a file`, {
          details: { path: opts.logFile },
        });
      sink = await openLogSink(this.logDir(snapshot), opts.name);
      log = { path: null, ...(await copyIntoSink(opts.logFile, sink)) };
    }
    const result: NewGateResult = {
      ...judged(snapshot, treeId, opts.name),
      command: null,
      observed: false,
      isolated: false,
      startedAt: new Date(Date.now() - durationMs).toISOString(),
      durationMs,
      exitCode: opts.exitCode,
      signal: null,
      timedOut: false,
      verdict,
      reason,
      tests: countsOf(tests),
      log,
      replayOf: null,
      junit: [...junit],
      minTests: opts.minTests ?? null,
      timeoutMs: null,
    };
    return this.store.append(result, (attempt) => this.placeLog(result, sink, attempt));
  }

  /** Verdicts in the one order (types/gate-rules.ts, `gateOrder`), and the files that do not load. */
  async list(
    filter: { runId?: string; iteration?: number } = {},
  ): Promise<{ results: GateResult[]; problems: StoreCorruptError[] }> {
    const runIds =
      filter.runId === undefined ? await this.store.runIds() : [assertSafeId(filter.runId, 'run id')];
    const results: GateResult[] = [];
    const problems: StoreCorruptError[] = [];
    const snapshots: Snapshot[] = [];
    for (const runId of runIds) {
      snapshots.push(...(await this.snapshotter.listByRun(runId)));
      const listed = await this.store.list(runId);
      results.push(
        ...listed.results.filter((r) => filter.iteration === undefined || r.iteration === filter.iteration),
      );
      problems.push(...listed.problems);
    }
    return { results: sortGateResults(results, snapshots), problems };
  }

  /**
   * Runs a recorded command again on the iteration's tree in a temporary checkout, records it as a
   * new attempt (`replayOf`), and says whether verdict and test counts reproduce. Refused without
   * `confirmed` (REPLAY_NOT_CONFIRMED): a fetched command is someone else's code.
   */
  async replay(workspace: string, opts: GateReplayOptions): Promise<GateReplay> {
    const original = await this.findAttempt(opts);
    const command = original.command as string[];
    if (!opts.confirmed) {
      throw new ReplayNotConfirmedError(
        `replaying would run ${JSON.stringify(command)}${(original.junit ?? []).length > 0 ? ` and read ${JSON.stringify(original.junit)}` : ''} (recorded in attempt ${original.attempt} of gate ${original.name}); it may come from another machine, so read it and add --yes to run it`,
        { details: { command, junit: original.junit ?? [], attempt: original.attempt } },
      );
    }
    const replay = await this.execute(
      workspace,
      {
        runId: original.runId,
        iteration: original.iteration,
        name: original.name,
        command,
        junit: original.junit ?? [],
        ...(original.timeoutMs ? { timeoutMs: original.timeoutMs } : {}),
        ...(original.minTests === null || original.minTests === undefined
          ? {}
          : { minTests: original.minTests }),
        isolated: true,
        ...(opts.echo ? { echo: opts.echo } : {}),
        ...(opts.stdoutToStderr ? { stdoutToStderr: true } : {}),
        ...(opts.forwardSignals ? { forwardSignals: opts.forwardSignals } : {}),
      },
      original.attempt,
    );
    const reproduced = replay.verdict === original.verdict && sameCounts(original.tests, replay.tests);
    return { reproduced, original, replay };
  }

  /**
   * The snapshot checks of `target` (Snapshotter.verify) plus every gate verdict of the runs it
   * covers: tree, after commit, log digest, attempts in order; and `requireGates` on the run's
   * last iteration (every iteration with `eachIteration`).
   */
  async verify(
    target: { id: string } | { runId: string } | { all: true },
    opts: GateVerifyOptions = {},
  ): Promise<VerifyReport> {
    const report = await this.snapshotter.verify(target);
    const checks = [...report.checks];
    let runIds: string[];
    let only: Snapshot | null = null;
    if ('id' in target) {
      only = await this.snapshotter.getSnapshot(target.id);
      runIds = [only.runId];
    } else if ('runId' in target) runIds = [target.runId];
    else runIds = await this.store.runIds();
    for (const runId of runIds) {
      const { results, problems } = await this.store.list(runId);
      const snapshots = await this.snapshotter.listByRun(runId);
      checks.push(
        ...(await verifyGates({
          runId,
          results: only === null ? results : results.filter((r) => r.iteration === only.iteration),
          problems,
          snapshots,
          artifactsDir: this.snapshotter.options.artifactsDir,
          git: this.snapshotter.gitOptions(),
          ...opts,
        })),
      );
    }
    return { ok: checks.every((c) => c.ok), checks };
  }

  private async execute(
    workspace: string,
    opts: GateRunOptions,
    replayOf: number | null,
  ): Promise<GateResult> {
    checkOptions(opts);
    if (opts.command.length === 0 || opts.command[0] === '')
      throw new InvalidArgumentError('give the command to run after "--"', { details: {} });
    const junit = opts.junit ?? [];
    // Independent look-ups run together: a gate's own cost is on every CI step's path.
    const [snapshot, repo] = await Promise.all([
      this.iteration(opts.runId, opts.iteration),
      openRepo(workspace, this.snapshotter.gitOptions()),
    ]);
    const [treeId] = await Promise.all([
      getTree(repo, snapshot.afterSha),
      opts.isolated === true ? null : this.assertAtAfter(repo, snapshot, junit),
    ]);
    const sink = await openLogSink(this.logDir(snapshot), opts.name);
    try {
      return await this.observeAndStore(repo, treeId, snapshot, sink, opts, replayOf);
    } catch (error) {
      // Whatever failed, no temp log stays behind (a killed call's is swept by the next one).
      await sink.discard().catch(() => undefined);
      throw error;
    }
  }

  /** Runs the check (in an isolated checkout when asked), reads its reports and stores the verdict. */
  private async observeAndStore(
    repo: Repo,
    treeId: string,
    snapshot: Snapshot,
    sink: LogSink,
    opts: GateRunOptions,
    replayOf: number | null,
  ): Promise<GateResult> {
    const junit = opts.junit ?? [];
    const observe = async (cwd: string) => {
      const startedAt = new Date();
      const ran = await runUserCommand({
        argv: opts.command,
        cwd,
        stdio: 'tee',
        log: sink.stream,
        stdoutToStderr: opts.stdoutToStderr === true,
        ...(opts.echo ? { echo: opts.echo } : {}),
        ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
        group: true,
        forwardSignals: opts.forwardSignals ?? [],
      });
      // Read before an isolated checkout is removed; a file left by an earlier run does not count.
      const tests = junit.length === 0 ? null : await readJunitFiles(junit, cwd, startedAt.getTime());
      return { startedAt, ran, tests };
    };
    const { startedAt, ran, tests } =
      opts.isolated === true
        ? await withIsolatedCheckout(
            repo,
            treeId,
            layout(this.snapshotter.options.home).gateCheckouts,
            async (dir) => {
              await removeCommittedReports(dir, junit);
              return observe(dir);
            },
          )
        : await observe(repo.topLevel);
    const digest = await sink.finish();
    const { verdict, reason } = decideVerdict({
      exitCode: ran.exitCode,
      signal: ran.signal,
      timedOut: ran.timedOut,
      timeoutMs: opts.timeoutMs ?? null,
      spawnError: ran.spawnError === null ? null : (ran.spawnError.code ?? ran.spawnError.message),
      command: opts.command,
      junit: tests,
      minTests: opts.minTests ?? null,
      outlived: ran.outlived,
    });
    const result: NewGateResult = {
      ...judged(snapshot, treeId, opts.name),
      command: [...opts.command],
      observed: true,
      isolated: opts.isolated === true,
      startedAt: startedAt.toISOString(),
      durationMs: ran.durationMs,
      exitCode: ran.exitCode,
      signal: ran.signal,
      timedOut: ran.timedOut,
      verdict,
      reason,
      tests: countsOf(tests),
      log: { path: null, ...digest },
      replayOf,
      junit: [...junit],
      minTests: opts.minTests ?? null,
      timeoutMs: opts.timeoutMs ?? null,
    };
    return this.store.append(result, (attempt) => this.placeLog(result, sink, attempt));
  }

  /** Moves the attempt's log to its numbered name; the verdict records where. */
  private async placeLog(
    result: NewGateResult,
    sink: LogSink | null,
    attempt: number,
  ): Promise<NewGateResult> {
    if (sink === null || result.log === null) return result;
    const path = gateLogPath(
      this.snapshotter.options.artifactsDir,
      result.runId,
      result.iteration,
      result.name,
      attempt,
    );
    await sink.moveTo(path);
    return { ...result, log: { ...result.log, path } };
  }

  private logDir(snapshot: Snapshot): string {
    return iterationArtifactsDir(this.snapshotter.options.artifactsDir, snapshot.runId, snapshot.iteration);
  }

  /** The run's snapshot for `iteration` (default: its last). RUN_NOT_FOUND, ITERATION_NOT_FOUND. */
  private async iteration(runId: string, iteration: number | undefined): Promise<Snapshot> {
    const snapshots = await this.snapshotter.listByRun(assertSafeId(runId, 'run id'));
    if (snapshots.length === 0 && (await this.snapshotter.store.loadRun(runId)) === null)
      throw new RunNotFoundError(`no run ${runId}; "runs" lists the recorded runs`, { details: { runId } });
    const found =
      iteration === undefined ? snapshots.at(-1) : snapshots.find((s) => s.iteration === iteration);
    if (found === undefined) {
      const known = snapshots.map((s) => s.iteration).join(', ') || 'none yet';
      throw new IterationNotFoundError(
        `run ${runId} has no iteration ${iteration ?? ''} (recorded: ${known}); run "after" first or give --iteration`,
        { details: { runId, iteration: iteration ?? null } },
      );
    }
    return found;
  }

  /** Without --isolated the check judges the workspace itself: it must be exactly the after commit. */
  private async assertAtAfter(repo: Repo, snapshot: Snapshot, junit: readonly string[]): Promise<void> {
    const excludes = [
      ...(await workspaceExcludes(repo.topLevel, this.snapshotter.options)),
      // The check's own reports, left by an earlier attempt, do not make the workspace dirty.
      ...junit.filter((f) => !f.startsWith('/') && !f.split('/').includes('..')),
    ];
    const state = await getRepoState(repo, excludes);
    if (state.sha === snapshot.afterSha && !state.isDirty) return;
    const why =
      state.sha !== snapshot.afterSha
        ? `HEAD is ${state.sha ?? 'unborn'}, not iteration ${snapshot.iteration}'s after commit ${snapshot.afterSha}`
        : 'the workspace has uncommitted changes';
    throw new GateTreeMismatchError(
      `${why}; the verdict would not be about that tree. Commit or stash, check out the after commit, or use --isolated`,
      {
        details: {
          runId: snapshot.runId,
          iteration: snapshot.iteration,
          head: state.sha,
          afterSha: snapshot.afterSha,
        },
      },
    );
  }

  private async findAttempt(opts: GateReplayOptions): Promise<GateResult> {
    assertSafeId(opts.name, 'gate name');
    const { results } = await this.store.list(assertSafeId(opts.runId, 'run id'));
    const mine = results.filter((r) => r.iteration === opts.iteration && r.name === opts.name);
    const found =
      opts.attempt === undefined
        ? mine.filter((r) => r.command !== null).at(-1)
        : mine.find((r) => r.attempt === opts.attempt);
    if (found === undefined)
      throw new GateNotFoundError(
        `no ${opts.attempt === undefined ? 'replayable verdict' : `attempt ${opts.attempt}`} of gate ${opts.name} on iteration ${opts.iteration} of run ${opts.runId}; "gate list --run ${opts.runId}" shows them`,
        {
          details: {
            runId: opts.runId,
            iteration: opts.iteration,
            name: opts.name,
            attempt: opts.attempt ?? null,
          },
        },
      );
    if (found.command === null)
      throw new GateNotReplayableError(
        `attempt ${found.attempt} of gate ${found.name} was given to "gate record": there is no command to replay`,
        { details: { attempt: found.attempt } },
      );
    return found;
  }
}

function checkOptions(opts: {
  name: string;
  runId: string;
  junit?: readonly string[];
  minTests?: number;
  timeoutMs?: number;
  durationMs?: number;
}): void {
  assertSafeId(opts.runId, 'run id');
  assertSafeId(opts.name, 'gate name');
  const tooLong =
    (opts.timeoutMs === undefined ? null : timeoutProblem(opts.timeoutMs, 'the gate timeout')) ??
    (opts.durationMs === undefined || opts.durationMs === 0
      ? null
      : timeoutProblem(opts.durationMs, 'the duration'));
  if (tooLong !== null)
    throw new InvalidArgumentError(tooLong, { details: { timeoutMs: opts.timeoutMs ?? null } });
  if (opts.minTests !== undefined && (opts.junit ?? []).length === 0)
    throw new InvalidArgumentError('--min-tests counts the tests of the JUnit files: give --junit FILE too', {
      details: { minTests: opts.minTests },
    });
}

/**
 * A report committed in the tree is no report of this run: only what the check writes counts, so
 * the checkout's copies go first. Only inside the checkout, through real paths: a fetched
 * verdict's paths are untrusted, and the tree may hold symbolic links pointing out of it.
 */
async function removeCommittedReports(dir: string, junit: readonly string[]): Promise<void> {
  const root = await realpath(dir);
  for (const file of junit) {
    const path = resolve(root, file);
    const parent = await realpath(dirname(path)).catch(() => null);
    if (parent !== null && isInside(root, parent))
      await rm(join(parent, basename(path)), { force: true }).catch(() => undefined);
  }
}

/** What a verdict is about: the run, the iteration, the gate and the exact tree it judged. */
function judged(snapshot: Snapshot, treeId: string, name: string) {
  return { runId: snapshot.runId, iteration: snapshot.iteration, name, treeId, afterSha: snapshot.afterSha };
}

function countsOf(tests: Awaited<ReturnType<typeof readJunitFiles>> | null): TestCounts | null {
  return tests !== null && 'counts' in tests ? tests.counts : null;
}

function sameCounts(a: TestCounts | null, b: TestCounts | null): boolean {
  if (a === null || b === null) return a === b;
  return (
    a.total === b.total &&
    a.passed === b.passed &&
    a.failed === b.failed &&
    a.skipped === b.skipped &&
    a.errors === b.errors
  );
}
