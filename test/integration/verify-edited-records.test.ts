/**
 * Records edited by hand. A run record that links a snapshot twice, or two snapshots of one
 * iteration, fails `run-links` (verify --run and --all alike), not a continuity check that names the
 * iteration against itself. A snapshot whose task or gate was emptied fails `task`.
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

describe('verify of a snapshot whose stored task or gate is null', () => {
  it('fails task while the after commit carries a Task or Gate line', async () => {
    const w = world();
    try {
      const a = w.machine('a');
      await runIterations(a, 'r', 2, 1);
      const [one, two] = (await a.snap.listByRun('r')) as [Snapshot, Snapshot];
      editJson(join(a.home, 'snapshots', `${one.id}.json`), (s) => ({ ...s, gate: null }));
      editJson(join(a.home, 'snapshots', `${two.id}.json`), (s) => ({ ...s, task: null }));
      expect(failed(await a.snap.verify({ runId: 'r' }))).toEqual([`${one.id} task`, `${two.id} task`]);
    } finally {
      w.cleanup();
    }
  });

  it('passes when the iteration was recorded without them', async () => {
    const w = world();
    try {
      const a = w.machine('a');
      const before = await a.snap.captureBeforeState(a.dir, { runId: 'r' });
      writeFileSync(join(a.dir, 'new.txt'), 'new\n');
      await a.snap.captureAfterState(a.dir, before, { runId: 'r', iteration: 1 });
      const report = await a.snap.verify({ runId: 'r' });
      expect(report.checks.filter((c) => c.check === 'task').map((c) => c.ok)).toEqual([true]);
      expect(report.ok).toBe(true);
    } finally {
      w.cleanup();
    }
  });
});
