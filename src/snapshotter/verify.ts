import { stat } from 'node:fs/promises';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyCheck } from '../../types/verify.js';
import { getDiffStats } from '../git/diff-stats.js';
import { openRepo, type OpenOptions, type Repo } from '../git/repo.js';
import { treeAfterApplying } from '../git/apply-check.js';
import { treeDiffSha256 } from '../git/unified-diff.js';
import { getTree, isAncestor, readRef } from '../git/refs.js';
import { specialRefFile, symbolicTarget } from '../git/branches.js';
import { setAsideBy, type DeletedSnapshot, type RunRecord, type RunRestart } from '../../types/run.js';
import { sha256File } from './patch-artifact.js';
import { getCommitInfo } from '../git/commit-info.js';
import { batchCheck } from '../git/record-objects.js';
import { gateLine, taskLine, trailer } from './message.js';
import { GitFailedError, GitOutputUnparseableError, ObjectMissingError } from '../errors.js';
import { iterationRef } from './core.js';
import { restartContradiction, restartName, restartPoint } from './restart-check.js';

type Check = Omit<VerifyCheck, 'snapshotId' | 'runId'>;

/**
 * Checks one stored snapshot against its repository, its artifact and its run: both SHAs exist,
 * before is an ancestor of after, the iteration ref still points at after, the stats still match
 * git, the patch artifact exists with its recorded sha256, and the run links the snapshot.
 */
export async function verifySnapshot(
  snapshot: Snapshot,
  run: RunRecord | null,
  git: OpenOptions,
): Promise<VerifyCheck[]> {
  const checks: Check[] = [];
  const add = (check: string, ok: boolean, detail: string) => checks.push({ check, ok, detail });

  add(
    'run-links-snapshot',
    run?.snapshotIds.includes(snapshot.id) ?? false,
    run
      ? run.snapshotIds.includes(snapshot.id)
        ? `run ${run.runId} lists it`
        : `run ${run.runId} does not list it`
      : `run ${snapshot.runId} not found`,
  );
  const artifactOk = await artifactCheck(snapshot, add);

  let repo: Repo | null = null;
  try {
    repo = await openRepo(snapshot.workspace, git);
  } catch (error) {
    add('workspace', false, `cannot open ${snapshot.workspace}: ${(error as Error).message}`);
  }
  if (
    repo &&
    (await gitChecks(
      repo,
      snapshot,
      { restarts: run?.restarts ?? [], last: isLastOf(run, snapshot) },
      add,
    )) &&
    artifactOk &&
    snapshot.patchPath
  ) {
    const trees = await Promise.all([
      getTree(repo, snapshot.beforeSha),
      getTree(repo, snapshot.afterSha),
    ]).catch(unreadable);
    if (typeof trees === 'string') {
      add('patch-applies', false, `git cannot read the trees here: ${trees}`);
      return checks.map((c) => ({ snapshotId: snapshot.id, runId: snapshot.runId, ...c }));
    }
    const [beforeTree, expected] = trees;
    // The intact artifact has the recorded sha256. When git's patch between the two trees, hashed
    // as it streams, has that sha256 too, the artifact is exactly that patch: nothing is held in
    // memory. Otherwise (another git version, a foreign artifact) it must apply to give after.
    if (
      (await treeDiffSha256(repo, { from: beforeTree, to: expected }).catch(() => null)) ===
      snapshot.patchSha256
    ) {
      add('patch-applies', true, "the artifact is byte for byte git's patch from before to after");
    } else {
      const applied = await treeAfterApplying(repo, snapshot.beforeSha, snapshot.patchPath).catch(
        (e: Error) => `fails: ${e.message}`,
      );
      add(
        'patch-applies',
        applied === expected,
        applied === expected
          ? 'applying the patch to before gives exactly the after tree'
          : `applying the patch to before gives ${applied}, after tree is ${expected}`,
      );
    }
  }
  return checks.map((c) => ({ snapshotId: snapshot.id, runId: snapshot.runId, ...c }));
}

type Add = (check: string, ok: boolean, detail: string) => void;

/**
 * What git could not read, as the detail of a failed check: a repository that lost objects (a
 * pack or loose object removed, a partial clone) fails that snapshot's checks, and verify goes on
 * with the rest of the store instead of stopping with GIT_FAILED.
 */
function unreadable(error: unknown): string {
  if (error instanceof GitFailedError || error instanceof ObjectMissingError) return error.message;
  throw error;
}

/** The artifact exists with its recorded sha256 (or there is none because nothing changed). */
async function artifactCheck(snapshot: Snapshot, add: Add): Promise<boolean> {
  if (snapshot.patchPath === null) {
    const ok = snapshot.beforeSha === snapshot.afterSha;
    add('patch-artifact', ok, ok ? 'no change, no artifact' : 'changed snapshot has no patch artifact');
    return ok;
  }
  const exists = await stat(snapshot.patchPath).then(
    (s) => s.isFile(),
    () => false,
  );
  if (!exists) {
    add('patch-artifact', false, `${snapshot.patchPath} is missing ("patch" regenerates the diff from git)`);
    return false;
  }
  const actual = await sha256File(snapshot.patchPath);
  const ok = actual === snapshot.patchSha256;
  add(
    'patch-artifact',
    ok,
    ok
      ? `${snapshot.patchPath} sha256 matches`
      : `${snapshot.patchPath} sha256 is ${actual}, recorded ${snapshot.patchSha256}`,
  );
  return ok;
}

/** Both commits exist, before is an ancestor of after, the ref holds after, the stats still match. */
async function gitChecks(repo: Repo, snapshot: Snapshot, line: RunLine, add: Add): Promise<boolean> {
  // A record edited to name a tree or a blob fails here: every later check asks git about commits.
  const [before = null, after = null] = (await batchCheck(repo, [snapshot.beforeSha, snapshot.afterSha])).map(
    (a) => (a.found ? a.type : null),
  );
  const commitCheck = (sha: string, type: string | null): [boolean, string] =>
    type === 'commit' || type === null
      ? [type === 'commit', sha]
      : [false, `${sha} is a ${type}, not a commit`];
  add('before-exists', ...commitCheck(snapshot.beforeSha, before));
  add('after-exists', ...commitCheck(snapshot.afterSha, after));
  if (before !== 'commit' || after !== 'commit') return false;
  const ancestor =
    snapshot.beforeSha === snapshot.afterSha ||
    (await isAncestor(repo, snapshot.beforeSha, snapshot.afterSha));
  add(
    'before-is-ancestor',
    ancestor,
    ancestor ? 'before is an ancestor of after' : 'before is not an ancestor of after',
  );
  await refCheck(repo, snapshot, add);
  await branchCheck(repo, snapshot, line, add);
  await messageChecks(repo, snapshot, add);
  const stats = await getDiffStats(repo, snapshot.beforeSha, snapshot.afterSha).catch(unreadable);
  if (typeof stats === 'string') {
    add('stats', false, `git cannot diff before and after here: ${stats}`);
    return false;
  }
  const same =
    stats.filesChanged === snapshot.filesChanged &&
    stats.insertions === snapshot.insertions &&
    stats.deletions === snapshot.deletions;
  add(
    'stats',
    same,
    same
      ? `${stats.filesChanged} files, +${stats.insertions} -${stats.deletions}`
      : `git now says ${stats.filesChanged} files +${stats.insertions} -${stats.deletions}`,
  );
  const files = JSON.stringify(stats.files) === JSON.stringify(snapshot.files);
  add(
    'files',
    files,
    files
      ? "every file's status and counts match git"
      : `the stored per-file changes differ from git's (${describeFileDifference(snapshot.files, stats.files)})`,
  );
  return ancestor;
}

/** The iteration ref exists, has the name the run and iteration give, and holds after. */
async function refCheck(repo: Repo, snapshot: Snapshot, add: Add): Promise<void> {
  const expected = iterationRef(snapshot.runId, snapshot.iteration);
  if (snapshot.ref !== expected) {
    add(
      'ref',
      false,
      snapshot.ref === null
        ? `no ref recorded; ${expected} should keep after reachable`
        : `recorded ref ${snapshot.ref} is not ${expected}`,
    );
    return;
  }
  // A FIFO where the ref's file lies would hold git (and verify with it) until gitTimeoutMs.
  const special = await specialRefFile(repo, snapshot.ref);
  if (special !== null) {
    add('ref', false, `${snapshot.ref} is a ${special}, not a ref git can read`);
    return;
  }
  // A symbolic ref (to a branch) reaches after only while that branch does, and is no ref of ours.
  const [target, link] = await Promise.all([readRef(repo, snapshot.ref), symbolicTarget(repo, snapshot.ref)]);
  const ok = target === snapshot.afterSha && link === null;
  add(
    'ref',
    ok,
    ok
      ? `${snapshot.ref} keeps after reachable`
      : link !== null
        ? `${snapshot.ref} is a symbolic ref to ${link}`
        : `${snapshot.ref} points at ${target ?? 'nothing (it is missing, or a file git cannot read)'}`,
  );
}

/** Where a snapshot stands in its run: the restarts declared, and whether it is the run's last iteration. */
interface RunLine {
  restarts: readonly RunRestart[];
  last: boolean;
}

function isLastOf(run: RunRecord | null, snapshot: Snapshot): boolean {
  return run !== null && run.snapshotIds.at(-1) === snapshot.id;
}

/**
 * The recorded branch holds after, unless the iteration was set aside: by a declared restart, or,
 * for the run's last iteration, by a branch reset to where it started or earlier (a rejected last
 * iteration whose restart no later `before` has declared yet). A run recorded elsewhere (fetched or
 * imported) is not checked against this repository's branches: its own did not travel. So a run
 * after a restart verifies alike on the machine that recorded it and on a clone (docs/runs.md).
 */
async function branchCheck(repo: Repo, snapshot: Snapshot, line: RunLine, add: Add): Promise<void> {
  // An iteration a declared restart set aside left the branch on purpose; its ref keeps it.
  const aside = setAsideBy(line.restarts, snapshot.iteration);
  if (aside !== undefined) {
    add('branch', true, `set aside by the restart from iteration ${aside.from} declared at ${aside.at}`);
    return;
  }
  if (snapshot.recordedWorkspace !== undefined) {
    add(
      'branch',
      true,
      `recorded on another machine: its branch ${snapshot.branch} did not travel (the ref and commits are checked)`,
    );
    return;
  }
  const tip = await readRef(repo, `refs/heads/${snapshot.branch}`).catch(() => null);
  if (tip === null) {
    add('branch', false, `branch ${snapshot.branch} does not exist`);
    return;
  }
  const holds = tip === snapshot.afterSha || (await isAncestor(repo, snapshot.afterSha, tip));
  const resetBack =
    !holds &&
    line.last &&
    (tip === snapshot.beforeSha || (await isAncestor(repo, tip, snapshot.beforeSha).catch(() => false)));
  if (resetBack) {
    add(
      'branch',
      true,
      `set aside: ${snapshot.branch} was reset to where this last iteration started or earlier (its ref keeps it; the next "before --restart-from N" records the restart)`,
    );
    return;
  }
  add(
    'branch',
    holds,
    holds
      ? `${snapshot.branch} contains after`
      : `${snapshot.branch} does not contain after ${snapshot.afterSha}`,
  );
}

function describeFileDifference(stored: Snapshot['files'], actual: Snapshot['files']): string {
  if (stored.length !== actual.length) return `${stored.length} stored, ${actual.length} in git`;
  const at = stored.findIndex((f, i) => JSON.stringify(f) !== JSON.stringify(actual[i]));
  return `first at ${actual[at]?.path ?? stored[at]?.path ?? '?'}`;
}

/**
 * The stored commit message is the after commit's, and the stored task and gate are the ones its
 * Task and Gate lines were made from (a record fetched from elsewhere may have been edited). An
 * empty stored message means "the agent made this commit itself": a commit that carries our
 * trailers is checked whatever the record says about its message. A commit we cannot parse (a
 * fetched one with a date out of range) is one failed check, not a failed verify.
 */
async function messageChecks(repo: Repo, snapshot: Snapshot, add: Add): Promise<void> {
  if (snapshot.beforeSha === snapshot.afterSha) return;
  let message: string;
  try {
    message = (await getCommitInfo(repo, snapshot.afterSha)).message;
  } catch (error) {
    if (!(error instanceof GitOutputUnparseableError)) throw error;
    add('commit-message', false, `the after commit cannot be read: ${error.message}`);
    return;
  }
  if (snapshot.commitMessage === '' && trailer(message, 'Agentgate-Run') === null) return;
  const same = message === snapshot.commitMessage.replace(/\n$/, '');
  add(
    'commit-message',
    same,
    same
      ? 'the after commit carries the stored message'
      : "the after commit's message differs from the stored one",
  );
  const trailers = {
    run: trailer(message, 'Agentgate-Run'),
    iteration: trailer(message, 'Agentgate-Iteration'),
    before: trailer(message, 'Agentgate-Before'),
  };
  const trailersOk =
    trailers.run === snapshot.runId &&
    trailers.iteration === String(snapshot.iteration) &&
    trailers.before === snapshot.beforeSha;
  add(
    'trailers',
    trailersOk,
    trailersOk
      ? "run, iteration and before match the commit's trailers"
      : `the commit says run ${trailers.run ?? '-'}, iteration ${trailers.iteration ?? '-'}, before ${trailers.before ?? '-'}`,
  );
  if (snapshot.task === undefined && snapshot.gate === undefined) return;
  const lines = message.split('\n');
  // No stored task (or gate) was written as an empty line: a commit that names one was not made from it.
  const fits = (stored: string | null | undefined, line: (text: string) => string) =>
    stored === null || stored === undefined
      ? !lines.some((l) => l.startsWith(line('')) && l.trim() !== line('').trim())
      : lines.includes(line(stored));
  const taskOk = fits(snapshot.task, taskLine);
  const gateOk = fits(snapshot.gate, gateLine);
  add(
    'task',
    taskOk && gateOk,
    taskOk && gateOk
      ? "task and gate match the commit's Task and Gate lines"
      : `the stored ${taskOk ? 'gate' : 'task'} does not match the commit's ${taskOk ? 'Gate' : 'Task'} line`,
  );
}

/**
 * Each iteration starts where the previous one ended: its before SHA is the previous after SHA, or
 * descends from it (a WIP commit of the next `before` sits between them).
 */
export async function continuityChecks(
  snapshots: readonly Snapshot[],
  git: OpenOptions,
  restarts: readonly RunRestart[] = [],
  deleted: readonly DeletedSnapshot[] = [],
): Promise<VerifyCheck[]> {
  const checks: VerifyCheck[] = [];
  // Once each: a run that links a snapshot twice fails its own check (runLinkChecks).
  const ordered = [...new Map(snapshots.map((s) => [s.id, s])).values()].sort(
    (a, b) => a.iteration - b.iteration,
  );
  // Each workspace is opened once, however many iterations need an ancestry check in it.
  const repos = new Map<string, Promise<Repo | null>>();
  const repoOf = (workspace: string): Promise<Repo | null> => {
    if (!repos.has(workspace))
      repos.set(
        workspace,
        openRepo(workspace, git).catch(() => null),
      );
    return repos.get(workspace) as Promise<Repo | null>;
  };
  const buildsOn = async (next: Snapshot, sha: string): Promise<boolean> => {
    if (next.beforeSha === sha) return true;
    const repo = await repoOf(next.workspace);
    return repo !== null && (await isAncestor(repo, sha, next.beforeSha).catch(() => false));
  };
  for (let i = 1; i < ordered.length; i++) {
    const prev = ordered[i - 1] as Snapshot;
    const next = ordered[i] as Snapshot;
    // Two snapshots of one iteration fail `run-links`; the next iteration builds on the later one.
    if (next.iteration === prev.iteration) continue;
    let detail = `iteration ${next.iteration} starts where iteration ${prev.iteration} ended`;
    let ok = await buildsOn(next, prev.afterSha);
    // A restart declared after `prev` counts when its commit is what its iteration really ended at.
    for (const r of restarts.filter((r) => r.lastIteration === prev.iteration && r.from < next.iteration)) {
      if (ok) break;
      if (restartPoint(ordered, r.from, deleted) !== r.sha || !(await buildsOn(next, r.sha))) continue;
      ok = true;
      detail = `iteration ${next.iteration} restarts from ${r.from === 0 ? "the run's start" : `iteration ${r.from}`} (declared at ${r.at})`;
    }
    if (!ok)
      detail = `iteration ${next.iteration} starts at ${next.beforeSha}, which does not build on iteration ${prev.iteration}'s ${prev.afterSha}`;
    checks.push({ snapshotId: next.id, runId: next.runId, check: 'continuity', ok, detail });
  }
  // A recorded restart sets iterations aside: the commits must show that the run left them there.
  for (const r of restarts) {
    const first = ordered.find((s) => s.iteration > r.lastIteration);
    const wrong = first && (await restartContradiction(r, ordered, await repoOf(first.workspace), deleted));
    if (wrong)
      checks.push({
        snapshotId: wrong.next.id,
        runId: wrong.next.runId,
        check: 'continuity',
        ok: false,
        detail: `${restartName(r)} does not agree with the commits: ${wrong.why}`,
      });
  }
  return checks;
}
