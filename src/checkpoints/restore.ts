import { lstat } from 'node:fs/promises';
import type { Patch, RestoreResult, RevertResult } from '../../types/checkpoint.js';
import { InvalidArgumentError, PathNotFoundError } from '../errors.js';
import { fsPath } from '../fs/path-bytes.js';
import { listTree, type TreeEntry } from '../git/checkpoint-trees.js';
import type { RefRecord } from '../git/parsers/for-each-ref.js';
import { changedBetween, firstPatchWins, planChanges, restoreDesired } from './plan.js';
import { knownPaths } from './record.js';
import type { Capture } from './capture.js';
import { nestedRepositoriesAbove, skippedBy } from './skip-rules.js';
import type { CheckpointStore } from './store.js';
import { toAbsolute, toWorkspaceGitPath } from './workspace-paths.js';

/** Writing a checkpoint's files back into the workspace: `restore` and `revert`, each after a safety checkpoint. */

/**
 * Makes the workspace match checkpoint `hash` for every path the checkpoints know: changed files
 * rewritten, files created since removed, deleted files brought back. A safety checkpoint is
 * taken first; ignored, skipped (now or at `hash`) and never-captured files are not touched, nor
 * any that changed after the safety capture (see apply.ts).
 */
export function restoreTo(store: CheckpointStore, hash: string): Promise<RestoreResult> {
  return store.locked('checkpoint restore', 'existing', async () => {
    const { trees, refs } = await store.resolveCheckpoints([hash]);
    const target = trees[0] as string;
    const wanted = await store.requireListing(target);
    const label = `safety before restore ${target.slice(0, 12)}`;
    const { captured, current } = await captureForRestore(store, wanted.keys());
    const safety = await store.trackLocked(label, 'safety', false, {}, captured, refs);
    const applied = await store.apply(
      planChanges(restoreDesired(wanted, current), current, skippedBy(refs, hash)),
      current,
      safety,
    );
    return {
      hash: target,
      safety: safety.hash,
      safetyRef: safety.ref,
      leftAlone: store.absolute(applied.leftAlone),
    };
  });
}

/** `revert(hash, paths?)`: the files that differ from checkpoint `hash`, under `paths` (default: all). */
export async function revertToCheckpoint(
  store: CheckpointStore,
  target: string,
  paths?: readonly string[],
): Promise<RevertResult> {
  store.assertRevision(target);
  const given =
    paths === undefined
      ? null
      : await Promise.all(paths.map((p) => toWorkspaceGitPath(store.workspace, p, store.forbidden)));
  // The workspace root (`''`) holds every changed file.
  const selection = given === null || given.includes('') ? null : given;
  return store.locked('checkpoint revert', 'existing', async () => {
    const { trees, refs } = await store.resolveCheckpoints([target]);
    const wanted = await store.requireListing(trees[0] as string);
    const uncaptured = selection === null ? [] : await assertKnownPaths(store, selection, wanted);
    return revertLocked(
      store,
      refs,
      wanted.keys(),
      (current) => changedBetween(wanted, current, selection).map((p) => [p, wanted.get(p) ?? null]),
      skippedBy(refs, target),
      uncaptured,
    );
  });
}

/** `revert(patches)`: each file named by a patch, from the first patch naming it; absent there, deleted. */
export async function revertPatches(
  store: CheckpointStore,
  target: readonly Patch[],
  paths?: readonly string[],
): Promise<RevertResult> {
  if (paths !== undefined)
    throw new InvalidArgumentError('revert(patches) takes no separate paths: list the files in the patches', {
      details: {},
    });
  const pairs: Array<[string, string]> = [];
  for (const patch of target) {
    store.assertRevision(patch.hash);
    for (const file of patch.files)
      pairs.push([await toWorkspaceGitPath(store.workspace, file, store.forbidden), patch.hash]);
  }
  const sources = firstPatchWins(pairs);
  return store.locked('checkpoint revert', 'existing', async () => {
    const hashes = [...new Set(target.map((p) => p.hash))];
    const { trees, refs } = await store.resolveCheckpoints(hashes);
    const listings = new Map<string, Map<string, TreeEntry>>();
    for (const [i, hash] of hashes.entries())
      listings.set(hash, await store.requireListing(trees[i] as string));
    const skipped = new Map(hashes.map((hash) => [hash, skippedBy(refs, hash)]));
    return revertLocked(
      store,
      refs,
      sources.keys(),
      () => [...sources].map(([path, hash]) => [path, listings.get(hash)?.get(path) ?? null]),
      (path) => skipped.get(sources.get(path) as string)?.(path) === true,
    );
  });
}

async function revertLocked(
  store: CheckpointStore,
  refs: readonly RefRecord[],
  /** The paths the revert may touch, besides what the capture holds (captureForRestore). */
  paths: Iterable<string>,
  desired: (current: ReadonlyMap<string, TreeEntry>) => Array<[string, TreeEntry | null]>,
  /** Paths the capture of the checkpoint each comes from skipped (skip-rules.ts skippedBy). */
  skippedThen: (path: string) => boolean,
  /** Paths named by the caller that are on disk but in neither capture: left alone, and said to be. */
  uncaptured: readonly string[] = [],
): Promise<RevertResult> {
  const { captured, current } = await captureForRestore(store, paths);
  const safety = await store.trackLocked('safety before revert', 'safety', false, {}, captured, refs);
  const plan = planChanges(desired(current), current, skippedThen);
  const applied = await store.apply(plan, current, safety);
  return {
    reverted: store.absolute(applied.written),
    deleted: store.absolute(applied.deleted),
    safety: safety.hash,
    safetyRef: safety.ref,
    leftAlone: store.absolute([...new Set([...applied.leftAlone, ...uncaptured])].sort()),
  };
}

/**
 * The capture a restore or revert plans from and keeps as its safety checkpoint. git reports a
 * nested repository only when the index holds none of its files: a captured directory that became
 * a repository with nothing in it changed since is taken again as the nested repository it is
 * (left out, and skipped), if it lies above one of `paths` or of the capture's, so that neither the
 * plan nor the safety checkpoint takes its files for the project's.
 */
export async function captureForRestore(
  store: CheckpointStore,
  paths: Iterable<string>,
): Promise<{ captured: Capture; current: Map<string, TreeEntry> }> {
  const captured = await store.capture();
  const current = await store.requireListing(captured.treeId);
  const known = new Set(captured.skipped.map((s) => s.path));
  const nested = nestedRepositoriesAbove(store.workspace, paths, current.keys()).filter((d) => !known.has(d));
  if (nested.length === 0) return { captured, current };
  const again = await store.capture({ nested });
  return { captured: again, current: await store.requireListing(again.treeId) };
}

/**
 * Every path named by a revert must be known to the checkpoint or to the workspace now
 * (PATH_NOT_FOUND otherwise), so that a typo is an error before anything changes. Returns those
 * on disk that no capture holds (ignored, a nested repository, skipped): the revert leaves them alone.
 */
async function assertKnownPaths(
  store: CheckpointStore,
  selection: readonly string[],
  wanted: ReadonlyMap<string, TreeEntry>,
): Promise<string[]> {
  const inCheckpoint = knownPaths(wanted.keys());
  const unknown = selection.filter((sel) => !inCheckpoint.has(sel));
  if (unknown.length === 0) return [];
  const inWorkspace = knownPaths((await listTree(store.repo, (await store.capture()).treeId))?.keys() ?? []);
  const uncaptured = unknown.filter((sel) => !inWorkspace.has(sel));
  const onDisk = await Promise.all(
    uncaptured.map((p) =>
      lstat(fsPath(toAbsolute(store.workspace, p))).then(
        () => true,
        () => false,
      ),
    ),
  );
  const missing = uncaptured.filter((_, i) => onDisk[i] !== true);
  if (missing.length > 0) {
    const abs = missing.map((p) => toAbsolute(store.workspace, p));
    // U+FFFD is what a byte that is not UTF-8 became on its way in (a command line's argv).
    const bytes = abs.some((p) => p.includes('\ufffd'))
      ? '; a name that is not UTF-8 is given with each such byte as \\udcNN, as JSON output writes it'
      : '';
    throw new PathNotFoundError(
      `${abs.map(spelt).join(', ')}: neither the checkpoint nor the workspace has such a path; check the spelling (see "checkpoint patch HASH")${bytes}`,
      {
        details: { paths: abs },
      },
    );
  }
  return uncaptured;
}

/** A path for a message: each byte of a name that is not UTF-8 as `\\udcNN` (as JSON writes it), never U+FFFD. */
function spelt(path: string): string {
  return path.replace(/[\udc80-\udcff]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}
