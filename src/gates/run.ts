/**
 * Running a check: refuse a workspace that is not the after tree (or use an isolated checkout), run
 * the command with its output teed into the log, read its JUnit reports and store the verdict.
 */
import { realpath } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import type { GateResult } from '../../types/gate.js';
import type { Snapshot } from '../../types/snapshot.js';
import {
  AgentgateError,
  GateNotReplayableError,
  GateTreeMismatchError,
  InvalidArgumentError,
  RevisionNotFoundError,
} from '../errors.js';
import { exactly } from '../git/hardening.js';
import { getTree } from '../git/refs.js';
import { openRepo, type Repo } from '../git/repo.js';
import { readIndexEntries } from '../git/index-entries.js';
import { beyondStatus, excludedBy, readStatus, submoduleChanges } from '../git/state.js';
import { convertedChanges } from '../git/converted-files.js';
import { sealOf, trustIndex, type IndexState } from '../git/index-seal.js';
import type { StatusEntry } from '../git/parsers/status.js';
import { runUserCommand } from '../process/user-command.js';
import type { NewGateResult } from '../store/gate-store.js';
import { layout } from '../store/paths.js';
import { assertOutsideGitDir, checkedExcludes, workspaceExcludes } from '../snapshotter/excludes.js';
import {
  appendWithLog,
  assertAttemptLeft,
  checkArgv,
  checkOptions,
  countsOf,
  findIteration,
  judged,
  logDir,
  type GateContext,
  type Judged,
} from './attempt.js';
import {
  isolatedEnv,
  removeCommittedReports,
  sweepIsolatedCheckouts,
  withIsolatedCheckout,
} from './isolated.js';
import { readJunitFiles, reportPaths, reportVersions } from './junit-files.js';
import { openLogSink, type LogSink } from './log.js';
import { decideVerdict, oneLine } from './verdict.js';

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

/** `Gates.run`: the check on the iteration's after tree, in the workspace or an isolated checkout. */
export async function runGate(
  ctx: GateContext,
  workspace: string,
  opts: GateRunOptions,
): Promise<GateResult> {
  checkCommand(opts);
  const junit = opts.junit ?? [];
  // Independent look-ups run together: a gate's own cost is on every CI step's path.
  const [snapshot, repo] = await Promise.all([
    findIteration(ctx.snapshotter, opts.runId, opts.iteration),
    openRepo(workspace, ctx.snapshotter.gitOptions()),
  ]);
  // A repository that lacks the after commit is a workspace not at it: without --isolated the
  // comparison's GATE_TREE_MISMATCH says so first, not the tree's look-up (REVISION_NOT_FOUND).
  const tree = getTree(repo, snapshot.afterSha).catch((error: unknown) => ({ error }));
  const [found, , seal] = await Promise.all([
    tree,
    assertOutsideGitDir(repo, ctx.snapshotter.options),
    opts.isolated === true ? null : assertAtAfter(ctx, repo, snapshot, junit),
    assertAttemptLeft(ctx, { runId: snapshot.runId, iteration: snapshot.iteration, name: opts.name }),
    // Every gate sweeps what a killed isolated one left (an isolated gate does so as it starts).
    opts.isolated === true
      ? null
      : sweepIsolatedCheckouts(layout(ctx.snapshotter.options.home).gateCheckouts),
  ]);
  if (typeof found !== 'string') throw found.error;
  const treeId = found;
  // Without --isolated the workspace is compared with the after tree again once the check has ended,
  // on the repository opened anew: the check may have written its config (a filter, core.worktree),
  // which the drivers switched off at the start know nothing of, or rewritten the index. A check
  // that left no repository we can open there (`.git` moved, HEAD garbled, core.bare) changed it too.
  const recheck =
    opts.isolated === true
      ? null
      : async () => {
          try {
            const again = await openRepo(workspace, ctx.snapshotter.gitOptions());
            await trustIndex(again, seal === null ? undefined : sealOf(seal, snapshot.afterSha));
            return await treeMismatch(ctx, again, snapshot, junit);
          } catch (error) {
            if (!(error instanceof AgentgateError)) throw error;
            return {
              why: `the repository cannot be opened (${error.code}: ${error.message})`,
              head: null,
              paths: [],
            };
          }
        };
  return runOnTree(ctx, repo, judged(snapshot, treeId, opts.name), opts, null, recheck);
}

/**
 * A replay's run (`gate replay`): isolated, on the tree `of` recorded (which must still be its after
 * commit's tree here: GATE_NOT_REPLAYABLE otherwise), recorded as about the very capture `of` judged.
 * A superseded verdict's replay therefore names the deleted capture, and does not count either.
 */
export async function replayRun(
  ctx: GateContext,
  workspace: string,
  opts: GateRunOptions,
  of: GateResult,
): Promise<GateResult> {
  checkCommand(opts);
  const repo = await openRepo(workspace, ctx.snapshotter.gitOptions());
  const [treeId] = await Promise.all([
    recordedTree(repo, of),
    assertOutsideGitDir(repo, ctx.snapshotter.options),
    assertAttemptLeft(ctx, of),
  ]);
  return runOnTree(ctx, repo, judged(of, treeId, of.name), { ...opts, isolated: true }, of.attempt, null);
}

function checkCommand(opts: GateRunOptions): void {
  checkOptions(opts);
  if (opts.command.length === 0 || opts.command[0] === '')
    throw new InvalidArgumentError('give the command to run after "--"', { details: {} });
  checkArgv(opts.command);
}

/** The tree a verdict judged, when its after commit is still here and has that tree. */
async function recordedTree(repo: Repo, of: GateResult): Promise<string> {
  const tree = await getTree(repo, of.afterSha).catch((error: unknown) => {
    if (error instanceof RevisionNotFoundError) return null;
    throw error;
  });
  if (tree === of.treeId) return tree;
  const why =
    tree === null
      ? `its after commit ${of.afterSha} is not in this repository (a deleted capture's commit that git gc removed, or a fetched run's commits not fetched)`
      : `it names tree ${of.treeId}, but its after commit ${of.afterSha} has tree ${tree} ("verify --run ${of.runId}" fails it)`;
  throw new GateNotReplayableError(
    `verdict ${of.id} (attempt ${of.attempt} of gate ${of.name}) cannot be replayed on the tree it judged: ${why}`,
    { details: { id: of.id, afterSha: of.afterSha, treeId: of.treeId, tree } },
  );
}

/** Runs the check on `about`'s tree and stores the verdict; no temp log stays behind a failure. */
async function runOnTree(
  ctx: GateContext,
  repo: Repo,
  about: Judged,
  opts: GateRunOptions,
  replayOf: number | null,
  recheck: (() => Promise<TreeMismatch | null>) | null,
): Promise<GateResult> {
  // The check may remove the log as it is written (git clean -fdx of artifacts in the workspace).
  const remake = () => logDir(ctx.snapshotter, about);
  const sink = await openLogSink(await remake(), opts.name, remake);
  try {
    return await observeAndStore(ctx, repo, about, sink, opts, replayOf, recheck);
  } catch (error) {
    // Whatever failed, no temp log stays behind (a killed call's is swept by the next one).
    await sink.discard().catch(() => undefined);
    throw error;
  }
}

/** Runs the check (in an isolated checkout when asked), reads its reports and stores the verdict. */
async function observeAndStore(
  ctx: GateContext,
  repo: Repo,
  about: Judged,
  sink: LogSink,
  opts: GateRunOptions,
  replayOf: number | null,
  recheck: (() => Promise<TreeMismatch | null>) | null,
): Promise<GateResult> {
  const junit = opts.junit ?? [];
  const observe = async (cwd: string, env?: NodeJS.ProcessEnv) => {
    const earlier = await reportVersions(junit, cwd);
    const startedAt = new Date();
    const ran = await runUserCommand({
      argv: opts.command,
      cwd,
      ...(env === undefined ? {} : { env }),
      stdio: 'tee',
      log: sink.stream,
      stdoutToStderr: opts.stdoutToStderr === true,
      ...(opts.echo ? { echo: opts.echo } : {}),
      ...(opts.timeoutMs === undefined ? {} : { timeoutMs: opts.timeoutMs }),
      group: true,
      forwardSignals: opts.forwardSignals ?? [],
    });
    // Read before an isolated checkout is removed; a file left by an earlier run does not count.
    const tests = junit.length === 0 ? null : await readJunitFiles(junit, cwd, startedAt.getTime(), earlier);
    return { startedAt, ran, tests };
  };
  const { startedAt, ran, tests } =
    opts.isolated === true
      ? await withIsolatedCheckout(
          repo,
          about.treeId,
          layout(ctx.snapshotter.options.home).gateCheckouts,
          async (dir) => {
            await removeCommittedReports(dir, junit);
            return observe(dir, isolatedEnv(dir));
          },
        )
      : await observe(repo.topLevel);
  // The log's digest and the second look at the workspace are independent: both at once.
  const [digest, changed] = await Promise.all([sink.finish(), recheck === null ? null : recheck()]);
  const decided = decideVerdict({
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
  const { verdict, reason } = changed === null ? decided : changedByCheck(decided, changed);
  const result: NewGateResult = {
    ...about,
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
    ...(changed === null ? {} : { workspaceChanged: true }),
  };
  return appendWithLog(ctx, result, sink);
}

/**
 * Without --isolated the check judges the workspace itself: it must be exactly the after commit,
 * with no change and no untracked file git does not ignore (inside submodules too, as git status
 * sees them by default, and in one not checked out), no marked path hiding what lies there or that
 * it is gone (a sparse checkout's files left out excepted), except, untracked only, the JUnit
 * reports of this gate (`junit`) and those that earlier gates of this iteration wrote in the run's
 * own workspace (docs/gates.md). GATE_TREE_MISMATCH otherwise. Our own directories are left out of
 * that comparison, so one inside the workspace that holds tracked files is UNSAFE_WORKSPACE, as
 * for `before` and `after`: edits there would go unseen.
 */
async function assertAtAfter(
  ctx: GateContext,
  repo: Repo,
  snapshot: Snapshot,
  junit: readonly string[],
): Promise<IndexState> {
  // The index as the run's last capture left it, or its stat data dropped: status would take a file
  // whose entry was rewritten by hand (its stat data, an old blob) as the after tree's.
  const run = await ctx.snapshotter.store.loadRun(snapshot.runId);
  const seal = await trustIndex(repo, run?.indexSeal);
  const [, mismatch] = await Promise.all([
    checkedExcludes(repo, ctx.snapshotter.options),
    treeMismatch(ctx, repo, snapshot, junit),
  ]);
  if (mismatch === null) return seal;
  throw new GateTreeMismatchError(
    `${mismatch.why}; the verdict would not be about that tree. Commit or stash, check out the after commit, or use --isolated (write JUnit reports where git ignores them)`,
    {
      details: {
        runId: snapshot.runId,
        iteration: snapshot.iteration,
        head: mismatch.head,
        afterSha: snapshot.afterSha,
        paths: mismatch.paths.slice(0, MAX_PATHS_IN_DETAILS),
      },
    },
  );
}

/**
 * After the check, in the workspace: the same comparison again. A check that changed what it
 * judged (wrote a tracked file, left an untracked one, moved HEAD) observed no tree we know, and
 * the next `before` or `after` would sweep its edits into the agent's work: its verdict is an
 * `error` whatever the command said, and the record says why (`workspaceChanged`).
 */
function changedByCheck(
  decided: { verdict: GateResult['verdict']; reason: string },
  mismatch: TreeMismatch,
): { verdict: GateResult['verdict']; reason: string } {
  return {
    verdict: 'error',
    reason: oneLine(
      `GATE_TREE_MISMATCH: after the check ${mismatch.why}; the verdict is not about the after tree (the check alone: ${decided.verdict}, ${decided.reason})`,
    ),
  };
}

interface TreeMismatch {
  why: string;
  /** HEAD's commit, null when unborn. */
  head: string | null;
  /** The paths that differ (none when HEAD moved). */
  paths: string[];
}

/** How the workspace differs from the iteration's after tree (see assertAtAfter), or null. */
async function treeMismatch(
  ctx: GateContext,
  repo: Repo,
  snapshot: Snapshot,
  junit: readonly string[],
): Promise<TreeMismatch | null> {
  // The check's own reports, left by an earlier attempt, do not make the workspace dirty: each is
  // named file by file (a report in a new directory would otherwise be that directory).
  const reports = await reportPaths(repo.topLevel, junit);
  const ours = await workspaceExcludes(repo, ctx.snapshotter.options);
  // Our own directories as prefixes; a report as exactly that file (a directory named by --junit
  // excuses nothing), and only untracked: a tracked file changed is a change of the tree, whatever names it.
  const inOurs = excludedBy(ours);
  const outside = (e: StatusEntry) =>
    e.kind !== 'ignored' && !inOurs(e.path) && !(e.kind === 'untracked' && reports.includes(e.path));
  // Status alone misses two things: a file marked assume-unchanged or skip-worktree (its content is
  // unknown, or it is gone), and what lies inside a submodule (readStatus does not recurse; one not
  // checked out it does not look into; marked files inside it too: see submoduleChanges).
  const listing = reports.length > 0 ? 'all' : 'normal';
  // Modes and links compared whatever the repository claims of its filesystem (EXACT_TREE_CONFIG).
  const exact = exactly(repo);
  // Bytes that git's clean conversion (ident, text, eol, working-tree-encoding) hides from status.
  const index = readIndexEntries(exact);
  const [status, beyond, converted] = await Promise.all([
    readStatus(exact, listing),
    index.then((entries) => beyondStatus(exact, listing, entries)),
    index.then((entries) => convertedChanges(exact, snapshot.afterSha, entries)),
  ]);
  const { uncompared } = beyond;
  const atAfter = status.oid === snapshot.afterSha;
  let changed = [...status.entries, ...beyond.changes].filter(outside);
  if (atAfter && changed.some((e) => e.kind === 'untracked'))
    changed = await withoutEarlierReports(ctx, repo, snapshot, outside, changed, listing === 'all');
  if (atAfter && changed.length === 0 && uncompared.length === 0 && converted.length === 0) return null;
  const why = !atAfter
    ? `HEAD is ${status.oid ?? 'unborn'}, not iteration ${snapshot.iteration}'s after commit ${snapshot.afterSha}`
    : changed.length > 0
      ? `the workspace has uncommitted changes: ${named(changed.map(describeEntry))}`
      : converted.length > 0
        ? `the bytes of ${named(converted)} are not the after tree's, though git status, converting them as an attribute (ident, text, eol, working-tree-encoding) or core.autocrlf says, sees no change`
        : `${uncompared.length} tracked path(s) are marked assume-unchanged or skip-worktree (${named(
            uncompared.map((e) => e.path),
          )}), so git does not compare them with the after tree; clear each mark ("git update-index --no-assume-unchanged <path>", then "git update-index --no-skip-worktree <path>": one command clears only one; inside the submodule for a path in one)`;
  const listed = [changed.map((e) => e.path), converted, uncompared.map((e) => e.path)];
  const paths = listed.find((p) => p.length > 0) ?? [];
  return { why, head: status.oid, paths: atAfter ? paths : [] };
}

/**
 * The untracked files left once those that earlier gates of this iteration named as their JUnit
 * reports are set aside: verdicts observed here (not isolated, not received), on this very after
 * commit, when the gate runs in the workspace the iteration recorded (the verdicts do not say where
 * they ran: in a clone, a file of that name was written by someone else). Only untracked files: a
 * tracked file changed is a change of the tree.
 */
async function withoutEarlierReports(
  ctx: GateContext,
  repo: Repo,
  snapshot: Snapshot,
  outside: (e: StatusEntry) => boolean,
  changed: StatusEntry[],
  listedAll: boolean,
): Promise<StatusEntry[]> {
  const ran = (await ctx.store.list(snapshot.runId)).results.filter(
    (r) =>
      r.iteration === snapshot.iteration &&
      r.afterSha === snapshot.afterSha &&
      r.observed &&
      !r.isolated &&
      r.receivedAt === undefined,
  );
  const earlier = new Set(
    await reportPaths(
      repo.topLevel,
      ran.flatMap((r) => r.junit ?? []),
    ),
  );
  if (earlier.size === 0 || !(await inRecordedWorkspace(ctx, repo, snapshot))) return changed;
  // A report in a directory of its own shows as that directory: list the files one by one.
  const entries =
    listedAll || !changed.some((e) => e.path.endsWith('/'))
      ? changed
      : [
          ...(await readStatus(exactly(repo), 'all')).entries,
          ...(await submoduleChanges(exactly(repo), 'all')).changes,
        ].filter(outside);
  return entries.filter((e) => !(e.kind === 'untracked' && earlier.has(e.path)));
}

/** Whether `repo` is the workspace the snapshot was recorded in (as stored, not a `-C` stand-in), by real path. */
async function inRecordedWorkspace(ctx: GateContext, repo: Repo, snapshot: Snapshot): Promise<boolean> {
  const stored = await ctx.snapshotter.store.load(snapshot.id);
  if (stored === null) return false;
  const [recorded, here] = await Promise.all(
    [stored.workspace, repo.topLevel].map((p) => realpath(p).catch(() => null)),
  );
  return recorded !== null && recorded === here;
}

const MAX_PATHS_IN_MESSAGE = 5;
const MAX_PATHS_IN_DETAILS = 100;

function describeEntry(e: StatusEntry): string {
  return e.kind === 'untracked' ? `${e.path} (untracked)` : e.path;
}

/** The first few, and how many more. */
function named(paths: readonly string[]): string {
  const shown = paths.slice(0, MAX_PATHS_IN_MESSAGE).join(', ');
  return paths.length > MAX_PATHS_IN_MESSAGE
    ? `${shown} and ${paths.length - MAX_PATHS_IN_MESSAGE} more`
    : shown;
}
