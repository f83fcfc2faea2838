/**
 * `delete` of the iteration a declared restart starts from. The restart's point (iteration N's after
 * commit; for N = 0, the run's start: its first iteration's before SHA) was read from the run's
 * remaining snapshots alone, so once that iteration was deleted (a person cleaning up a rejected
 * try) `verify --run` failed `continuity` for ever: "its commit ... is not iteration 1's after
 * commit (none)", or, from the run's start, a start moved to the next iteration's before SHA. The
 * run's `deletedSnapshots` keeps what the deleted capture recorded, and the point is read there too.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { VerifyReport } from '../../types/verify.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { git, remove, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** A workspace and a home, the CLI bound to both, and `iterations` iterations of run r recorded. */
function recorded(iterations: number): { dir: string; home: string; cli: (...args: string[]) => CliResult } {
  const dir = repoWithCommit({ 'a.txt': 'start\n' });
  const home = tempDir('agentgate-home-');
  const cli = (...args: string[]) => runCli(['-C', dir, '--home', home, '--json', ...args], { cwd: dir });
  for (let n = 1; n <= iterations; n++) capture(cli, dir, n);
  return { dir, home, cli };
}

function capture(cli: (...args: string[]) => CliResult, dir: string, n: number, restartFrom?: number): void {
  const before = cli(
    'before',
    '--run',
    'r',
    ...(restartFrom === undefined ? [] : ['--restart-from', `${restartFrom}`]),
  );
  expect(before.status, before.stdout + before.stderr).toBe(0);
  writeFiles(dir, { [`f${n}.txt`]: `${n}\n` });
  const after = cli('after', '--run', 'r', '--iteration', `${n}`);
  expect(after.status, after.stdout + after.stderr).toBe(0);
}

interface Listed {
  id: string;
  iteration: number;
  afterSha: string;
}

/** The run's snapshots, by iteration. */
const ids = (cli: (...args: string[]) => CliResult): Listed[] => cli('list', '--run', 'r').json() as Listed[];

function expectVerified(cli: (...args: string[]) => CliResult): void {
  const res = cli('verify', '--run', 'r');
  const failed = (res.json() as VerifyReport).checks.filter((c) => !c.ok);
  expect([res.status, failed]).toEqual([0, []]);
}

describe('verify after the restart point was deleted', () => {
  it('passes when the iteration a restart starts from is deleted', () => {
    const { dir, home, cli } = recorded(3);
    try {
      const one = ids(cli)[0] as Listed;
      git(dir, ['reset', '-q', '--hard', one.afterSha]);
      capture(cli, dir, 4, 1);
      expectVerified(cli);
      for (const s of ids(cli).filter((s) => s.iteration < 4)) expect(cli('delete', s.id).status).toBe(0);
      expectVerified(cli);
    } finally {
      remove(dir);
      remove(home);
    }
  });

  it('passes when a run restarted from its start loses its first iteration', () => {
    const { dir, home, cli } = recorded(2);
    try {
      const start = git(dir, ['rev-parse', 'HEAD~2']).trim();
      git(dir, ['reset', '-q', '--hard', start]);
      capture(cli, dir, 3, 0);
      expectVerified(cli);
      const one = ids(cli)[0] as Listed;
      expect(cli('delete', one.id).status).toBe(0);
      expectVerified(cli);
    } finally {
      remove(dir);
      remove(home);
    }
  });

  it("still fails a restart whose commit is not the deleted iteration's after commit", () => {
    const { dir, home, cli } = recorded(3);
    try {
      const [one, two] = ids(cli) as [Listed, Listed];
      git(dir, ['reset', '-q', '--hard', two.afterSha]);
      capture(cli, dir, 4, 2);
      expect(cli('delete', one.id).status).toBe(0);
      expect(cli('delete', two.id).status).toBe(0);
      expectVerified(cli);
      // The deleted capture of iteration 2 recorded with another commit: the restart no longer agrees.
      const file = join(home, 'runs', 'r.json');
      const run = JSON.parse(readFileSync(file, 'utf8')) as {
        deletedSnapshots: Array<{ iteration: number; afterSha: string }>;
      };
      for (const d of run.deletedSnapshots) if (d.iteration === 2) d.afterSha = one.afterSha;
      writeFileSync(file, JSON.stringify(run));
      const res = cli('verify', '--run', 'r');
      expect(res.status).toBe(3);
      expect((res.json() as VerifyReport).checks.filter((c) => !c.ok).map((c) => c.check)).toContain(
        'continuity',
      );
    } finally {
      remove(dir);
      remove(home);
    }
  });
});
