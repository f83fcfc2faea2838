/**
 * Verdicts that must not lie (issue 26, items 2-4): a verdict whose own facts contradict it, a
 * fetched verdict dated in the future, and an attestation that leaves a newer verdict out.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { Gates } from '../../src/gates/gates.js';
import { GateStore } from '../../src/store/gate-store.js';
import { recordVerdict, verdictsOf } from '../helpers/gates.js';
import { git } from '../helpers/repo.js';
import { runIterations, world, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

/** Rewrites a verdict commit on a remote with `edit` applied to its gate.json (a hostile publisher). */
function tamper(repo: string, ref: string, edit: (gate: Record<string, unknown>) => void): void {
  const record = JSON.parse(git(repo, ['show', `${ref}:gate.json`])) as { gate: Record<string, unknown> };
  edit(record.gate);
  const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: JSON.stringify(record) });
  const tree = git(repo, ['mktree'], { input: `100644 blob ${blob}\tgate.json\n` });
  const parent = git(repo, ['rev-parse', `${ref}^`]);
  git(repo, ['update-ref', ref, git(repo, ['commit-tree', tree, '-p', parent, '-m', 'edited'])]);
}

const FAILED_TESTS = {
  total: 3,
  passed: 2,
  failed: 1,
  skipped: 0,
  errors: 0,
  failures: [{ suite: 'app', name: 'adds', message: 'expected 2' }],
};

describe('a verdict is recomputed from its own facts (item 4)', () => {
  it('verify fails a fail edited into "pass" in the local home', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 1);
    const g = await recordVerdict(a, 'run-1', 0, 'test', { verdict: 'fail', tests: FAILED_TESTS });
    const gates = new Gates(a.snap);
    expect((await gates.verify({ runId: 'run-1' })).ok).toBe(true);
    const path = new GateStore(a.home).path('run-1', g.id);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"verdict": "fail"', '"verdict": "pass"'));
    const report = await gates.verify({ runId: 'run-1' }, { requireGates: ['test'] });
    expect(report.ok).toBe(false);
    expect(report.checks.filter((c) => !c.ok).map((c) => c.check)).toContain('gate-verdict');
  });

  it('fetch refuses a published verdict whose facts contradict it; the rest lands', async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'run-1', 1);
    const red = await recordVerdict(a, 'run-1', 0, 'test', { verdict: 'fail', tests: FAILED_TESTS });
    const lint = await recordVerdict(a, 'run-1', 0, 'lint');
    await a.share.push({ workspace: a.dir });
    tamper(w.origin, `refs/agentgate/gates/run-1/${red.id}`, (gate) => {
      gate.verdict = 'pass';
    });
    const fetched = await b.share.fetch({ workspace: b.dir });
    expect(fetched.refused.map((r) => r.ref)).toEqual([`refs/agentgate/gates/run-1/${red.id}`]);
    expect(fetched.refused[0]?.reason).toContain('make it fail');
    expect((await verdictsOf(b.home, 'run-1')).map((g) => g.id)).toEqual([lint.id]);
  });
});
