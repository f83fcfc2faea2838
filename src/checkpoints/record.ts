import { commitTree } from '../git/commit.js';
import type { CheckpointRepo } from '../git/checkpoint-repo.js';
import type { RefRecord } from '../git/parsers/for-each-ref.js';
import { updateRefs, type RefUpdate } from '../git/refs.js';
import {
  BASELINE_REF,
  decodeMessage,
  encodeMessage,
  LATEST_REF,
  newCheckpointRef,
  refTime,
  SAFETY_REF,
  type AgentTag,
  type CheckpointMeta,
} from './message.js';

/**
 * Makes a captured tree a checkpoint: a parentless commit (so old checkpoints never keep each
 * other alive; its message keeps what the capture skipped, skip-rules.ts skipRecord) under a new `refs/checkpoints/<time>-<random>` ref, plus the markers, in one ref
 * transaction. Returns the new ref and the commit. The caller holds the checkpoint lock.
 */
export async function recordCheckpoint(
  repo: CheckpointRepo,
  treeId: string,
  meta: {
    label: string | null;
    kind: CheckpointMeta['kind'];
    setBaseline: boolean;
    tag?: AgentTag;
    /** What the capture skipped (skip-rules.ts skipRecord). */
    skips?: Pick<CheckpointMeta, 'skipped'>;
    /** The `latest` marker as listed under the lock: the new checkpoint's time comes after its. */
    latest?: RefRecord | undefined;
  },
): Promise<{ ref: string; commit: string }> {
  const { label, kind, tag, skips, latest } = meta;
  const after = latest === undefined ? 0 : Date.parse(decodeMessage(latest.body, latest.date).createdAt);
  const ref = newCheckpointRef(Date.now(), after);
  const commit = await commitTree(
    repo,
    treeId,
    [],
    encodeMessage({ label, createdAt: refTime(ref), kind, ...tag, ...skips }),
  );
  const updates: RefUpdate[] = [
    { ref, newSha: commit, oldSha: null },
    { ref: LATEST_REF, newSha: commit },
  ];
  if (meta.kind === 'safety') updates.push({ ref: SAFETY_REF, newSha: commit });
  if (meta.setBaseline) updates.push({ ref: BASELINE_REF, newSha: commit });
  await updateRefs(repo, updates, { message: 'agentgate checkpoint' });
  return { ref, commit };
}

/** Every path of a tree listing and every directory above one: what a user-given path may name. */
export function knownPaths(paths: Iterable<string>): Set<string> {
  const out = new Set<string>();
  for (const path of paths) {
    for (let p = path; p !== '' && !out.has(p); p = p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '')
      out.add(p);
  }
  return out;
}
