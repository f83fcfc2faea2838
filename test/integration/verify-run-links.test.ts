/**
 * A run record that links a snapshot twice, or two snapshots of one iteration, fails `run-links`
 * (verify --run and --all alike), not a continuity check that names the iteration against itself.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { runIterations, world, type Machine } from '../helpers/sharing.js';

const failed = (r: VerifyReport) => r.checks.filter((c) => !c.ok).map((c) => `${c.snapshotId} ${c.check}`);

function editJson(file: string, edit: (value: Record<string, unknown>) => Record<string, unknown>): void {
  writeFileSync(
    file,
    JSON.stringify(edit(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>)),
  );
}

function link(m: Machine, runId: string, id: string): void {
  editJson(join(m.home, 'runs', `${runId}.json`), (run) => ({
    ...run,
    snapshotIds: [...(run.snapshotIds as string[]), id],
  }));
}

describe('verify of a run that links a snapshot twice', () => {
  it('fails run-links on --run and --all', async () => {
    const w = world();
    try {
      const a = w.machine('a');
      await runIterations(a, 'r', 3, 1);
      const two = (await a.snap.listByRun('r'))[1] as Snapshot;
      link(a, 'r', two.id);
      expect(failed(await a.snap.verify({ runId: 'r' }))).toEqual([`${two.id} run-links`]);
      expect(failed(await a.snap.verify({ all: true }))).toEqual([`${two.id} run-links`]);
    } finally {
      w.cleanup();
    }
  });

  it('fails run-links for a second snapshot of an iteration', async () => {
    const w = world();
    try {
      const a = w.machine('a');
      await runIterations(a, 'r', 3, 1);
      const two = (await a.snap.listByRun('r'))[1] as Snapshot;
      const copy = join(a.home, 'snapshots', 'copy-of-two.json');
      writeFileSync(copy, readFileSync(join(a.home, 'snapshots', `${two.id}.json`)));
      editJson(copy, (s) => ({ ...s, id: 'copy-of-two' }));
      link(a, 'r', 'copy-of-two');
      for (const target of [{ runId: 'r' }, { all: true as const }])
        expect(failed(await a.snap.verify(target))).toEqual(['copy-of-two run-links']);
    } finally {
      w.cleanup();
    }
  });
});
