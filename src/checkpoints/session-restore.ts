import type { CheckpointEntry, SessionRestoreResult } from '../../types/checkpoint.js';
import { changedPathsOfPairs, type TreeEntry } from '../git/checkpoint-trees.js';
import type { RefRecord } from '../git/parsers/for-each-ref.js';
import { listRefRecords } from '../git/refs.js';
import { withoutNowIgnored } from './compare.js';
import { CHECKPOINT_REF_PREFIX, lineEntryOf } from './message.js';
import { inTheWay, planChanges, type Plan } from './plan.js';
import {
  cappedTouched,
  ownerOf,
  ownsStep,
  sessionChanges,
  stepParts,
  touchedOfStep,
  type LinePosition,
  type Step,
} from './sessions.js';
import { captureForRestore } from './restore.js';
import { skippedBy } from './skip-rules.js';
import type { CheckpointStore } from './store.js';

/**
 * `checkpoint restore --prompt N --session ID` in a workspace other sessions and people work in
 * too: only the files the session changed after its prompt N go back, and of those only the ones
 * nobody else changed after the session last did (all of them with `force`). See sessions.ts for
 * how a change is attributed.
 */

export interface SessionRestoreOptions {
  /** Restore the files in conflict too (another session's or a person's later change is lost, the safety checkpoint keeps it). */
  force?: boolean;
  /** Work out the plan and change nothing: no safety checkpoint, no file written. */
  dryRun?: boolean;
}

/** Restores `from` (the session's checkpoint before prompt N, found by the caller) for its session. */
export function restoreSession(
  store: CheckpointStore,
  from: CheckpointEntry & { session: string; prompt: number },
  opts: SessionRestoreOptions = {},
): Promise<SessionRestoreResult> {
  const force = opts.force === true;
  const dryRun = opts.dryRun === true;
  return store.locked('checkpoint restore', 'existing', async () => {
    const target = await store.requireListing(from.hash);
    const { captured, current } = await captureForRestore(store, target.keys());
    const records = await listRefRecords(store.repo, [CHECKPOINT_REF_PREFIX]);
    const { changed, conflicts } = sessionChanges(
      from.session,
      await stepsAfter(store, records, from, captured.treeId),
    );
    const mine = await withoutNowIgnored(store, changed);
    // The session's files that the ignore rules match now are left alone, and said to be.
    const kept = new Set(mine);
    const ignored = changed.filter((p) => !kept.has(p));
    // A file already as it was before the prompt is no conflict, whoever changed it last.
    const inConflict = new Set(conflicts.filter((p) => !sameEntry(target.get(p), current.get(p))));
    const conflicted = mine.filter((p) => inConflict.has(p));
    const selection = force ? mine : mine.filter((p) => !inConflict.has(p));
    const plan = planChanges(
      selection.map((p): [string, TreeEntry | null] => [p, target.get(p) ?? null]),
      current,
      skippedBy(records, from.ref),
    );
    const base = {
      hash: from.hash,
      session: from.session,
      prompt: from.prompt,
      dryRun,
      forced: force,
      conflicts: store.absolute(conflicted),
    };
    if (dryRun) {
      // What the capture shows in the way stays as it is, as the real run will leave it.
      const stands = inTheWay(
        plan,
        current,
        captured.skipped.map((s) => s.path),
      );
      return {
        ...base,
        ...planned(store, plan, new Set(stands)),
        safety: null,
        safetyRef: null,
        leftAlone: store.absolute([...stands, ...ignored].sort()),
      };
    }
    const label = `prompt ${from.prompt} of session ${from.session}`;
    const safety = await store.trackLocked(
      `safety before restore of ${label}`,
      'safety',
      false,
      { event: SESSION_RESTORE_EVENT },
      captured,
    );
    const applied = await store.apply(plan, current, safety);
    // What the restore wrote is the session's own change (a later restore of it is no conflict),
    // and only that: the capture also sees what it did not write (a person's file that the
    // `.gitignore` it put back no longer ignores, a write landing meanwhile), which is nobody's.
    const touched = cappedTouched([...applied.written, ...applied.deleted]);
    if (applied.written.length + applied.deleted.length > 0)
      await store.trackLocked(`restore of ${label}`, 'track', false, {
        session: from.session,
        event: 'restore',
        role: 'restore',
        ...(touched === undefined ? {} : { touched }),
      });
    return {
      ...base,
      // A file changed after the safety capture is another's later change: a conflict, even forced
      // (and left alone, as a forced conflict that something stands in the way of is).
      conflicts: store.absolute([...new Set([...conflicted, ...applied.changed])].sort()),
      restored: store.absolute(applied.written),
      deleted: store.absolute(applied.deleted),
      safety: safety.hash,
      safetyRef: safety.ref,
      leftAlone: store.absolute([...applied.leftAlone, ...ignored].sort()),
    };
  });
}

function sameEntry(a: TreeEntry | undefined, b: TreeEntry | undefined): boolean {
  return a === undefined || b === undefined ? a === b : a.oid === b.oid && a.mode === b.mode;
}

function planned(
  store: CheckpointStore,
  plan: Plan,
  stands: ReadonlySet<string>,
): { restored: string[]; deleted: string[] } {
  const go = (p: string) => !stands.has(p);
  return {
    restored: store.absolute(plan.writes.map((w) => w.path).filter(go)),
    deleted: store.absolute(plan.deletes.filter(go)),
  };
}

/**
 * The steps from checkpoint `from` to the workspace now (tree `now`): each checkpoint after it,
 * oldest first, with its owner and the paths that changed since the one before it (split where its
 * tool named the paths it wrote: sessions.ts stepParts); the last step, from the newest checkpoint
 * to now, is nobody's session.
 */
async function stepsAfter(
  store: CheckpointStore,
  records: readonly RefRecord[],
  from: CheckpointEntry,
  now: string,
): Promise<Step[]> {
  const line = records.map(lineEntryOf).reverse();
  const at = line.findIndex((e) => e.ref === from.ref);
  if (at < 0) throw store.notFound(from.hash);
  const after = line.slice(at);
  const pairs = [
    ...after.slice(1).map((e, i) => {
      const previous = after[i] as (typeof after)[number];
      const touched = touchedOfStep(previous, e);
      return { owner: stepOwner(previous, e), touched, from: previous.hash, to: e.hash };
    }),
    { owner: null, touched: undefined, from: (after.at(-1) as (typeof after)[number]).hash, to: now },
  ].filter((p) => p.from !== p.to);
  const paths = await changedPathsOfPairs(
    store.repo,
    pairs.map((p) => [p.from, p.to] as const),
  );
  return pairs.flatMap((p, i) => stepParts(p.owner, paths[i] ?? [], p.touched));
}

/** The event of the safety checkpoint a session's restore takes (its change, if any, is recorded apart). */
const SESSION_RESTORE_EVENT = 'restore --prompt';

/**
 * Whose the step between two neighbours of the line is: the later one's owner, unless checkpoints
 * in between were pruned by the budget (sessions.ts ownsStep), or the earlier one is the safety
 * checkpoint of a restore or revert by hand, which records no checkpoint of its own: that step
 * holds the restore's change, which is nobody's session.
 */
function stepOwner(
  previous: CheckpointEntry & LinePosition,
  next: CheckpointEntry & LinePosition,
): string | null {
  if (!ownsStep(previous, next)) return null;
  const byHand = previous.kind === 'safety' && previous.event !== SESSION_RESTORE_EVENT;
  if (byHand && next.role !== 'restore') return null;
  return ownerOf(next);
}
