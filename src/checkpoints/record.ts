import { commitTree } from '../git/commit.js';
import type { CheckpointRepo } from '../git/checkpoint-repo.js';
import { updateRefs, type RefUpdate } from '../git/refs.js';
import {
  BASELINE_REF,
  encodeMessage,
  LATEST_REF,
  newCheckpointRef,
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
  },
): Promise<{ ref: string; commit: string }> {
  const { label, kind, tag, skips } = meta;
  const commit = await commitTree(
    repo,
    treeId,
    [],
    encodeMessage({ label, createdAt: new Date().toISOString(), kind, ...tag, ...skips }),
  );
  const ref = newCheckpointRef();
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
