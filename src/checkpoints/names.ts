/**
 * How a checkpoint is named wherever one is taken (docs/checkpoints.md): by hash, by the label
 * `track` gave it, or by a marker (latest, baseline, safety). The library's methods resolve the
 * name here, so that the command line and a library caller read it alike.
 */
import { OBJECT_ID_PATTERN } from '../../types/ids.js';
import { CheckpointNotFoundError } from '../errors.js';
import { isCheckpointRevision } from '../git/checkpoint-trees.js';
import type { RefRecord } from '../git/parsers/for-each-ref.js';
import { listRefRecords } from '../git/refs.js';
import { CHECKPOINT_REF_PREFIX, entryOf, markersOf, META_REF_PREFIX, recordedTrees } from './message.js';
import type { CheckpointMarkers } from './options.js';
import type { CheckpointStore } from './store.js';

const MARKERS = ['latest', 'baseline', 'safety'] as const satisfies ReadonlyArray<keyof CheckpointMarkers>;

/**
 * A checkpoint named by hash, by label or by marker, as the hash the store resolves (a label or a
 * marker as the checkpoint's ref: that checkpoint's own record, such as what its capture skipped,
 * not another's of the same tree). A full object id is taken as it is; a hash that names one
 * recorded checkpoint wins over a label, a marker word over a label (the newest checkpoint with
 * it); anything unknown is passed on as it is, for the caller to report CHECKPOINT_NOT_FOUND.
 * One listing of the refs, and none for a full object id.
 */
export async function checkpointNamed(store: CheckpointStore, name: string): Promise<string> {
  if (OBJECT_ID_PATTERN.test(name)) return name;
  const records = await markedRecords(store);
  if ((MARKERS as readonly string[]).includes(name)) {
    const marked = markersOf(records)[name as (typeof MARKERS)[number]];
    if (marked === null)
      throw new CheckpointNotFoundError(
        `there is no "${name}" checkpoint yet; "checkpoint track" records one`,
        {
          details: { hash: name },
        },
      );
    return marked.ref;
  }
  if (hashMatches(records, name) === 1) return name;
  // Newest first (the refs sort by name, which starts with the time), as `list` gives them.
  const labelled = records.find((r) => r.ref.startsWith(CHECKPOINT_REF_PREFIX) && entryOf(r).label === name);
  return labelled?.ref ?? name;
}

/** How many recorded checkpoints `name` names as a HASH does (tree or commit id, whole or abbreviated, or ref). */
export function hashMatches(records: readonly RefRecord[], name: string): number {
  return isCheckpointRevision(name) ? recordedTrees(records, name).length : 0;
}

/** The records of every checkpoint and marker ref (none when there is no store yet). */
export async function markedRecords(store: CheckpointStore): Promise<RefRecord[]> {
  if (!(await store.exists())) return [];
  return store.reading(() => listRefRecords(store.repo, [CHECKPOINT_REF_PREFIX, META_REF_PREFIX]));
}
