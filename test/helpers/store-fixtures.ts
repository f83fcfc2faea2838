/** Test data for the store: valid snapshots and before states, and a private temporary home. */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BeforeState, Snapshot } from '../../types/snapshot.js';

export const SHA_A = 'a'.repeat(40);
export const SHA_B = 'b'.repeat(40);

/** A fresh, empty agentgate home of its own. */
export function tempHome(): string {
  return mkdtempSync(join(tmpdir(), 'agentgate-store-'));
}

export function makeSnapshot(overrides: Partial<Snapshot> = {}): Snapshot {
  const runId = overrides.runId ?? 'run1';
  const iteration = overrides.iteration ?? 1;
  return {
    id: `${runId}-${iteration}-x`,
    runId,
    iteration,
    beforeSha: SHA_A,
    afterSha: SHA_B,
    branch: 'main',
    commitMessage: `[agentgate] Run ${runId} iteration ${iteration}\n`,
    patchPath: null,
    patchSha256: null,
    filesChanged: 1,
    insertions: 2,
    deletions: 0,
    createdAt: '2024-05-01T10:00:00.000Z',
    files: [{ path: 'a.txt', oldPath: null, status: 'added', insertions: 2, deletions: 0, binary: false }],
    workspace: '/tmp/ws',
    ref: null,
    ...overrides,
  };
}

export function makeBefore(runId: string, sha = SHA_A): BeforeState {
  return {
    sha,
    branch: 'main',
    isDirty: false,
    wipSha: null,
    capturedAt: '2024-05-01T09:59:00.000Z',
    runId,
    headState: 'branch',
  };
}
