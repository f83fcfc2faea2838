/**
 * `gate replay`: run a recorded command again on the tree it judged in a temporary checkout, record
 * it as a new attempt (`replayOf`) about that same capture and say whether verdict and test counts
 * reproduce.
 */
import type { GateResult, TestCounts } from '../../types/gate.js';
import {
  AmbiguousIdError,
  GateNotFoundError,
  GateNotReplayableError,
  InvalidArgumentError,
  ReplayNotConfirmedError,
} from '../errors.js';
import type { GateStore } from '../store/gate-store.js';
import { assertSafeId } from '../store/paths.js';
import type { GateContext } from './attempt.js';
import { withLocalLog } from './log.js';
import { replayRun, type GateRunOptions } from './run.js';

export interface GateReplayOptions {
  runId: string;
  /** With `name`, the gate whose attempt is replayed; needed unless `id` names the verdict. */
  iteration?: number;
  name?: string;
  /** Default: the newest attempt that has a command. Two machines may both have recorded attempt K: then give `id`. */
  attempt?: number;
  /** The verdict to replay, by its id (`iteration` and `name`, when given, must be its own). */
  id?: string;
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

/** Refused without `confirmed` (REPLAY_NOT_CONFIRMED): a fetched command is someone else's code. */
export async function replayGate(
  ctx: GateContext,
  workspace: string,
  opts: GateReplayOptions,
): Promise<GateReplay> {
  const original = await findAttempt(ctx.store, opts);
  const command = original.command as string[];
  if (!opts.confirmed) {
    throw new ReplayNotConfirmedError(
      `replaying would run ${JSON.stringify(command)}${(original.junit ?? []).length > 0 ? ` and read ${JSON.stringify(original.junit)}` : ''} (recorded in attempt ${original.attempt} of gate ${original.name}, verdict ${original.id}); it may come from another machine, so read it and add --yes to run it`,
      { details: { command, junit: original.junit ?? [], attempt: original.attempt, id: original.id } },
    );
  }
  const replay = await replayRun(
    ctx,
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
      ...(opts.echo ? { echo: opts.echo } : {}),
      ...(opts.stdoutToStderr ? { stdoutToStderr: true } : {}),
      ...(opts.forwardSignals ? { forwardSignals: opts.forwardSignals } : {}),
    },
    original,
  );
  const reproduced = replay.verdict === original.verdict && sameCounts(original.tests, replay.tests);
  return {
    reproduced,
    original: await withLocalLog(original, ctx.snapshotter.options.artifactsDir),
    replay,
  };
}

/** The verdict to replay: by id, else by iteration, name and attempt (which must name exactly one). */
async function findAttempt(store: GateStore, opts: GateReplayOptions): Promise<GateResult> {
  const runId = assertSafeId(opts.runId, 'run id');
  if (opts.id !== undefined && opts.attempt !== undefined)
    throw new InvalidArgumentError('give the attempt or the id of the verdict to replay, not both', {
      details: { attempt: opts.attempt, id: opts.id },
    });
  if (opts.id === undefined && (opts.iteration === undefined || opts.name === undefined))
    throw new InvalidArgumentError(
      'give the iteration and the gate name of the verdict to replay, or its id',
      {
        details: { iteration: opts.iteration ?? null, name: opts.name ?? null },
      },
    );
  if (opts.name !== undefined) assertSafeId(opts.name, 'gate name');
  const found =
    opts.id !== undefined ? await byId(store, runId, opts) : byAttempt(await store.list(runId), opts);
  if (found.command === null)
    throw new GateNotReplayableError(
      `attempt ${found.attempt} of gate ${found.name} (verdict ${found.id}) was given to "gate record": there is no command to replay`,
      { details: { attempt: found.attempt, id: found.id } },
    );
  return found;
}

async function byId(store: GateStore, runId: string, opts: GateReplayOptions): Promise<GateResult> {
  const found = await store.load(runId, assertSafeId(opts.id as string, 'gate id'));
  if (
    found === null ||
    (opts.iteration !== undefined && found.iteration !== opts.iteration) ||
    (opts.name !== undefined && found.name !== opts.name)
  )
    throw notFound(opts, `verdict ${opts.id}`);
  return found;
}

function byAttempt({ results }: { results: readonly GateResult[] }, opts: GateReplayOptions): GateResult {
  const mine = results.filter((r) => r.iteration === opts.iteration && r.name === opts.name);
  if (opts.attempt === undefined) {
    // With only `gate record` verdicts, the newest: the caller refuses it as GATE_NOT_REPLAYABLE.
    const newest = mine.filter((r) => r.command !== null).at(-1) ?? mine.at(-1);
    if (newest === undefined) throw notFound(opts, 'verdict');
    return newest;
  }
  const numbered = mine.filter((r) => r.attempt === opts.attempt);
  const [only] = numbered;
  if (only === undefined) throw notFound(opts, `attempt ${opts.attempt}`);
  if (numbered.length === 1) return only;
  // Attempts are numbered where each verdict was recorded: two runners of a matrix both record
  // attempt 1. Which one to replay is the caller's choice, never the store's order.
  const candidates = numbered.map((r) => ({
    id: r.id,
    replayable: r.command !== null,
    startedAt: r.startedAt,
    received: r.receivedAt !== undefined,
  }));
  throw new AmbiguousIdError(
    `${numbered.length} verdicts of gate ${opts.name} on iteration ${opts.iteration} are attempt ${opts.attempt} (recorded on different machines): ${candidates
      .map((c) => `${c.id} (${c.replayable ? 'replayable' : 'gate record, no command'})`)
      .join(', ')}; give the one to replay with --id`,
    {
      details: {
        runId: opts.runId,
        iteration: opts.iteration,
        name: opts.name,
        attempt: opts.attempt,
        candidates,
      },
    },
  );
}

function notFound(opts: GateReplayOptions, what: string): GateNotFoundError {
  const where =
    opts.name === undefined
      ? ''
      : ` of gate ${opts.name}${opts.iteration === undefined ? '' : ` on iteration ${opts.iteration}`}`;
  return new GateNotFoundError(
    `no ${what}${where} of run ${opts.runId}; "gate list --run ${opts.runId}" shows them with their ids`,
    {
      details: {
        runId: opts.runId,
        iteration: opts.iteration ?? null,
        name: opts.name ?? null,
        attempt: opts.attempt ?? null,
        id: opts.id ?? null,
      },
    },
  );
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
