import type { FileDiff, Patch } from '../../types/checkpoint.js';
import { decodeBytes } from '../fs/path-bytes.js';
import { ignoredPaths } from '../git/checkpoint-index.js';
import { changedPaths, diffTrees, readObjects, unifiedTreeDiff } from '../git/checkpoint-trees.js';
import { isNullId } from '../git/ids.js';
import type { Capture } from './capture.js';
import { skippedPathsOf, underAny } from './skip-rules.js';
import type { CheckpointStore } from './store.js';
import { toAbsolute } from './workspace-paths.js';

/** Reading what changed since a checkpoint: `patch`, `diff` and `diff-full` (they only write the store's index). */

/** Files changed since checkpoint `hash`, as absolute paths (the current state is captured first, without a checkpoint). */
export function patchSince(store: CheckpointStore, hash: string): Promise<Patch> {
  return store.locked('checkpoint patch', 'existing', async () => {
    const from = await store.requireCheckpoint(hash);
    const { treeId } = await store.capture();
    const files = await withoutNowIgnored(store, await changedPaths(store.repo, from, treeId));
    return { hash: from, files: files.map((f) => toAbsolute(store.workspace, f)) };
  });
}

/** Unified diff (binary-safe, applicable with `git apply`) from checkpoint `hash` to the current state. */
export function diffBytesSince(store: CheckpointStore, hash: string): Promise<Buffer> {
  return store.locked('checkpoint diff', 'existing', async () => {
    const { trees, refs } = await store.resolveCheckpoints([hash]);
    const from = trees[0] as string;
    const { treeId, skipped } = await store.capture();
    const changed = await changedPaths(store.repo, from, treeId);
    const ignored = await ignoredPaths(store.repo, changed, store.trackedIgnored.current);
    const onlySkipped = changed.filter(
      skippedAtEnds(
        skippedPathsOf(refs, hash),
        skipped.map((s) => s.path),
      ),
    );
    return unifiedTreeDiff(store.repo, from, treeId, [...new Set([...ignored, ...onlySkipped])]);
  });
}

/**
 * Whether a changed path differs only because a capture skipped it (too large, unreadable, a nested
 * repository: skip-rules.ts), so that the tree lacks it: skipped at `from` it is no addition, skipped
 * at `to` (now) no deletion. Its contents were not captured there: diff and diff-full leave it out
 * (patch still names it: it did change).
 */
function skippedAtEnds(from: readonly string[], to: readonly string[]): (path: string) => boolean {
  return underAny([...from, ...to]);
}

/**
 * Per-file before/after contents between two checkpoints (`to` defaults to the current state).
 * Contents of every file come from one `cat-file --batch` process; binary files have empty
 * contents and zero counts. Paths are workspace-relative.
 */
export function diffFullBetween(store: CheckpointStore, from: string, to?: string): Promise<FileDiff[]> {
  return store.locked('checkpoint diff-full', 'existing', async () => {
    const { trees, refs } = await store.resolveCheckpoints(to === undefined ? [from] : [from, to]);
    const [fromTree, given] = trees as [string, string | undefined];
    const now = given === undefined ? await store.capture() : null;
    const toTree = given ?? (now as Capture).treeId;
    const onlySkipped = skippedAtEnds(
      skippedPathsOf(refs, from),
      now === null ? skippedPathsOf(refs, to as string) : now.skipped.map((s) => s.path),
    );
    const all = (await diffTrees(store.repo, fromTree, toTree)).filter((r) => !onlySkipped(r.path));
    const kept = new Set(
      await withoutNowIgnored(
        store,
        all.map((r) => r.path),
      ),
    );
    const records = all.filter((r) => kept.has(r.path));
    const wanted = records
      .filter((r) => !r.binary)
      .flatMap((r) => [r.srcId, r.dstId])
      .filter((o) => !isNullId(o));
    const paths = new Map(records.flatMap((r) => [[r.srcId, r.path] as const, [r.dstId, r.path] as const]));
    const blobs = await readObjects(store.repo, wanted, paths);
    // Bytes that are not UTF-8 become U+DC80..U+DCFF (fs/path-bytes.ts), as in `diff --json`: nothing is lost.
    const text = (oid: string): string => {
      const blob = isNullId(oid) ? undefined : blobs.get(oid);
      return blob === undefined ? '' : decodeBytes(blob);
    };
    return records.map((r) => ({
      file: r.path,
      before: r.binary ? '' : text(r.srcId),
      after: r.binary ? '' : text(r.dstId),
      additions: r.insertions,
      deletions: r.deletions,
      status: r.status === 'A' ? 'added' : r.status === 'D' ? 'deleted' : 'modified',
      binary: r.binary,
    }));
  });
}

/**
 * Drops paths that the ignore rules match now. A file captured at an earlier checkpoint and
 * ignored since (and not tracked by the repository) leaves later captures; it is not reported as
 * changed (deleted), as git does not report an ignored file, and restore and revert never touch it.
 */
export async function withoutNowIgnored(store: CheckpointStore, paths: readonly string[]): Promise<string[]> {
  const ignored = await ignoredPaths(store.repo, paths, store.trackedIgnored.current);
  return ignored.size === 0 ? [...paths] : paths.filter((p) => !ignored.has(p));
}
