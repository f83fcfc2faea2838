/**
 * A repository that lost an object a snapshot needs (a loose object or pack removed, a partial
 * clone): `verify` stopped with GIT_FAILED (exit 1) saying nothing about the rest of the store, and
 * `report` of the run failed whole. The snapshot whose diff git cannot compute now fails its
 * `stats` check (exit 3), every other snapshot is verified, and the report renders.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { cliIn } from '../helpers/cli.js';
import { git } from '../helpers/repo.js';
import { gatedRun } from '../helpers/gates.js';

describe('verify in a repository that lost an object', () => {
  it("fails that snapshot's checks and verifies the rest; report still renders", async () => {
    const { dir, gates, snapshots } = await gatedRun([{ 'a.txt': 'one\n' }, { 'b.txt': 'two\n' }]);
    const home = gates.snapshotter.store.home;
    const lost = git(dir, ['rev-parse', `${(snapshots[1] as Snapshot).afterSha}:b.txt`]).trim();
    rmSync(join(dir, '.git', 'objects', lost.slice(0, 2), lost.slice(2)));

    for (const target of [['--all'], ['--run', 'r1']]) {
      const res = cliIn(dir, home, ['verify', ...target]);
      expect(res.status, res.stdout).toBe(3);
      const report = res.json() as VerifyReport;
      const failed = report.checks.filter((c) => !c.ok);
      expect(failed.map((c) => [c.snapshotId, c.check])).toEqual([[(snapshots[1] as Snapshot).id, 'stats']]);
      expect(failed[0]?.detail).toContain(lost);
      const first = report.checks.filter((c) => c.snapshotId === (snapshots[0] as Snapshot).id);
      expect(first.map((c) => c.check)).toContain('patch-applies');
    }
    const md = cliIn(dir, home, ['report', '--run', 'r1', '--format', 'md']);
    expect(md.status, md.stdout).toBe(0);
    expect((md.json() as { text: string }).text).toContain('failed');
  });
});
