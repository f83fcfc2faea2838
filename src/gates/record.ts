/** `gate record`: a verdict the caller observed itself (`observed: false`), with the log it kept. */
import { stat } from 'node:fs/promises';
import type { GateResult } from '../../types/gate.js';
import { PathNotFoundError } from '../errors.js';
import { getTree } from '../git/refs.js';
import { openRepo } from '../git/repo.js';
import { assertOutsideGitDir } from '../snapshotter/excludes.js';
import type { NewGateResult } from '../store/gate-store.js';
import {
  appendWithLog,
  checkOptions,
  countsOf,
  findIteration,
  judged,
  logDir,
  type GateContext,
} from './attempt.js';
import { readJunitFiles } from './junit-files.js';
import { copyIntoSink, openLogSink, type LogSink } from './log.js';
import { decideVerdict } from './verdict.js';

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

export async function recordGate(
  ctx: GateContext,
  workspace: string,
  opts: GateRecordOptions,
): Promise<GateResult> {
  checkOptions(opts);
  const snapshot = await findIteration(ctx.snapshotter, opts.runId, opts.iteration);
  const repo = await openRepo(workspace, ctx.snapshotter.gitOptions());
  await assertOutsideGitDir(repo, ctx.snapshotter.options);
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
    sink = await openLogSink(await logDir(ctx.snapshotter, snapshot), opts.name);
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
  return appendWithLog(ctx, result, sink);
}
