/**
 * A CI matrix: the gates of one iteration run on several machines at once (test-linux,
 * test-macos, lint, and a re-run of test-linux on a fresh runner), each after `fetch`, each
 * followed by `push` at the same moment. Every verdict lands, ids are unique, every machine that
 * fetches sees them all, and "the newest verdict of NAME" is the same everywhere.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { GateResult } from '../../types/gate.js';
import type { ExportResult, PushResult, ReceiveResult } from '../../types/sharing.js';
import { sortGateResults } from '../../types/gate-rules.js';
import { runCliAsync } from '../helpers/cli.js';
import { recordVerdict, verdictsOf } from '../helpers/gates.js';
import { runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

/** The CLI on machine `m`, as a separate process; fails the test unless it exits 0. */
async function cli(m: Machine, args: string[]): Promise<unknown> {
  const res = await runCliAsync(['-C', m.dir, '--home', m.home, ...args, '--json'], {
    env: { AGENTGATE_ARTIFACTS_DIR: '' },
  });
  expect(res.status, `${m.name}: ${args.join(' ')}: ${res.stdout}${res.stderr}`).toBe(0);
  return res.json();
}

function newest(results: GateResult[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const g of sortGateResults(results)) out[g.name] = g.id;
  return out;
}

describe('a CI matrix pushes the verdicts of one iteration from several machines at once', () => {
  it('every verdict lands once, under a unique id, and every machine agrees on the newest of each name', async () => {
    w = world();
    const agent = w.machine('agent');
    await runIterations(agent, 'run-1', 2);
    await cli(agent, ['push', '--run', 'run-1']);

    const jobs: Array<[string, string, GateResult['verdict']]> = [
      ['linux', 'test-linux', 'fail'],
      ['macos', 'test-macos', 'pass'],
      ['lint', 'lint', 'pass'],
      ['rerun', 'test-linux', 'pass'],
    ];
    const runners = jobs.map(([name]) => w.machine(name));
    await Promise.all(runners.map((m) => cli(m, ['fetch', '--run', 'run-1'])));
    const recorded = await Promise.all(
      runners.map((m, i) => {
        const [, gate, verdict] = jobs[i]!;
        // The re-run starts later than the job it re-runs, as on CI.
        return recordVerdict(m, 'run-1', 1, gate, {
          verdict,
          startedAt: new Date(Date.UTC(2026, 0, 1, 12, 0, i)).toISOString(),
        });
      }),
    );
    const pushes = (await Promise.all(runners.map((m) => cli(m, ['push', '--run', 'run-1'])))) as Array<{
      updated: string[];
    }>;
    recorded.forEach((g, i) => expect(pushes[i]!.updated).toContain(`refs/agentgate/gates/run-1/${g.id}`));
    expect(new Set(recorded.map((g) => g.id)).size).toBe(recorded.length);
    // Neither test-linux job saw the other: both are attempt 1 where they were recorded.
    expect(recorded.map((g) => g.attempt)).toEqual([1, 1, 1, 1]);

    const everyone = [...runners, agent];
    const fetched = (await Promise.all(everyone.map((m) => cli(m, ['fetch', '--run', 'run-1'])))) as Array<{
      refused: unknown[];
    }>;
    for (const f of fetched) expect(f.refused).toEqual([]);
    const views = await Promise.all(everyone.map((m) => verdictsOf(m.home, 'run-1')));
    const ids = recorded.map((g) => g.id).sort();
    for (const view of views) {
      expect(view.map((g) => g.id).sort()).toEqual(ids);
      expect(view.map((g) => g.id)).toEqual(views[0]!.map((g) => g.id));
      expect(newest(view)).toEqual({
        'test-linux': recorded[3]!.id,
        'test-macos': recorded[1]!.id,
        lint: recorded[2]!.id,
      });
    }
  });
});

describe('two runners that each ran attempt 1 of a gate', () => {
  it("verify on either, after fetching the other's verdict, checks each log against its own verdict", async () => {
    w = world();
    const agent = w.machine('agent');
    await runIterations(agent, 'run-1', 1);
    await cli(agent, ['push', '--run', 'run-1']);
    const [x, y] = [w.machine('x'), w.machine('y')];
    // Both fetch before either pushes: each records attempt 1, with a log of its own.
    for (const m of [x, y]) await cli(m, ['fetch', '--run', 'run-1']);
    for (const m of [x, y]) {
      const g = (await cli(m, [
        'gate',
        '--run',
        'run-1',
        '--name',
        't',
        '--isolated',
        '--json',
        '--',
        'echo',
        m.name,
      ])) as GateResult;
      expect(g.attempt).toBe(1);
      await cli(m, ['push', '--run', 'run-1']);
    }
    for (const m of [x, y]) {
      await cli(m, ['fetch', '--run', 'run-1']);
      const verified = (await cli(m, ['verify', '--run', 'run-1'])) as { ok: boolean };
      expect(verified.ok).toBe(true);
    }
  });
});

describe('a runner that fetched the run and gated it publishes with a plain push', () => {
  it("its own verdict lands; the run's records and the other runners' verdicts are not published again", async () => {
    w = world();
    const agent = w.machine('agent');
    await runIterations(agent, 'run-1', 1);
    await cli(agent, ['push']);
    const [x, y, z] = [w.machine('x'), w.machine('y'), w.machine('z')];
    const ref = (g: GateResult) => `refs/agentgate/gates/run-1/${g.id}`;
    const mine = new Map<string, GateResult>();
    for (const m of [x, y, z]) await cli(m, ['fetch']);
    for (const m of [x, y]) {
      const args = ['gate', '--run', 'run-1', '--name', `t-${m.name}`, '--isolated', '--json', '--', 'true'];
      mine.set(m.name, (await cli(m, args)) as GateResult);
    }
    const gx = mine.get('x') as GateResult;
    const gy = mine.get('y') as GateResult;

    const px = (await cli(x, ['push'])) as PushResult;
    expect(px).toMatchObject({ runs: [], gates: 1, updated: [ref(gx)], upToDate: [] });
    // y holds x's verdict now; its plain push still carries only its own.
    await cli(y, ['fetch']);
    const py = (await cli(y, ['push'])) as PushResult;
    expect(py).toMatchObject({ runs: [], gates: 1, updated: [ref(gy)], upToDate: [] });
    expect(((await cli(y, ['push'])) as PushResult).upToDate).toEqual([ref(gy)]);

    const fetched = (await cli(agent, ['fetch'])) as ReceiveResult;
    expect(fetched).toMatchObject({ gates: 2, refused: [] });
    expect((await verdictsOf(agent.home, 'run-1')).map((g) => g.id).sort()).toEqual([gx.id, gy.id].sort());

    // export without --run carries the same as push: x's own verdict, which z (holding the run) takes in.
    const file = join(w.root, 'x.bundle');
    expect((await cli(x, ['export', '-o', file])) as ExportResult).toMatchObject({ runs: [], gates: 1 });
    const imported = (await cli(z, ['import', file])) as ReceiveResult;
    expect(imported).toMatchObject({ gates: 1, refused: [] });
    expect((await verdictsOf(z.home, 'run-1')).map((g) => g.id)).toEqual([gx.id]);
  });
});
