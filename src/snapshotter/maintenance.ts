import { rm, rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SafeId, type CommitInfo, type Snapshot } from '../../types/snapshot.js';
import { cherryPick as cherryPickCommit } from '../git/cherry-pick.js';
import { commitTree } from '../git/commit.js';
import { openRepo, type Repo } from '../git/repo.js';
import { batchCheck } from '../git/record-objects.js';
import { deleteRef, readRef } from '../git/refs.js';
import { removeUnreadableRef } from '../git/branches.js';
import { iterationRef, RUNS_PREFIX, type SnapshotterCore } from './core.js';
import {
  CherryPickConflictError,
  ConcurrentUpdateError,
  EmptySnapshotError,
  RevisionNotFoundError,
  SnapshotNotFoundError,
  StoreCorruptError,
} from '../errors.js';
import { sha256File } from './patch-artifact.js';
import { withRepoLock } from '../git/repo-lock.js';
import { workspaceExcludes } from './excludes.js';
import { patchPath } from '../store/paths.js';

/**
 * Removes the snapshot's metadata and its link from the run. The commit stays in git; its iteration
 * ref goes when it still points at the snapshot's after commit, so that the iteration can be captured
 * again (a ref left at another commit is kept: `after` refuses to move it).
 */
export async function deleteSnapshot(core: SnapshotterCore, idOrSha: string): Promise<string> {
  // A missing file behind a run's link is still deletable by its exact id (the link goes); a corrupt
  // one is refused (unreadableSnapshot). A SHA several snapshots share names none of them for a
  // deletion (AMBIGUOUS_ID: give the id).
  const id = await core.getSnapshot(idOrSha, { exact: true }).then(
    (snapshot) => snapshot.id,
    async (error: unknown) => {
      if (error instanceof StoreCorruptError) throw await unreadableSnapshot(core, idOrSha, error);
      if (error instanceof SnapshotNotFoundError && SafeId.safeParse(idOrSha).success) return idOrSha;
      throw error;
    },
  );
  const stored = await core.store.load(id).catch(() => null);
  try {
    await core.store.delete(id);
  } catch (error) {
    if (error instanceof SnapshotNotFoundError && (await finishDeleted(core, id))) return id;
    throw error;
  }
  // Metadata first: a crash after it leaves an orphan file, never a record without its patch.
  if (stored === null || (await linksAnotherCapture(core, stored))) return id;
  await removeArtifact(core, stored);
  await removeIterationRef(core, stored);
  return id;
}

/**
 * Whether the run links another snapshot of the deleted one's iteration: the deleted one was a stray
 * capture (one `verify --all` fails as unlinked), and the artifact path and the iteration ref, the
 * same for both, may well hold the linked capture's very patch and commit: they stay.
 */
async function linksAnotherCapture(core: SnapshotterCore, deleted: Snapshot): Promise<boolean> {
  const contents = await core.store.inspectRun(deleted.runId).catch(() => null);
  return contents?.snapshots.some((s) => s.id !== deleted.id && s.iteration === deleted.iteration) ?? false;
}

/**
 * STORE_CORRUPT for a snapshot file that does not parse, changing nothing: the iteration it recorded
 * and its after commit cannot be known, so its iteration ref would stay, and that iteration could
 * never be captured again. The way out: the file restored, or the ref removed by hand first.
 */
async function unreadableSnapshot(
  core: SnapshotterCore,
  id: string,
  error: StoreCorruptError,
): Promise<StoreCorruptError> {
  const { runs } = await core.store.listRuns();
  const runIds = runs.filter((run) => run.snapshotIds.includes(id)).map((run) => run.runId);
  const refs = runIds.length === 1 ? `${RUNS_PREFIX}${runIds[0]}/` : RUNS_PREFIX;
  return new StoreCorruptError(
    `${String(error.details.path ?? core.store.snapshotPath(id))} holds no valid snapshot, so the iteration it recorded, and the iteration ref to remove with it, cannot be known; nothing was deleted. Restore the file from a backup and delete again; or drop the snapshot by hand: in its workspace remove that iteration's ref ("git for-each-ref ${refs}" lists them; "git update-ref -d <ref>"), move the file out of the store, then "delete ${id}" drops its link from the run`,
    { cause: error, details: { ...error.details, id, runIds } },
  );
}

/** The snapshot's iteration ref, when it still points at its after commit and the repository is here. */
async function removeIterationRef(core: SnapshotterCore, snapshot: Snapshot): Promise<void> {
  const local = await core.withLocalPaths(snapshot);
  const repo = await openRepo(local.workspace, core.gitOptions()).catch(() => null);
  if (repo === null) return;
  // A FIFO or a garbled file standing there is no ref: git would wait on the one and cannot delete the other.
  await removeUnreadableRef(repo, iterationRef(snapshot.runId, snapshot.iteration));
  // Compare-and-swap: a ref that is gone or names another commit is not this snapshot's to remove.
  await deleteRef(repo, iterationRef(snapshot.runId, snapshot.iteration), snapshot.afterSha).catch(
    (error: unknown) => {
      if (!(error instanceof ConcurrentUpdateError)) throw error;
    },
  );
}

/**
 * A delete that removed the record but not the iteration ref (the workspace could not be opened, or
 * the call was killed in between) left that iteration unable to be captured again (`after` found
 * the ref at a commit this home no longer records: RUN_ID_TAKEN). Repeated, it finishes from the
 * run's `deletedSnapshots`: the ref goes when it still holds the deleted capture's after commit and
 * no snapshot the run links has that iteration. True when a ref was removed.
 */
async function finishDeleted(core: SnapshotterCore, id: string): Promise<boolean> {
  const { runs } = await core.store.listRuns();
  for (const run of runs) {
    const deleted = run.deletedSnapshots?.find((d) => d.snapshotId === id);
    if (deleted === undefined) continue;
    const contents = await core.store.inspectRun(run.runId);
    // A link that does not load could be a capture of that iteration made since: leave the ref.
    if (contents.problems.length > 0) continue;
    if (contents.snapshots.some((s) => s.iteration === deleted.iteration)) continue;
    const { workspace } = await core.withLocalWorkspace(run);
    const repo = await openRepo(workspace, core.gitOptions()).catch(() => null);
    const ref = iterationRef(run.runId, deleted.iteration);
    if (repo === null) continue;
    if (await removeUnreadableRef(repo, ref)) return true;
    if ((await readRef(repo, ref)) !== deleted.afterSha) continue;
    await deleteRef(repo, ref, deleted.afterSha);
    return true;
  }
  return false;
}

/**
 * The snapshot's own patch artifact (the recorded one, checked by its sha256), and its iteration
 * directory if that is left empty. Only a file where an artifact of this run and iteration lies, in
 * whatever artifacts directory it was written: a record edited to name any other file (with that
 * file's sha256) must not make `delete` remove a file of the user's outside the store.
 */
async function removeArtifact(core: SnapshotterCore, snapshot: Snapshot): Promise<void> {
  const local = await core.withLocalPaths(snapshot);
  if (local.patchPath === null || local.patchSha256 === null) return;
  const artifactsDir = dirname(dirname(dirname(local.patchPath)));
  if (local.patchPath !== patchPath(artifactsDir, local.runId, local.iteration)) return;
  if ((await sha256File(local.patchPath).catch(() => null)) !== local.patchSha256) return;
  await rm(local.patchPath, { force: true });
  await rmdir(dirname(local.patchPath)).catch(() => undefined);
}

/** What `cherryPick` takes besides the snapshot. */
export interface CherryPickOptions {
  /** The branch to commit on (a branch name). Default: the workspace's current branch. */
  onto?: string;
}

/**
 * Applies the snapshot's whole change (before..after, the agent's own commits included) as one
 * commit on `onto` (default: the current branch) of `workspace`, which need not be the one where the
 * snapshot was recorded (a linked worktree, a clone that fetched the run): its repository must hold
 * the snapshot's commits (REVISION_NOT_FOUND otherwise). A snapshot whose before and after trees are
 * the same (nothing, or a change undone within the iteration) is EMPTY_SNAPSHOT.
 */
export async function cherryPick(
  core: SnapshotterCore,
  workspace: string,
  idOrSha: string,
  opts: CherryPickOptions = {},
): Promise<CommitInfo> {
  const snapshot = await core.getSnapshot(idOrSha);
  if (snapshot.beforeSha === snapshot.afterSha) throw nothingToPick(snapshot, 'changed nothing');
  const repo = await openRepo(workspace, core.gitOptions());
  const [beforeTree, afterTree] = await snapshotTrees(repo, snapshot);
  if (beforeTree === afterTree) throw nothingToPick(snapshot, 'ends with the tree it started from');
  return withRepoLock(repo, core.options.lockTimeoutMs, async () => {
    const message =
      snapshot.commitMessage || `[agentgate] Run ${snapshot.runId} iteration ${snapshot.iteration}\n`;
    const squashed = await commitTree(repo, afterTree, [snapshot.beforeSha], message);
    const ignore = await workspaceExcludes(repo, core.options);
    const onto = opts.onto;
    return cherryPickCommit(repo, squashed, { ignore, ...(onto === undefined ? {} : { onto }) }).catch(
      (error: unknown) => {
        // The commit git tried is one made here for the purpose: the user knows the snapshot.
        if (!(error instanceof CherryPickConflictError)) throw error;
        const { files, onto: target } = error.details as { files: string[]; onto: string };
        throw new CherryPickConflictError(
          `cherry-picking snapshot ${snapshot.id} (${snapshot.beforeSha.slice(0, 12)}..${snapshot.afterSha.slice(0, 12)}) onto ${target} conflicts in ${files.length} file(s): ${files.slice(0, 5).join(', ')}; nothing was changed`,
          { cause: error, details: { ...error.details, id: snapshot.id, afterSha: snapshot.afterSha } },
        );
      },
    );
  });
}

/** The trees of the snapshot's before and after commits in `repo`, which must hold both. */
async function snapshotTrees(repo: Repo, snapshot: Snapshot): Promise<[string, string]> {
  const [before, after] = await batchCheck(repo, [
    `${snapshot.beforeSha}^{tree}`,
    `${snapshot.afterSha}^{tree}`,
  ]);
  if (before?.found && after?.found) return [before.id, after.id];
  throw new RevisionNotFoundError(
    `the repository of ${repo.topLevel} does not hold snapshot ${snapshot.id}'s commits (${snapshot.beforeSha.slice(0, 12)}..${snapshot.afterSha.slice(0, 12)}, run ${snapshot.runId}); fetch them into it first ("fetch --run ${snapshot.runId}", or git fetch from the repository where the run was recorded), or give -C a workspace whose repository holds them`,
    {
      details: {
        id: snapshot.id,
        workspace: repo.topLevel,
        rev: before?.found ? snapshot.afterSha : snapshot.beforeSha,
      },
    },
  );
}

function nothingToPick(snapshot: Snapshot, why: string): EmptySnapshotError {
  return new EmptySnapshotError(`snapshot ${snapshot.id} ${why}; there is nothing to cherry-pick`, {
    details: { id: snapshot.id },
  });
}
