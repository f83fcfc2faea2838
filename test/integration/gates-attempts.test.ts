/**
 * Attempt numbers stay within what a verdict may hold: local numbering comes after every attempt
 * known here, so an implausible number received from elsewhere, or a log left under a number no
 * verdict may have, must neither overflow it nor let the check run for a verdict that cannot be
 * stored.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  MAX_COMMAND_ARGS,
  MAX_GATE_ATTEMPT,
  MAX_JUNIT_FILES,
  MAX_JUNIT_PATH_CHARS,
} from '../../types/gate.js';
import { GateResult } from '../../types/gate.js';
import { expectCode } from '../helpers/codes.js';
import { gatedRun, quiet } from '../helpers/gates.js';
import { tempDir } from '../helpers/repo.js';
import { Gates } from '../../src/gates/gates.js';
import { Snapshotter } from '../../src/snapshotter/snapshotter.js';

/** A check that leaves a mark outside the workspace, so that a test can tell whether it ran. */
function marking(): { command: string[]; ran: () => boolean } {
  const mark = join(tempDir('agentgate-gate-mark-'), 'ran');
  return { command: ['sh', '-c', 'touch "$1"', 'sh', mark], ran: () => existsSync(mark) };
}

describe('gate attempt numbers', () => {
  it('a verdict at the highest attempt refuses the next gate of its name before the check runs', async () => {
    const { dir, gates } = await gatedRun([{ 'a.txt': 'a\n' }]);
    const first = await gates.run(dir, { runId: 'r1', name: 'test', command: ['true'], echo: quiet() });
    const file = gates.store.path('r1', first.id);
    writeFileSync(file, JSON.stringify({ ...first, attempt: MAX_GATE_ATTEMPT }));
    const check = marking();
    await expectCode(
      gates.run(dir, { runId: 'r1', name: 'test', command: check.command, echo: quiet() }),
      'INVALID_ARGUMENT',
    );
    expect(check.ran()).toBe(false);
    expect((await gates.list({ runId: 'r1' })).results).toHaveLength(1);
    // Another name has its own numbering.
    const other = await gates.run(dir, { runId: 'r1', name: 'lint', command: check.command, echo: quiet() });
    expect(other.attempt).toBe(1);
  });

  it('a number past what a verdict may hold is refused by the schema; a log under such a number takes none', async () => {
    const { dir, gates } = await gatedRun([{ 'a.txt': 'a\n' }]);
    const first = await gates.run(dir, { runId: 'r1', name: 'test', command: ['true'], echo: quiet() });
    for (const attempt of [MAX_GATE_ATTEMPT + 1, Number.MAX_SAFE_INTEGER, 1e11])
      expect(GateResult.safeParse({ ...first, attempt }).success).toBe(false);
    // A received verdict at a high (but accepted) number; a log left by a failed call far past it.
    await gates.store.receive({ ...first, id: 'receivedverdict1', attempt: 1_000_000 });
    const logs = dirname(first.log?.path as string);
    writeFileSync(join(logs, 'gate-test-9007199254740992.log'), 'orphan\n');
    const next = await gates.run(dir, {
      runId: 'r1',
      name: 'test',
      command: ['echo', 'next'],
      echo: quiet(),
    });
    expect(next.attempt).toBe(1_000_001);
    expect(readFileSync(next.log?.path as string, 'utf8')).toBe('next\n');
    const again = await gates.run(dir, { runId: 'r1', name: 'test', command: ['true'], echo: quiet() });
    expect(again.attempt).toBe(1_000_002);
  });
});

describe('a removed verdict file', () => {
  it('of the newest attempt fails gate-attempts while its log is still there', async () => {
    const { dir, gates, snapshots } = await gatedRun([{ 'a.txt': 'a\n' }, { 'b.txt': 'b\n' }]);
    const last = snapshots[1] as (typeof snapshots)[number];
    const run = (command: string[]) => gates.run(dir, { runId: 'r1', name: 'test', command, echo: quiet() });
    await run(['true']);
    const failing = await run(['false']);
    const required = { requireGates: ['test'] };
    expect((await gates.verify({ runId: 'r1' }, required)).ok).toBe(false);
    rmSync(gates.store.path('r1', failing.id));
    // requireGates judges one run; every target finds the log with no verdict.
    const targets = [[{ runId: 'r1' }, required], [{ all: true as const }], [{ id: last.id }]] as const;
    for (const [target, opts] of targets) {
      const report = await gates.verify(target, opts);
      expect(report.checks.filter((c) => !c.ok).map((c) => `${c.snapshotId} ${c.check}`)).toEqual([
        `${last.id} gate-attempts`,
      ]);
    }
    // Another iteration's verify does not look at that iteration's logs.
    expect((await gates.verify({ id: (snapshots[0] as (typeof snapshots)[number]).id })).ok).toBe(true);
  });

  it('leaves a verdict whose log is kept under another artifacts directory alone', async () => {
    const { dir, gates } = await gatedRun([{ 'a.txt': 'a\n' }]);
    const passed = await gates.run(dir, { runId: 'r1', name: 'test', command: ['true'], echo: quiet() });
    expect(existsSync(passed.log?.path ?? '')).toBe(true);
    const elsewhere = new Gates(
      new Snapshotter({ ...gates.snapshotter.options, artifactsDir: tempDir('agentgate-artifacts-') }),
    );
    expect((await elsewhere.verify({ runId: 'r1' }, { requireGates: ['test'] })).ok).toBe(true);
  });
});

describe('a command or JUnit list no verdict can keep', () => {
  it('is refused before the check runs, leaving no log (verify stays green); a NUL byte too', async () => {
    const { dir, gates, snapshots } = await gatedRun([{ 'a.txt': 'a\n' }]);
    const check = marking();
    const many = [...check.command, ...Array.from({ length: MAX_COMMAND_ARGS }, (_, i) => String(i))];
    const refused = [
      { command: many },
      { command: check.command, junit: Array.from({ length: MAX_JUNIT_FILES + 1 }, (_, i) => `j${i}.xml`) },
      { command: check.command, junit: ['x'.repeat(MAX_JUNIT_PATH_CHARS + 1)] },
      { command: [...check.command, 'a\0b'] },
      { command: check.command, junit: ['junit\0.xml'] },
    ];
    for (const opts of refused)
      await expectCode(
        gates.run(dir, { runId: 'r1', name: 'test', ...opts, echo: quiet() }),
        'INVALID_ARGUMENT',
      );
    await expectCode(
      gates.record(dir, { runId: 'r1', name: 'test', exitCode: 0, junit: ['a\0'] }),
      'INVALID_ARGUMENT',
    );
    expect(check.ran()).toBe(false);
    const logs = join(gates.snapshotter.options.artifactsDir, 'r1', 'iteration-1');
    expect(readdirSync(logs).filter((f) => f.startsWith('gate-'))).toEqual([]);
    expect((await gates.verify({ id: (snapshots[0] as (typeof snapshots)[number]).id })).ok).toBe(true);
    // Nor is such a verdict taken from elsewhere (a replay would hand it to spawn).
    const ok = await gates.run(dir, { runId: 'r1', name: 'test', command: ['true'], echo: quiet() });
    expect(GateResult.safeParse({ ...ok, command: ['a\0b'] }).success).toBe(false);
    expect(GateResult.safeParse({ ...ok, junit: ['a\0b'] }).success).toBe(false);
  });

  it('a verdict the store refuses moves no log to an attempt name', async () => {
    const { dir, gates } = await gatedRun([{ 'a.txt': 'a\n' }]);
    const ok = await gates.run(dir, { runId: 'r1', name: 'test', command: ['true'], echo: quiet() });
    let placed = false;
    // What append is given has no id or attempt yet; the reason is longer than a verdict's may be.
    const bad = { ...ok, reason: 'x'.repeat(2000) };
    await expectCode(
      gates.store.append(bad, async () => {
        placed = true;
        return bad;
      }),
      'INVALID_ARGUMENT',
    );
    expect(placed).toBe(false);
  });
});
