/**
 * Records' times may carry an offset (the schema takes `2026-11-28T23:00:00+10:00`, which is
 * 13:00Z): an edited or travelled record. They were compared as text, so `runs` listed such a run
 * out of order and `report` without `--run` took it for the most recent. Times now compare as the
 * instants they name (`byInstant`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { byInstant } from '../../src/store/json-file.js';
import { okIn } from '../helpers/cli.js';
import { repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** Sets run `runId`'s record times to `at`. */
function retime(home: string, runId: string, at: string): void {
  const file = join(home, 'runs', `${runId}.json`);
  const run = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...run, createdAt: at, updatedAt: at }));
}

describe('times with an offset', () => {
  it('compare as instants', () => {
    expect(byInstant('2026-11-28T23:00:00+10:00', '2026-11-28T14:00:00Z')).toBeLessThan(0);
    expect(byInstant('2026-11-28T13:00:00Z', '2026-11-28T23:00:00+10:00')).toBeLessThan(0);
    expect(byInstant('2026-11-28T13:00:00Z', '2026-11-28T13:00:00.000Z')).not.toBe(0);
  });

  it('order runs and pick the most recent one for report as the times they name', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const home = tempDir('agentgate-home-');
    for (const runId of ['r1', 'r2']) {
      okIn(ws, home, ['before', '--run', runId]);
      writeFiles(ws, { [`${runId}.txt`]: `${runId}\n` });
      okIn(ws, home, ['after', '--run', runId, '--iteration', '1']);
    }
    retime(home, 'r1', '2026-11-28T14:00:00Z');
    // 13:00Z: the older run, although its text sorts after r1's.
    retime(home, 'r2', '2026-11-28T23:00:00+10:00');
    expect(okIn<Array<{ runId: string }>>(ws, home, ['runs']).map((r) => r.runId)).toEqual(['r2', 'r1']);
    expect(okIn<{ run: { runId: string } }>(ws, home, ['report', '--format', 'json']).run.runId).toBe('r1');
  });
});
