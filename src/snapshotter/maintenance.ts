import { rm, rmdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { SafeId, type CommitInfo, type Snapshot } from '../../types/snapshot.js';
import { cherryPick as cherryPickCommit } from '../git/cherry-pick.js';
import { commitTree } from '../git/commit.js';
import { openRepo } from '../git/repo.js';
import { getTree } from '../git/refs.js';
import {
  CherryPickConflictError,
  EmptySnapshotError,
  SnapshotNotFoundError,
  StoreCorruptError,
} from '../errors.js';
import { sha256File } from './patch-artifact.js';
import { withRepoLock } from '../git/repo-lock.js';
import { workspaceExcludes } from './excludes.js';
import type { SnapshotterCore } from './core.js';

/** Removes the snapshot's metadata and its link from the run. The commit and its ref stay in git. */
export async function deleteSnapshot(core: SnapshotterCore, idOrSha: string): Promise<string> {
  // A corrupt or missing file behind a run's link is still deletable by its exact id.
  // A SHA several snapshots share names none of them for a deletion (AMBIGUOUS_ID: give the id).
  const id = await core.getSnapshot(idOrSha, { exact: true }).then(
    (snapshot) => snapshot.id,
    (error: unknown) => {
      if (
        error instanceof StoreCorruptError ||
        (error instanceof SnapshotNotFoundError && SafeId.safeParse(idOrSha).success)
      )
        return idOrSha;
      throw error;
    },
  );
  const stored = await core.store.load(id).catch(() => null);
  await core.store.delete(id);
  // Metadata first: a crash after it leaves an orphan file, never a record without its patch.
  if (stored !== null) await removeArtifact(core, stored);
  return id;
}

/** The snapshot's own patch artifact (the recorded one, checked by its sha256), and its iteration directory if that is left empty. */
async function removeArtifact(core: SnapshotterCore, snapshot: Snapshot): Promise<void> {
  const local = await core.withLocalPaths(snapshot);
  if (local.patchPath === null || local.patchSha256 === null) return;
  if ((await sha256File(local.patchPath).catch(() => null)) !== local.patchSha256) return;
  await rm(local.patchPath, { force: true });
  await rmdir(dirname(local.patchPath)).catch(() => undefined);
}

/**
 * Applies the snapshot's whole change (before..after, the agent's own commits included) as one
 * commit on `onto` (default: the current branch).
 */
export async function cherryPick(core: SnapshotterCore, idOrSha: string, onto?: string): Promise<CommitInfo> {
  const snapshot = await core.getSnapshot(idOrSha);
  if (snapshot.beforeSha === snapshot.afterSha) {
    throw new EmptySnapshotError(`snapshot ${snapshot.id} changed nothing; there is nothing to cherry-pick`, {
      details: { id: snapshot.id },
    });
  }
  const repo = await openRepo(snapshot.workspace, core.gitOptions());
  return withRepoLock(repo, core.options.lockTimeoutMs, async () => {
    const message =
      snapshot.commitMessage || `[agentgate] Run ${snapshot.runId} iteration ${snapshot.iteration}\n`;
    const squashed = await commitTree(
      repo,
      await getTree(repo, snapshot.afterSha),
      [snapshot.beforeSha],
      message,
    );
    const ignore = await workspaceExcludes(repo.topLevel, core.options);
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
