/** The report through the library: the default run, task and gate, and a run whose workspace is gone. */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { buildRunReport, renderReport } from '../../src/report/index.js';
import { RunReport } from '../../types/report.js';
import { HOSTILE_TASK, recordRun } from '../helpers/report-run.js';
import { repoWithCommit } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

describe('run report (library)', () => {
  it('reports the most recent run by default, with totals, task and gate', async () => {
    const run = await recordRun();
    try {
      const report = RunReport.parse(await buildRunReport(run.snapshotter));
      expect(report.run.runId).toBe(run.runId);
      expect(report.beforeSha).toBe(run.snapshots[0]?.beforeSha);
      expect(report.afterSha).toBe(run.snapshots[1]?.afterSha);
      expect(report.totals).toEqual({
        iterations: 2,
        filesChanged: run.snapshots.reduce((n, s) => n + s.filesChanged, 0),
        insertions: run.snapshots.reduce((n, s) => n + s.insertions, 0),
        deletions: run.snapshots.reduce((n, s) => n + s.deletions, 0),
      });
      // The snapshot records the whole task (the commit message keeps its first 100 characters).
      expect(report.snapshots[0]?.task).toBe(HOSTILE_TASK);
      expect(report.snapshots.map((s) => s.gate)).toEqual(['npm test', 'npm run lint && npm test']);
      expect(report.verification.ok).toBe(true);
    } finally {
      run.cleanup();
    }
  });

  it('reports a run that has a before but no iteration yet, as failed, in every format', async () => {
    const dir = repoWithCommit();
    const snapshotter = newSnapshotter();
    await snapshotter.captureBeforeState(dir, { runId: 'no-iterations' });
    const report = RunReport.parse(await buildRunReport(snapshotter, 'no-iterations'));
    expect(report).toMatchObject({
      totals: { iterations: 0 },
      snapshots: [],
      afterSha: null,
      verification: { ok: false },
    });
    expect(report.verification.checks.map((c) => c.check)).toEqual(['iterations']);
    expect((await renderReport(snapshotter, 'md', 'no-iterations')).text).toContain('failed');
    expect((await renderReport(snapshotter, 'dotenv', 'no-iterations')).text).toMatch(
      /^AGENTGATE_VERIFIED="?false"?$/m,
    );
    expect((await renderReport(snapshotter, 'html', 'no-iterations')).text).toContain('no-iterations');
  });

  it('still renders when the workspace and artifacts are gone, and says so', async () => {
    const run = await recordRun();
    try {
      rmSync(run.dir, { recursive: true, force: true });
      for (const s of run.snapshots) if (s.patchPath) rmSync(s.patchPath, { force: true });
      const { report, text } = await renderReport(run.snapshotter, 'html', run.runId);
      expect(report.verification.ok).toBe(false);
      expect(text).toContain('"u":true');
      expect(text).toContain('FAILED');
    } finally {
      run.cleanup();
    }
  });
});
