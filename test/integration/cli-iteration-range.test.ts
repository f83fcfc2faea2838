/**
 * Iteration numbers on the command line: the contract bounds `--iteration N` by nothing, and the
 * library, the records and a fetched run take any whole number a JSON number holds exactly (up to
 * Number.MAX_SAFE_INTEGER). The CLI takes the same numbers, wherever it names an iteration.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { Snapshot } from '../../types/snapshot.js';
import { cliIn, okIn } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const BIG = 1_000_000_000; // one past the range every other whole-number option takes
const LAST = Number.MAX_SAFE_INTEGER;

describe('iteration numbers past 999999999', () => {
  it('after, iterate, gate list, attest and before --restart-from take them up to 2^53 - 1', () => {
    const ws = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir('agentgate-home-');
    okIn(ws, home, ['before', '--run', 'r']);
    writeFiles(ws, { 'f.txt': 'one\n' });
    const first = z.parse(Snapshot, okIn(ws, home, ['after', '--run', 'r', '--iteration', String(BIG)]));
    expect(first.iteration).toBe(BIG);
    expect(first.ref).toBe(`refs/agentgate/runs/r/iteration-${BIG}`);

    const last = z.parse(
      Snapshot,
      okIn(ws, home, [
        'iterate',
        '--run',
        'r',
        '--iteration',
        String(LAST),
        '--',
        'sh',
        '-c',
        'echo two > f.txt',
      ]),
    );
    expect(last).toMatchObject({ iteration: LAST, filesChanged: 1 });
    expect(okIn(ws, home, ['gate', 'list', '--run', 'r', '--iteration', String(LAST)])).toEqual([]);
    const out = `${tempDir('agentgate-attest-')}/s.json`;
    expect(okIn(ws, home, ['attest', '--run', 'r', '--iteration', String(BIG), '-o', out])).toMatchObject({
      subjects: 2,
    });
    git(ws, ['reset', '-q', '--hard', first.afterSha]);
    expect(okIn(ws, home, ['before', '--run', 'r', '--restart-from', String(BIG)])).toMatchObject({
      sha: first.afterSha,
    });
    expect(okIn(ws, home, ['verify', '--run', 'r'])).toMatchObject({ ok: true });
  });

  it('travels: export, import into a clone, attest and verify --attestation of iteration 2^53 - 1', () => {
    const ws = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir('agentgate-home-');
    const last = z.parse(
      Snapshot,
      okIn(ws, home, [
        'iterate',
        '--run',
        'r',
        '--iteration',
        String(LAST),
        '--',
        'sh',
        '-c',
        'echo 1 > f.txt',
      ]),
    );
    const bundle = `${tempDir('agentgate-bundle-')}/r.bundle`;
    expect(okIn(ws, home, ['export', '--all', '-o', bundle])).toMatchObject({ refs: expect.any(Number) });
    const clone = `${tempDir('agentgate-clone-')}/w`;
    git(tempDir(), ['clone', '-q', ws, clone]);
    const there = tempDir('agentgate-home-');
    expect(okIn(clone, there, ['import', bundle])).toMatchObject({ runs: ['r'], snapshots: 1 });
    const [got] = z.parse(z.array(Snapshot), okIn(clone, there, ['list']));
    expect(got).toMatchObject({ iteration: LAST, afterSha: last.afterSha, patchSha256: last.patchSha256 });
    const statement = `${tempDir('agentgate-attest-')}/s.json`;
    expect(okIn(clone, there, ['attest', '--run', 'r', '-o', statement])).toMatchObject({ subjects: 2 });
    expect(okIn(clone, there, ['verify', '--attestation', statement])).toMatchObject({
      ok: true,
    });
  });

  it('a number past 2^53 - 1, which JSON cannot hold exactly, is INVALID_ARGUMENT (exit 2)', () => {
    const ws = repoWithCommit({ 'f.txt': 'base\n' });
    const home = tempDir('agentgate-home-');
    for (const value of ['9007199254740992', '99999999999999999']) {
      const res = cliIn(ws, home, ['after', '--run', 'r', '--iteration', value]);
      expect(res.status).toBe(2);
      expect(res.json()).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
  });
});
