/**
 * `gate replay`: run a recorded command again on the iteration's tree in a temporary checkout,
 * record it as a new attempt (`replayOf`) and say whether verdict and test counts reproduce.
 */
import type { GateResult, TestCounts } from '../../types/gate.js';
import { GateNotFoundError, GateNotReplayableError, ReplayNotConfirmedError } from '../errors.js';
import type { GateStore } from '../store/gate-store.js';
import { assertSafeId } from '../store/paths.js';
import type { GateContext } from './attempt.js';
import { runGate, type GateRunOptions } from './run.js';

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
      `replaying would run ${JSON.stringify(command)}${(original.junit ?? []).length > 0 ? ` and read ${JSON.stringify(original.junit)}` : ''} (recorded in attempt ${original.attempt} of gate ${original.name}); it may come from another machine, so read it and add --yes to run it`,
      { details: { command, junit: original.junit ?? [], attempt: original.attempt } },
    );
  }
  const replay = await runGate(
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

async function findAttempt(store: GateStore, opts: GateReplayOptions): Promise<GateResult> {
  assertSafeId(opts.name, 'gate name');
  const { results } = await store.list(assertSafeId(opts.runId, 'run id'));
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
