import type { OnDirty } from '../../types/config.js';
import type { AgentOutcome, Snapshot } from '../../types/snapshot.js';
import { resolveWorkspaceDir } from '../git/repo.js';
import { runUserCommand } from '../process/user-command.js';
import { AgentNotStartedError, IterationInterruptedError } from '../errors.js';
import type { LockOwner } from '../fs/lock.js';
import { assertSafeId } from '../store/paths.js';
import { withRepoLock } from '../git/repo-lock.js';
import { captureExcludes, makeHomeInside } from './excludes.js';
import { beforeIn, openOrInit } from './before.js';
import {
  assertIteration,
  assertIterationFree,
  assertIterationRefFree,
  captureAfterState,
  type AfterOptions,
} from './after.js';
import type { SnapshotterCore } from './core.js';
import { linkOrphans } from './orphans.js';
import { runOfWorkspace } from './moved-run.js';

export interface IterateOptions extends AfterOptions {
  onDirty?: OnDirty;
  init?: boolean;
  branch?: string;
  /** As for `before`: the iteration declared as the start of this one (0: the run's start). */
  restartFrom?: number;
  /** The agent: argv (never through a shell); with stdoutToStderr its stdout goes to our stderr. */
  agent: { argv: readonly string[]; stdoutToStderr?: boolean };
}

/** What `iterate` returns: the iteration's snapshot and how its agent ended. */
export type IterationSnapshot = Snapshot & { agent: AgentOutcome };

/**
 * Signals we receive while the agent runs and pass on to it. The agent stays in our process group,
 * so a terminal's Ctrl-C reaches it directly too; a SIGINT sent to us alone (an orchestrator's
 * kill) would not, hence it is forwarded as well.
 */
const AGENT_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * One whole iteration in one call: `before`, then the agent command in the workspace, then
 * `after`, whatever the agent's exit status. The after step opens and checks the repository again,
 * as a separate `after` does (the agent may have armed it); the repository lock is held by the
 * before and the after steps,
 * not while the agent runs (it may run git itself, for hours). An iteration number already taken
 * is refused before anything is recorded. A killed call leaves the run where a killed `before`
 * (before state recorded, no snapshot) or a killed `after` would.
 */
export async function iterate(
  core: SnapshotterCore,
  workspace: string,
  opts: IterateOptions,
): Promise<IterationSnapshot> {
  const runId = assertSafeId(opts.runId, 'run id');
  assertIteration(opts.iteration);
  // The run's lock is written into the home before captureExcludes runs: a new home is marked first.
  await makeHomeInside(workspace, core.options, core.gitOptions());
  return core.store.whileIterating(
    runId,
    opts.iteration,
    () => iterateAlone(core, workspace, runId, opts),
    (holder) => assertNotInterrupted(core, runId, holder),
  );
}

/**
 * An `iterate` killed after recording its before state and before its snapshot (during its agent,
 * most often) left the agent's work uncommitted, and perhaps its agent still running: a new iterate
 * would take that work into its WIP commit as nobody's, and start a second agent beside the
 * orphan. Told by the dead holder's lock and a before state it recorded that no `after` used up:
 * ITERATION_INTERRUPTED, with the lock left in place, until `after` finishes that iteration.
 */
async function assertNotInterrupted(core: SnapshotterCore, runId: string, holder: LockOwner): Promise<void> {
  const run = await core.store.loadRun(runId);
  const before = run?.before ?? null;
  if (before === null || run?.beforeUsedBy || before.capturedAt < holder.createdAt) return;
  const iteration = /^iterate \S+ (\d+)$/.exec(holder.purpose)?.[1];
  const which = iteration === undefined ? 'N (the iteration it was capturing)' : iteration;
  throw new IterationInterruptedError(
    `an iterate of run ${runId}${iteration === undefined ? '' : ` (iteration ${iteration})`}, process ${holder.pid}, was killed after recording its before state (${before.capturedAt}) and before its snapshot; what its agent did is not committed (it is in the workspace unless you removed it), and its agent may still run. Once no agent runs, finish that iteration with "after --run ${runId} --iteration ${which}" (with the same --task and --gate), then iterate the next one`,
    { details: { runId, iteration: iteration === undefined ? null : Number(iteration), holder } },
  );
}

async function iterateAlone(
  core: SnapshotterCore,
  workspace: string,
  runId: string,
  opts: IterateOptions,
): Promise<IterationSnapshot> {
  const onDirty = opts.onDirty ?? core.options.onDirty;
  const { repo, nested } = await openOrInit(core, workspace, onDirty, opts.init === true);
  const excludes = await captureExcludes(repo, core.options);
  const before = await withRepoLock(repo, core.options.lockTimeoutMs, async (recovered) => {
    if (recovered) await linkOrphans(core, repo.topLevel);
    const run = await runOfWorkspace(core, repo, runId);
    if (run !== null) await assertIterationFree(core, runId, opts.iteration, null);
    await assertIterationRefFree(repo, runId, opts.iteration);
    return beforeIn(core, repo, {
      runId,
      onDirty,
      nested,
      excludes,
      branch: opts.branch,
      restartFrom: opts.restartFrom,
    });
  });
  const ran = await runUserCommand({
    argv: opts.agent.argv,
    cwd: await resolveWorkspaceDir(workspace),
    stdio: 'inherit',
    stdoutToStderr: opts.agent.stdoutToStderr === true,
    forwardSignals: AGENT_SIGNALS,
  });
  if (ran.spawnError !== null) {
    const errno = ran.spawnError.code ?? 'error';
    throw new AgentNotStartedError(
      `cannot start the agent command ${JSON.stringify(opts.agent.argv[0] ?? '')} (${errno}); check its name, PATH and permissions. The before state is recorded: run iterate again, or "after --run ${runId} --iteration ${opts.iteration}"`,
      { details: { command: opts.agent.argv[0] ?? '', errno, runId } },
    );
  }
  const agent: AgentOutcome = { exitCode: ran.exitCode, signal: ran.signal, durationMs: ran.durationMs };
  // The agent had the repository to itself: it may have planted filters, hooks, includes,
  // core.worktree or a `.git` file. Nothing opened before it ran is trusted now; the after step
  // opens and checks the repository again exactly as a separate `after` process does (same code),
  // and what that refuses fails this call the same way, with the before state recorded.
  const snapshot = await captureAfterState(core, workspace, before, { ...opts, runId }, agent).catch(
    async (error: unknown) => {
      await markAgentRan(core, runId, opts.iteration, before.capturedAt);
      throw error;
    },
  );
  return { ...snapshot, agent };
}

/**
 * Notes on the run that this before state's agent ran and its after step failed (see
 * RunRecord.agentRan): the next before refuses to take that work in as the user's. Best effort: the
 * after step's own error is what the caller gets.
 */
async function markAgentRan(
  core: SnapshotterCore,
  runId: string,
  iteration: number,
  beforeCapturedAt: string,
): Promise<void> {
  await core.store
    .updateRun(runId, null, (run) =>
      run.before?.capturedAt === beforeCapturedAt && !run.beforeUsedBy
        ? { ...run, agentRan: { iteration, beforeCapturedAt } }
        : null,
    )
    .catch(() => undefined);
}
