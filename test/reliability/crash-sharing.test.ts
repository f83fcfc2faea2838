/**
 * push and fetch through the built CLI, killed with SIGKILL at several moments: the next call
 * mends whatever they left (the remote's refs, the incoming refs, the home), and the records
 * verify.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { git } from '../helpers/repo.js';
import { machineOk as ok, runIterations, world, type World } from '../helpers/sharing.js';
import { runAndKill } from './support.js';

let w: World;
afterEach(() => w?.cleanup());

describe('sharing killed mid-way', () => {
  it('push and fetch killed with SIGKILL leave nothing that the next call does not mend', async () => {
    w = world();
    const [a, b] = [w.machine('a'), w.machine('b')];
    await runIterations(a, 'k', 12);
    const env = { AGENTGATE_ARTIFACTS_DIR: '' };
    let kills = 0;
    for (const delay of [60, 120, 180, 240, 320, 450])
      kills += Number(
        (await runAndKill(['-C', a.dir, '--home', a.home, 'push'], delay, 'group', { env })).killed,
      );
    expect(kills).toBeGreaterThan(0);
    expect(ok(a, ['push'])).toMatchObject({ refs: 12 });
    expect(
      git(w.origin, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/records/k/']).split('\n'),
    ).toHaveLength(12);
    kills = 0;
    for (const delay of [60, 120, 180, 240, 320, 450, 600])
      kills += Number(
        (await runAndKill(['-C', b.dir, '--home', b.home, 'fetch'], delay, 'group', { env })).killed,
      );
    expect(kills).toBeGreaterThan(0);
    const got = ok(b, ['fetch']) as { snapshots: number; unchanged: number; refused: unknown[] };
    expect(got.refused).toEqual([]);
    expect(got.snapshots + got.unchanged).toBe(12);
    expect(ok(b, ['verify', '--run', 'k'])).toMatchObject({ ok: true });
    expect(git(b.dir, ['for-each-ref', 'refs/agentgate/incoming/'])).toBe('');
    expect(git(b.dir, ['fsck', '--no-dangling', '--connectivity-only'])).toBe('');
  });
});
