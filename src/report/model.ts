/** Gathers one run into the report document every format renders. */
import { realpath } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import { setAsideBy, type RunRecord } from '../../types/run.js';
import type { ReportGates, ReportVerdict } from '../../types/report-gates.js';
import type { ReportSnapshot, RunReport } from '../../types/report.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { DateArg, OptionalTextArg, SnapshotterArg } from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { RunNotFoundError } from '../errors.js';
import { assertSafeId, runArtifactsDir } from '../store/paths.js';
import { byInstant } from '../store/json-file.js';
import type { Snapshotter } from '../snapshotter/snapshotter.js';
import { GateStore } from '../store/gate-store.js';
import { Gates } from '../gates/gates.js';
import { buildGateReport } from './gates.js';

/** The run (default: the one updated last), its snapshots by iteration, and their verification. */
export async function buildRunReport(
  snapshotter: Snapshotter,
  runId?: string,
  now: Date = new Date(),
  options: { workspace?: string } = {},
): Promise<RunReport> {
  checkArgument(SnapshotterArg, snapshotter, 'snapshotter');
  checkArgument(OptionalTextArg, runId, 'runId');
  checkArgument(DateArg, now, 'now');
  checkArgument(OptionalTextArg, options.workspace, 'options.workspace');
  const run = await pickRun(snapshotter, runId, options.workspace);
  const recorded = await snapshotter.listByRun(run.runId);
  const gates = await buildGateReport(
    new GateStore(snapshotter.options.home, { lockTimeoutMs: snapshotter.options.lockTimeoutMs }),
    run.runId,
    recorded,
    run.restarts,
  );
  const snapshots = recorded.map((s) => ({
    ...withTaskAndGate(s),
    setAside: asideOf(run, s.iteration),
    verdicts: newestVerdicts(gates, s.iteration),
  }));
  // A run whose agent loop died before its first `after` still gets its report, failed.
  const verification: VerifyReport =
    snapshots.length === 0
      ? {
          ok: false,
          checks: [
            {
              snapshotId: null,
              runId: run.runId,
              check: 'iterations',
              ok: false,
              detail: 'the run has no iterations yet: nothing was captured to verify',
            },
          ],
        }
      : // The same checks as `verify --run` (snapshots and gate verdicts): one count in every place.
        await new Gates(snapshotter).verify({ runId: run.runId });
  const first = snapshots[0];
  const last = snapshots.at(-1);
  return {
    kind: 'agentgate-run-report',
    version: 1,
    generatedAt: now.toISOString(),
    run,
    beforeSha: first?.beforeSha ?? run.before?.sha ?? null,
    afterSha: last?.afterSha ?? null,
    branch: last?.branch ?? run.before?.branch ?? null,
    artifactsPath: runArtifactsDir(snapshotter.options.artifactsDir, run.runId),
    totals: {
      iterations: snapshots.length,
      filesChanged: sum(snapshots, (s) => s.filesChanged),
      insertions: sum(snapshots, (s) => s.insertions),
      deletions: sum(snapshots, (s) => s.deletions),
    },
    snapshots,
    verification,
    gates,
  };
}

/** The restart that set `iteration` aside, as the report shows it, or null. */
function asideOf(run: RunRecord, iteration: number): ReportSnapshot['setAside'] {
  const r = setAsideBy(run.restarts ?? [], iteration);
  return r === undefined ? null : { restartFrom: r.from, declaredAt: r.at };
}

/** The newest verdict of each gate on `iteration` (the gates part lists them oldest first), by name. */
function newestVerdicts(gates: ReportGates, iteration: number): NonNullable<ReportSnapshot['verdicts']> {
  const newest = new Map<string, ReportVerdict>();
  for (const v of gates.iterations.find((i) => i.iteration === iteration)?.verdicts ?? [])
    newest.set(v.name, v);
  return [...newest.values()]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((v) => ({ name: v.name, verdict: v.verdict, attempt: v.attempt }));
}

/**
 * "agent exited 1" or "agent ended by SIGKILL" for an iteration whose agent (`iterate`'s CMD) failed,
 * for md and html: its work was recorded all the same, so the row says how the agent ended. Null
 * when it exited 0 or the iteration was not made by `iterate`.
 */
export function agentPhrase(s: ReportSnapshot): string | null {
  const agent = s.agent;
  if (agent === undefined || (agent.exitCode === 0 && agent.signal === null)) return null;
  return agent.signal !== null ? `agent ended by ${agent.signal}` : `agent exited ${String(agent.exitCode)}`;
}

/** "iteration 2 (set aside by the restart from iteration 1)" and the like, for md and html. */
export function asidePhrase(s: ReportSnapshot): string | null {
  if (!s.setAside) return null;
  const from = s.setAside.restartFrom === 0 ? "the run's start" : `iteration ${s.setAside.restartFrom}`;
  return `set aside by the restart from ${from}`;
}

/** One phrase per declared restart, for the md and html reports: "after iteration 2, restarted from iteration 1 (abc1234567)". */
export function restartPhrases(run: RunRecord): string[] {
  return (run.restarts ?? []).map(
    (r) =>
      `after iteration ${r.lastIteration}, restarted from ${r.from === 0 ? "the run's start" : `iteration ${r.from}`} (${r.sha.slice(0, 10)}) at ${r.at}`,
  );
}

/**
 * The run asked for, else the most recent run recorded in `workspace` (default: -C), a directory
 * holding it included, else the most recent of all.
 */
async function pickRun(
  snapshotter: Snapshotter,
  runId: string | undefined,
  workspace: string | undefined,
): Promise<RunRecord> {
  if (runId !== undefined) {
    const run = await snapshotter.store.loadRun(assertSafeId(runId, 'run id'));
    if (!run)
      throw new RunNotFoundError(`no run ${JSON.stringify(runId)}; "runs" lists the recorded ones`, {
        details: { runId },
      });
    return snapshotter.withLocalWorkspace(run);
  }
  // Strict: with a damaged record, which run is the most recent cannot be known.
  const runs = await snapshotter.store.listRunsStrict();
  const recent = [...runs].sort(
    (a, b) => byInstant(b.updatedAt, a.updatedAt) || byInstant(b.createdAt, a.createdAt),
  );
  if (recent.length === 0)
    throw new RunNotFoundError(
      'no run recorded in this home yet; call "before" and "after" first, or pass --home',
    );
  // One home serves many projects: the most recent run recorded in this workspace (-C, else the
  // current directory), not another project's run verified against it; a directory where no run was
  // recorded (a clone beside the original) takes the most recent of all.
  const here = workspace ?? snapshotter.options.localWorkspace;
  const real = here === undefined ? undefined : await realpath(here).catch(() => resolve(here));
  const mine = real === undefined ? undefined : recent.find((run) => isWithin(real, run.workspace));
  return snapshotter.withLocalWorkspace(mine ?? (recent[0] as RunRecord));
}

function isWithin(dir: string, workspace: string): boolean {
  return dir === workspace || dir.startsWith(workspace.endsWith(sep) ? workspace : `${workspace}${sep}`);
}

/**
 * `task` and `gate` from the snapshot when it records them, else (a snapshot stored before they
 * were recorded) from the commit message's `Task:` and `Gate:` lines.
 */
export function withTaskAndGate(snapshot: Snapshot): ReportSnapshot {
  const task = snapshot.task !== undefined ? snapshot.task : messageLine(snapshot.commitMessage, 'Task');
  const gate = snapshot.gate !== undefined ? snapshot.gate : messageLine(snapshot.commitMessage, 'Gate');
  return { ...snapshot, task, gate };
}

function messageLine(message: string, key: string): string | null {
  const line = message.split('\n').find((l) => l.startsWith(`${key}: `) || l === `${key}:`);
  const value = line?.slice(key.length + 1).trim();
  return value ? value : null;
}

function sum<T>(items: readonly T[], of: (item: T) => number): number {
  return items.reduce((total, item) => total + of(item), 0);
}
