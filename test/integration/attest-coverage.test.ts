/**
 * verify --attestation: a run statement speaks for exactly what attest writes, the run's accepted line
 * (with `setAside` exactly as attest writes it) or one iteration, and a subject's digest set is read
 * with the keys JSON.parse made (a `__proto__` key included).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Statement } from '../../types/attestation.js';
import { attestSources, buildStatement, verifyStatement, writeStatement } from '../../src/gates/attest.js';
import { recordVerdict } from '../helpers/gates.js';
import { git, writeFiles } from '../helpers/repo.js';
import { machineCli, runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

/** The checks that fail when `file` holds `statement` (edited). */
async function failing(
  m: Machine,
  statement: unknown,
  file = join(w.root, 'edited.json'),
): Promise<string[]> {
  writeFileSync(file, typeof statement === 'string' ? statement : JSON.stringify(statement));
  const report = await verifyStatement(attestSources(m.snap), file);
  return report.checks.filter((c) => !c.ok).map((c) => c.check);
}

/** Every statement attest writes for run `r`: the whole run and each iteration alone verify. */
async function genuineVerify(m: Machine, iterations: number[]): Promise<void> {
  const src = attestSources(m.snap);
  const file = join(w.root, 'genuine.json');
  for (const iteration of [undefined, ...iterations]) {
    await writeStatement(src, 'r', file, { iteration });
    const report = await verifyStatement(src, file);
    expect(
      report.checks.filter((c) => !c.ok),
      `iteration ${iteration}`,
    ).toEqual([]);
  }
}

/** The statement without iteration `n`: its subjects, its verdicts and its test names. */
function without(s: Statement, n: number): Statement {
  const mine = (name: string) => name === `r/iteration-${n}` || name.startsWith(`r/iteration-${n}/`);
  const test = (name: string) => !name.startsWith(`iteration-${n}/`);
  const p = s.predicate;
  const passedTests = p.passedTests.filter(test);
  const failedTests = p.failedTests.filter(test);
  return {
    ...s,
    subject: s.subject.filter((x) => !mine(x.name)),
    predicate: {
      ...p,
      configuration: p.configuration.filter((c) => c.annotations.iteration !== n),
      passedTests,
      failedTests,
      result: failedTests.length === 0 ? 'PASSED' : 'FAILED',
    },
  };
}

describe('a run statement speaks for the accepted line or one iteration', () => {
  it('fails a statement with a failing middle iteration or the last iteration removed', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 3, 1);
    await recordVerdict(a, 'r', 1, 'test');
    await recordVerdict(a, 'r', 2, 'test', { verdict: 'fail' });
    await recordVerdict(a, 'r', 3, 'test');
    // Iteration 4 changes nothing (no patch subject) and has no verdict.
    const before = await a.snap.captureBeforeState(a.dir, { runId: 'r' });
    await a.snap.captureAfterState(a.dir, before, { runId: 'r', iteration: 4 });
    await genuineVerify(a, [1, 2, 3, 4]);

    const all = await buildStatement(attestSources(a.snap), 'r');
    expect(all.predicate.result).toBe('FAILED');
    const passed = without(all, 2);
    expect(passed.predicate).toMatchObject({ result: 'PASSED', failedTests: [] });
    expect(await failing(a, passed)).toEqual(['iterations']);
    expect(await failing(a, without(all, 4))).toEqual(['iterations']);
    // Two iterations out of the line are no statement attest writes either, whichever two.
    expect(await failing(a, without(without(all, 1), 2))).toEqual(['iterations']);

    // Through the CLI: exit 3.
    const file = join(w.root, 'forged.json');
    writeFileSync(file, JSON.stringify(passed));
    expect(machineCli(a, ['verify', '--attestation', file]).status).toBe(3);
  });

  it('after a restart, setAside is exactly what attest writes, and only in a statement of the line', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 3, 1);
    await recordVerdict(a, 'r', 3, 'test', { verdict: 'fail' });
    const [one] = await a.snap.listByRun('r');
    git(a.dir, ['reset', '-q', '--hard', one!.afterSha]);
    const before = await a.snap.captureBeforeState(a.dir, { runId: 'r', restartFrom: 1 });
    writeFiles(a.dir, { 'src/app.txt': 'retried\n' });
    await a.snap.captureAfterState(a.dir, before, { runId: 'r', iteration: 4 });
    await runIterations(a, 'r', 1, 5);
    await genuineVerify(a, [1, 2, 3, 4, 5]);

    const src = attestSources(a.snap);
    const all = await buildStatement(src, 'r');
    expect(all.predicate.setAside?.map((x) => x.name)).toEqual(['r/iteration-2', 'r/iteration-3']);
    const { setAside, ...rest } = all.predicate;
    expect(await failing(a, { ...all, predicate: rest })).toEqual(['set aside']);
    expect(await failing(a, { ...all, predicate: { ...rest, setAside: setAside!.slice(1) } })).toEqual([
      'set aside',
    ]);
    // An entry holding more than attest writes (a key no schema would keep) is not what it wrote.
    const noted = [{ ...setAside![0], note: 'x' }, ...setAside!.slice(1)];
    expect(await failing(a, { ...all, predicate: { ...rest, setAside: noted } })).not.toEqual([]);
    // A statement of one iteration names nothing set aside.
    const four = await buildStatement(src, 'r', { iteration: 4 });
    expect(await failing(a, { ...four, predicate: { ...four.predicate, setAside } })).toEqual(['set aside']);

    // With no restart, attest leaves setAside out: an empty one is not what it writes.
    w.cleanup();
    w = world();
    const b = w.machine('b');
    await runIterations(b, 'r', 2, 1);
    const plain = await buildStatement(attestSources(b.snap), 'r');
    expect(plain.predicate.setAside).toBeUndefined();
    expect(await failing(b, { ...plain, predicate: { ...plain.predicate, setAside: [] } })).toEqual([
      'set aside',
    ]);
  });

  it('a run whose every iteration a restart set aside names them, not "no iteration"', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 2, 1);
    const [one] = await a.snap.listByRun('r');
    git(a.dir, ['reset', '-q', '--hard', one!.beforeSha]);
    await a.snap.captureBeforeState(a.dir, { runId: 'r', restartFrom: 0 });
    const error = await buildStatement(attestSources(a.snap), 'r').then(
      () => null,
      (e: unknown) => e as { code: string; details: Record<string, unknown> },
    );
    expect(error?.code).toBe('SNAPSHOT_NOT_FOUND');
    expect(error?.details.setAside).toEqual([1, 2]);
  });
});

describe('a digest set is read as JSON.parse made it', () => {
  it('fails a subject whose digest also holds a __proto__ key', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'r', 1, 1);
    await recordVerdict(a, 'r', 1, 'test');
    const file = join(w.root, 'statement.json');
    await writeStatement(attestSources(a.snap), 'r', file);
    const text = readFileSync(file, 'utf8');
    expect(await failing(a, text)).toEqual([]);
    for (const alg of ['gitCommit', 'sha256']) {
      const edited = text.replace(
        `"digest": {\n        "${alg}"`,
        `"digest": {"__proto__": "deadbeef", "${alg}"`,
      );
      expect(edited, alg).not.toBe(text);
      const failed = await failing(a, edited);
      expect(failed, alg).toHaveLength(1);
      expect(failed[0], alg).toMatch(/^subject r\/iteration-1/);
      const res = machineCli(a, ['verify', '--attestation', join(w.root, 'edited.json')]);
      expect(res.status, alg).toBe(3);
    }
  });
});
