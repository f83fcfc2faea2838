/**
 * A received verdict's log is `gate-<name>-<attempt>-<id>.log`, beside this machine's own
 * `gate-<name>-<attempt>.log`: a verdict id forged to make that name another verdict's (all
 * digits: gate `test` attempt 1 id `2` is `gate-test-1-2.log`, the log of this machine's gate
 * `test-1` attempt 2; or holding a `-`) must be refused, never written over the other log.
 */
import { mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { GateStore } from '../../src/store/gate-store.js';
import { verdictsOf } from '../helpers/gates.js';
import { machineCli, machineOk, runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

function withLogsConfig(m: Machine): Machine {
  mkdirSync(m.home, { recursive: true });
  writeFileSync(join(m.home, 'config.yaml'), 'sharing:\n  includeGateLogs: true\n');
  return m;
}

/** Gate NAME on machine m, in an isolated checkout, printing `text`. */
function gate(m: Machine, name: string, text: string): void {
  const res = machineCli(m, [
    'gate',
    '--run',
    'run-1',
    '--name',
    name,
    '--isolated',
    '--',
    process.execPath,
    '-e',
    `process.stdout.write(${JSON.stringify(text)})`,
  ]);
  expect(res.status, res.stderr).toBe(0);
}

describe('a received verdict whose id would make its log name another verdict’s', () => {
  it.each([
    // gate-test-1-2.log: this machine's own log of gate test-1, attempt 2.
    ["this machine's own log (an id of digits)", '2', 2],
    // gate-test-1-1-x.log: what a verdict of test-1, attempt 1, id x received would be named.
    ["another received verdict's log (an id holding a '-')", '1-x', 1],
  ])('%s is refused, and the logs here are untouched', async (_label, forgedId, attempts) => {
    const [name, victim] = ['test', 'test-1'];
    w = world();
    const a = withLogsConfig(w.machine('a'));
    await runIterations(a, 'run-1', 1);
    machineOk(a, ['push']);
    const b = withLogsConfig(w.machine('b'));
    machineOk(b, ['fetch']);
    // b's own verdicts of gate `victim`: attempt 2 logs as gate-test-1-2.log.
    for (let i = 1; i <= attempts; i++) gate(b, victim, `b's own attempt ${i}\n`);
    // a publishes a verdict of `name` whose id it chose (a hostile publisher writes its home by hand).
    gate(a, name, 'forged\n');
    const store = new GateStore(a.home);
    const [real] = await verdictsOf(a.home, 'run-1');
    const forged = { ...real!, id: forgedId };
    writeFileSync(store.path('run-1', forgedId), JSON.stringify(forged));
    unlinkSync(store.path('run-1', real!.id));
    machineOk(a, ['push']);

    const own = (await verdictsOf(b.home, 'run-1')).filter((g) => g.name === victim);
    const logs = own.map((g) => readFileSync(g.log!.path!, 'utf8'));
    const fetched = machineOk(b, ['fetch']) as { refused: Array<{ ref: string }> };
    expect(fetched.refused.map((r) => r.ref)).toEqual([`refs/agentgate/gates/run-1/${forgedId}`]);
    expect(own.map((g) => readFileSync(g.log!.path!, 'utf8'))).toEqual(logs);
    expect((await verdictsOf(b.home, 'run-1')).map((g) => g.id)).not.toContain(forgedId);
    expect(machineCli(b, ['verify', '--run', 'run-1']).status).toBe(0);
  });
});
