/**
 * `verify` while another process deletes a snapshot: `delete` is several steps (the run's link, the
 * file, the artifact, the iteration ref), and a verify that read the store before them and checked
 * git after them failed checks of a store that was whole before and after (exit 3 in CI). The
 * delete is made to land exactly inside the verify's read, so the interleaving is deterministic.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { gatedRun } from '../helpers/gates.js';

const failed = (r: VerifyReport) => r.checks.filter((c) => !c.ok).map((c) => `${c.check}: ${c.detail}`);

describe('verify while a snapshot is deleted', () => {
  for (const target of [{ runId: 'r1' }, { all: true as const }]) {
    it(`reads the store again rather than fail a state no command left (${Object.keys(target)[0]})`, async () => {
      const { gates, snapshots } = await gatedRun([
        { 'a.txt': '1\n' },
        { 'a.txt': '2\n' },
        { 'a.txt': '3\n' },
      ]);
      const snap = gates.snapshotter;
      const doomed = snapshots[1] as Snapshot;
      // The first read of the store returns what it saw; the delete then runs to its end.
      const store = snap.store as unknown as Record<
        'inspectRun' | 'list',
        (...a: unknown[]) => Promise<unknown>
      >;
      const method = 'runId' in target ? 'inspectRun' : 'list';
      const original = store[method].bind(snap.store);
      let interleaved = false;
      store[method] = async (...args: unknown[]) => {
        const seen = await original(...args);
        if (!interleaved) {
          interleaved = true;
          await snap.delete(doomed.id);
        }
        return seen;
      };

      const report = await gates.verify(target);
      expect(interleaved).toBe(true);
      expect(failed(report)).toEqual([]);
      expect(report.checks.some((c) => c.snapshotId === doomed.id)).toBe(false);
      // A store that really is damaged still fails: nothing is retried away.
      store[method] = original;
      rmSync((snapshots[0] as Snapshot).patchPath as string);
      expect(failed(await gates.verify(target))).toEqual([
        expect.stringMatching(/^patch-artifact: .* is missing/),
      ]);
    });
  }
});
