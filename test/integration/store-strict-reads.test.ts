/**
 * A damaged store file never turns a judgement into a pass: the commands whose output judges or
 * publishes verdicts and runs (attest, verify --attestation, report, export, push, trace) stop with
 * STORE_CORRUPT naming the file, where a listing (gate list, runs) warns and goes on.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GateStore } from '../../src/store/gate-store.js';
import { recordVerdict } from '../helpers/gates.js';
import { git } from '../helpers/repo.js';
import { machineCli, runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

/** The CLI on `m` with --json and no CI variables. */
function cli(m: Machine, args: string[]) {
  return machineCli(m, [...args, '--json'], { GITHUB_ACTIONS: '', GITHUB_STEP_SUMMARY: '' });
}

/** The call exits 1 with STORE_CORRUPT naming `file`. */
function expectCorrupt(m: Machine, args: string[], file: string): void {
  const res = cli(m, args);
  expect(res.status, `${args.join(' ')}: ${res.stdout}${res.stderr}`).toBe(1);
  expect(res.json()).toMatchObject({ error: { code: 'STORE_CORRUPT', details: { path: file } } });
}

describe('a damaged gate verdict file', () => {
  // One home for every case: a pass, then a failed attempt whose file is truncated, so that only the pass loads.
  let g: World;
  let a: Machine;
  let file: string;
  let statement: string;
  beforeAll(async () => {
    g = world();
    a = g.machine('a');
    // Iteration 1: trace gives iteration 0 (a WIP before commit) no verdicts.
    await runIterations(a, 'r', 1, 1);
    await recordVerdict(a, 'r', 1, 'test', { startedAt: '2026-01-01T10:00:00Z' });
    statement = join(g.root, 'pass.json');
    expect(cli(a, ['attest', '--run', 'r', '-o', statement]).status).toBe(0);
    const failed = await recordVerdict(a, 'r', 1, 'test', {
      verdict: 'fail',
      startedAt: '2026-01-01T11:00:00Z',
    });
    file = new GateStore(a.home).path('r', failed.id);
    writeFileSync(file, '{"truncated');
  });
  afterAll(() => g?.cleanup());

  it.each([
    ['attest', () => ['attest', '--run', 'r', '-o', join(g.root, 'att.json')]],
    ['verify --attestation', () => ['verify', '--attestation', statement]],
    ['report --run', () => ['report', '--run', 'r', '--format', 'md']],
    ['report (the most recent run)', () => ['report', '--format', 'json']],
    ['export', () => ['export', '--run', 'r', '-o', join(g.root, 'r.bundle')]],
    ['push', () => ['push', '--run', 'r']],
    ['trace', () => ['trace', 'src/app.txt']],
  ])('%s: STORE_CORRUPT naming the file', (_name, args) => {
    expectCorrupt(a, args(), file);
    expect(git(g.origin, ['for-each-ref', 'refs/agentgate/'])).toBe('');
  });

  it('gate list warns and lists the rest', () => {
    const listed = machineCli(a, ['gate', 'list', '--run', 'r']);
    expect(listed.status).toBe(0);
    expect(listed.stdout + listed.stderr).toContain('STORE_CORRUPT');
  });
});

describe('a damaged run record', () => {
  it('stops report without --run (the most recent run is unknown) and export or push of all runs', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r1', 1);
    await runIterations(a, 's2', 1);
    await recordVerdict(a, 's2', 0, 'lint');
    const file = a.snap.store.runPath('s2');
    writeFileSync(file, '{');

    expectCorrupt(a, ['report', '--format', 'json'], file);
    expectCorrupt(a, ['export', '--all', '-o', join(w.root, 'all.bundle')], file);
    expectCorrupt(a, ['export', '-o', join(w.root, 'default.bundle')], file);
    expectCorrupt(a, ['push', '--all'], file);
    expect(git(w.origin, ['for-each-ref', 'refs/agentgate/'])).toBe('');
    // A run named by --run needs no other record; a listing warns.
    expect(cli(a, ['report', '--run', 'r1', '--format', 'json']).status).toBe(0);
    expect(cli(a, ['export', '--run', 'r1', '-o', join(w.root, 'r1.bundle')]).status).toBe(0);
    const runs = machineCli(a, ['runs']);
    expect(runs.status).toBe(0);
    expect(runs.stdout + runs.stderr).toContain('STORE_CORRUPT');
    // gate list too, with the run's verdicts all the same.
    const gates = machineCli(a, ['gate', 'list', '--run', 's2']);
    expect(gates.status).toBe(0);
    expect(gates.stdout).toContain('lint');
    expect(gates.stdout + gates.stderr).toContain('STORE_CORRUPT');
  });

  it('the only run damaged: report says STORE_CORRUPT, not that no run was recorded', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r1', 1);
    const file = a.snap.store.runPath('r1');
    writeFileSync(file, '{');
    expectCorrupt(a, ['report', '--format', 'md'], file);
  });
});

describe('a damaged snapshot file of a run', () => {
  it('stops export and push of the run: a run without an iteration is not published as whole', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 2);
    const [first] = await a.snap.listByRun('r');
    const file = a.snap.store.snapshotPath(first!.id);
    writeFileSync(file, '{"id": 42}\n');
    expectCorrupt(a, ['export', '--run', 'r', '-o', join(w.root, 'r.bundle')], file);
    expectCorrupt(a, ['push', '--run', 'r'], file);
    expect(git(w.origin, ['for-each-ref', 'refs/agentgate/'])).toBe('');
  });
});

describe('a damaged snapshot file while resolving an after SHA', () => {
  it('show, patch and cherry-pick by a SHA stop with STORE_CORRUPT; an exact id still resolves', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 1);
    // Iteration 1 changes nothing: it shares iteration 0's after SHA.
    const before = await a.snap.captureBeforeState(a.dir, { runId: 'r' });
    await a.snap.captureAfterState(a.dir, before, { runId: 'r', iteration: 1 });
    const [maker, same] = await a.snap.listByRun('r');
    expect(same!.afterSha).toBe(maker!.afterSha);
    const file = a.snap.store.snapshotPath(maker!.id);
    writeFileSync(file, '{"id":\n');
    const sha = maker!.afterSha;
    for (const key of [sha, sha.slice(0, 7)]) {
      expectCorrupt(a, ['show', key], file);
      expectCorrupt(a, ['patch', key], file);
      expectCorrupt(a, ['cherry-pick', key], file);
    }
    expect(cli(a, ['show', same!.id]).json()).toMatchObject({ id: same!.id });
  });
});
