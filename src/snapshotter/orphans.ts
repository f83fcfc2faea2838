import { rm } from 'node:fs/promises';
import type { IndexSeal, RunRecord } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { SnapshotterCore } from './core.js';

/**
 * Links a snapshot `after` has just saved into its run. When the link fails (the run's lock held
 * past the timeout, a record that cannot be written), the file is taken back before the error goes
 * up: left there, it was a snapshot no run links, which the retry the error invites could not see,
 * so the retry stored a second snapshot of the iteration and `verify --all` failed for ever. The
 * file stays when the run does link it (the write landed) or when the record cannot be read.
 */
export async function linkSaved(
  core: SnapshotterCore,
  workspace: string,
  snapshot: Snapshot,
  usesBefore: boolean,
  indexSeal: IndexSeal,
): Promise<void> {
  try {
    await core.store.linkSnapshot(
      snapshot.runId,
      workspace,
      snapshot.id,
      snapshot.iteration,
      usesBefore,
      indexSeal,
    );
  } catch (error) {
    const run = await core.store.loadRun(snapshot.runId).catch(() => undefined);
    if (run !== undefined && run?.snapshotIds.includes(snapshot.id) !== true)
      await rm(core.store.snapshotPath(snapshot.id), { force: true }).catch(() => undefined);
    throw error;
  }
}

/**
 * After the repository lock was taken over from a dead holder: links every snapshot of this
 * workspace that its run does not link, whatever run or iteration the dead call captured (a
 * `before` or `after` of another run in the same work tree may be the first to take the lock over,
 * and the take-over happens once). Left out: a snapshot the run records as deleted (a `delete`
 * killed between its unlink and the file's removal), and one whose iteration the run already
 * links another snapshot for (a capture made since).
 */
export async function linkOrphans(core: SnapshotterCore, workspace: string): Promise<void> {
  const { snapshots } = await core.store.list();
  const mine = snapshots.filter((s) => s.workspace === workspace);
  const runs = new Map<string, RunRecord | null>();
  for (const s of mine) {
    if (!runs.has(s.runId)) runs.set(s.runId, await core.store.loadRun(s.runId).catch(() => null));
    const run = runs.get(s.runId);
    if (!run || run.snapshotIds.includes(s.id)) continue;
    if (run.deletedSnapshots?.some((d) => d.snapshotId === s.id)) continue;
    const taken = mine.some(
      (o) => o.runId === s.runId && o.iteration === s.iteration && run.snapshotIds.includes(o.id),
    );
    if (taken) continue;
    // Best effort: a repair that fails must not stop the call that found it (the next take-over retries).
    const linked = await core.store.linkSnapshot(s.runId, workspace, s.id, s.iteration).catch(() => null);
    if (linked !== null) runs.set(s.runId, linked);
  }
}
