/**
 * Snapshot and run records edited by hand, in ways the schema lets through. A before or after SHA
 * that names a tree or a blob made `verify` stop with GIT_FAILED (exit 1, nothing verified) instead
 * of failing that snapshot's check (exit 3); a run record whose `snapshotIds` are out of iteration
 * order (CONTRACT.md: ordered by iteration) passed, while `after` then took a re-captured
 * iteration for another machine's (RUN_ID_TAKEN). An iteration ref left empty or garbled made `verify` and
 * `report` stop with GIT_FAILED instead of failing that snapshot's `ref` check.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { cliIn } from '../helpers/cli.js';
import { git, remove } from '../helpers/repo.js';
import { gatedRun } from '../helpers/gates.js';

let dir: string;
let home: string;
let snapshots: Snapshot[];

beforeAll(async () => {
  const run = await gatedRun([{ 'a.txt': 'one\n' }, { 'b.txt': 'two\n' }, { 'c.txt': 'three\n' }]);
  dir = run.dir;
  snapshots = run.snapshots;
  home = run.gates.snapshotter.store.home;
});

afterAll(() => {
  remove(dir);
  remove(home);
});

/** Runs `fn` with `file` edited by `edit`, then puts the file back as it was. */
async function edited<T>(
  file: string,
  edit: (value: Record<string, unknown>) => Record<string, unknown>,
  fn: () => T | Promise<T>,
): Promise<T> {
  const original = readFileSync(file);
  writeFileSync(file, JSON.stringify(edit(JSON.parse(original.toString('utf8')) as Record<string, unknown>)));
  try {
    return await fn();
  } finally {
    writeFileSync(file, original);
  }
}

const snapshotFile = (s: Snapshot) => join(home, 'snapshots', `${s.id}.json`);
const failed = (r: VerifyReport) => r.checks.filter((c) => !c.ok).map((c) => `${c.snapshotId} ${c.check}`);

describe('verify of a record whose SHA names no commit', () => {
  for (const field of ['beforeSha', 'afterSha'] as const) {
    for (const kind of ['tree', 'blob'] as const) {
      it(`fails the check (exit 3) when ${field} is a ${kind}`, async () => {
        const two = snapshots[1] as Snapshot;
        const object = git(dir, [
          'rev-parse',
          kind === 'tree' ? `${two.afterSha}^{tree}` : `${two.afterSha}:b.txt`,
        ]).trim();
        const exists = field === 'beforeSha' ? 'before-exists' : 'after-exists';
        await edited(
          snapshotFile(two),
          (s) => ({ ...s, [field]: object }),
          () => {
            for (const target of kind === 'tree' ? [[two.id], ['--run', 'r1']] : [['--all']]) {
              const res = cliIn(dir, home, ['verify', ...target]);
              expect(res.status, res.stdout).toBe(3);
              const report = res.json() as VerifyReport;
              expect(failed(report)).toContain(`${two.id} ${exists}`);
              const check = report.checks.find((c) => c.snapshotId === two.id && c.check === exists);
              expect(check?.detail).toContain(kind);
            }
          },
        );
      });
    }
  }
});

describe('verify of a run record whose links are out of iteration order', () => {
  it('fails run-links', async () => {
    const runFile = join(home, 'runs', 'r1.json');
    await edited(
      runFile,
      (run) => ({ ...run, snapshotIds: [...(run.snapshotIds as string[])].reverse() }),
      () => {
        const res = cliIn(dir, home, ['verify', '--run', 'r1']);
        expect(res.status, res.stdout).toBe(3);
        // Reversed: iterations 2 and 1 come after iteration 3.
        const [one, two] = snapshots as [Snapshot, Snapshot];
        expect(failed(res.json() as VerifyReport)).toEqual([`${two.id} run-links`, `${one.id} run-links`]);
      },
    );
    const res = cliIn(dir, home, ['verify', '--run', 'r1']);
    expect(res.status, res.stdout).toBe(0);
  });
});

describe('verify of an iteration ref made a symbolic ref', () => {
  it('fails ref while the ref only follows a branch to the after commit', () => {
    const three = snapshots[2] as Snapshot;
    const ref = `refs/agentgate/runs/r1/iteration-3`;
    git(dir, ['symbolic-ref', ref, 'refs/heads/main']);
    try {
      const res = cliIn(dir, home, ['verify', three.id]);
      expect(res.status, res.stdout).toBe(3);
      const report = res.json() as VerifyReport;
      expect(failed(report)).toEqual([`${three.id} ref`]);
      expect(report.checks.find((c) => c.check === 'ref' && !c.ok)?.detail).toContain('refs/heads/main');
    } finally {
      git(dir, ['update-ref', '--no-deref', ref, three.afterSha]);
    }
    expect(cliIn(dir, home, ['verify', three.id]).status).toBe(0);
  });
});

describe('verify of an iteration ref left broken', () => {
  // A power loss while git wrote the ref, or a hand edit: a loose ref file git cannot read.
  for (const [what, content] of [
    ['empty', ''],
    ['garbled', 'garbage\n'],
    ['a garbled symbolic ref', 'ref: not a ref name\n'],
  ] as const) {
    it(`fails ref (exit 3), not GIT_FAILED, when it is ${what}; report still renders`, () => {
      const three = snapshots[2] as Snapshot;
      const file = join(dir, '.git', 'refs', 'agentgate', 'runs', 'r1', 'iteration-3');
      const original = readFileSync(file);
      writeFileSync(file, content);
      try {
        for (const target of [[three.id], ['--run', 'r1'], ['--all']]) {
          const res = cliIn(dir, home, ['verify', ...target]);
          expect(res.status, res.stdout).toBe(3);
          expect(failed(res.json() as VerifyReport)).toEqual([`${three.id} ref`]);
        }
        const report = cliIn(dir, home, ['report', '--run', 'r1', '--format', 'json']);
        expect(report.status, report.stdout).toBe(0);
      } finally {
        writeFileSync(file, original);
      }
      expect(cliIn(dir, home, ['verify', three.id]).status).toBe(0);
    });
  }
});

describe('verify of an iteration ref that is a FIFO', () => {
  // git opens a loose ref to read it: a FIFO there held verify (and report) until gitTimeoutMs
  // (two minutes by default), then GIT_TIMEOUT with nothing verified.
  it('fails ref (exit 3) without waiting on it', () => {
    const three = snapshots[2] as Snapshot;
    const file = join(dir, '.git', 'refs', 'agentgate', 'runs', 'r1', 'iteration-3');
    const original = readFileSync(file);
    rmSync(file);
    execFileSync('mkfifo', [file]);
    try {
      for (const target of [[three.id], ['--run', 'r1']]) {
        const res = cliIn(dir, home, ['verify', ...target]);
        expect(res.status, res.stdout).toBe(3);
        expect(failed(res.json() as VerifyReport)).toEqual([`${three.id} ref`]);
      }
    } finally {
      rmSync(file);
      writeFileSync(file, original);
    }
    expect(cliIn(dir, home, ['verify', three.id]).status).toBe(0);
  });
});
