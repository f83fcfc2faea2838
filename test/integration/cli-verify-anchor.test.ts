/** `verify --anchor` and `verify --attestation` through the built CLI: one comparison, usage, GitHub annotations. */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recheckAnchors } from '../../src/provenance/anchor-keeper.js';
import { Anchor } from '../../types/anchor.js';
import type { VerifyReport } from '../../types/verify.js';
import { runCli } from '../helpers/cli.js';
import { recordVerdict } from '../helpers/gates.js';
import { lines, recordRun, setupCli, squash, type RunSetup } from '../helpers/provenance.js';

let s: RunSetup | undefined;
afterEach(() => s?.cleanup());

const cli = (args: string[]) => setupCli(s, args);
const code = (res: { json: () => unknown }) => (res.json() as { error: { code: string } }).error.code;

/** A run of one iteration writing two files, its gate `test` failed, squashed onto main and anchored. */
async function anchored(anchorArgs: string[] = []): Promise<{ s: RunSetup; c: string; path: string }> {
  const setup = await recordRun([{ 'a.txt': lines('a', 2), 'b.txt': lines('b', 3) }]);
  const { dir, snap } = setup;
  const machine = { dir, home: snap.options.home, artifacts: snap.options.artifactsDir, snap };
  await recordVerdict(machine, 'run-a', 1, 'test', { verdict: 'fail' });
  const c = squash(dir, 'agent-run-a');
  s = setup;
  const res = cli(['anchor', 'HEAD', ...anchorArgs]);
  expect(res.status, res.stderr).toBe(0);
  return { s: setup, c, path: join(snap.options.home, 'anchors', `${c}.json`) };
}

function rewrite(path: string, change: (a: Anchor) => Anchor): Anchor {
  const forged = change(Anchor.parse(JSON.parse(readFileSync(path, 'utf8'))));
  writeFileSync(path, JSON.stringify(forged));
  return forged;
}

describe('verify --anchor judges as report --anchor and fetch do', () => {
  it('a duplicated or reordered file list differs: exit 3, named in the anchor check', async () => {
    const { s, path } = await anchored();
    const original = readFileSync(path, 'utf8');
    const forgeries: Array<[(a: Anchor) => Anchor, string]> = [
      [(a) => ({ ...a, files: [...a.files, a.files[0] as Anchor['files'][number]] }), '(listed 2 times)'],
      [(a) => ({ ...a, files: [...a.files].reverse() }), 'files (order)'],
    ];
    for (const [change, named] of forgeries) {
      const forged = rewrite(path, change);
      const res = cli(['verify', '--anchor', 'HEAD', '--json']);
      expect(res.status, res.stderr).toBe(3);
      const [check] = (res.json() as VerifyReport).checks;
      expect([check?.check, check?.ok]).toEqual(['anchor', false]);
      expect(check?.detail).toContain(named);
      const report = cli(['report', '--anchor', 'HEAD', '--format', 'json']);
      expect((report.json() as { recorded: string }).recorded).toBe('differs');
      // fetch keeps an anchor only when this same comparison finds nothing.
      const [why] = await recheckAnchors(s.src, s.repo, [forged]);
      expect(why).toContain(named);
      writeFileSync(path, original);
    }
    expect(cli(['verify', '--anchor', 'HEAD']).status).toBe(0);
  });

  it('an anchor narrowed to a run whose record is gone fails its check (3), as one of every run would', async () => {
    const { s } = await anchored(['--run', 'run-a']);
    expect(cli(['verify', '--anchor', 'HEAD']).status).toBe(0);
    rmSync(join(s.snap.options.home, 'runs', 'run-a.json'));
    const res = cli(['verify', '--anchor', 'HEAD', '--json']);
    expect(res.status, res.stderr).toBe(3);
    const [check] = (res.json() as VerifyReport).checks;
    expect([check?.check, check?.ok]).toEqual(['anchor', false]);
    expect(check?.detail).toContain('RUN_NOT_FOUND');
    // report --anchor still reports: the runs that are left, and a recorded anchor that differs.
    const report = cli(['report', '--anchor', 'HEAD', '--format', 'json']);
    expect(report.status, report.stderr).toBe(0);
    expect(report.json()).toMatchObject({
      recorded: 'differs',
      runs: [],
      coverage: { files: 2, filesFromRuns: 0, linesAdded: 5, linesFromRuns: 0 },
    });
    expect(cli(['report', '--anchor', 'HEAD', '--format', 'dotenv']).stdout).toContain(
      'AGENTGATE_ANCHOR_RECORDED=differs',
    );
  });
});

describe('verify: --require-gate and --each-iteration only with --run', () => {
  it('every other mode refuses them with USAGE (2) instead of passing', async () => {
    const { s } = await anchored();
    const statement = join(s.snap.options.home, 'run.intoto.json');
    expect(cli(['attest', '--run', 'run-a', '-o', statement]).status).toBe(0);
    // The gate failed: --run asks it and fails.
    expect(cli(['verify', '--run', 'run-a', '--require-gate', 'test']).status).toBe(3);
    const snapshotId = s.snapshots[0]?.id as string;
    for (const mode of [['--anchor', 'HEAD'], ['--attestation', statement], ['--all'], [snapshotId], []])
      for (const flags of [
        ['--require-gate', 'test'],
        ['--each-iteration'],
        ['--require-gate', 'test', '--each-iteration'],
      ]) {
        const res = cli(['verify', ...mode, ...flags, '--json']);
        expect([mode, flags, res.status, code(res)]).toEqual([mode, flags, 2, 'USAGE']);
      }
    const lone = cli(['verify', '--run', 'run-a', '--each-iteration', '--json']);
    expect([lone.status, code(lone)]).toEqual([2, 'USAGE']);
  });
});

describe('verify on GitHub: a failed check is an ::error', () => {
  it('of verify --anchor and verify --attestation, on stdout for people and on stderr with --json', async () => {
    const { s, path } = await anchored();
    rewrite(path, (a) => ({ ...a, coverage: { ...a.coverage, linesFromRuns: 0 } }));
    const statement = join(s.snap.options.home, 'bad.intoto.json');
    writeFileSync(statement, '{');
    const gh = (args: string[], env: NodeJS.ProcessEnv) =>
      runCli(['-C', s.dir, '--home', s.snap.options.home, 'verify', ...args], {
        env: { AGENTGATE_ARTIFACTS_DIR: '', GITHUB_ACTIONS: '', ...env },
      });
    const runs: Array<[string[], NodeJS.ProcessEnv, 'stdout' | 'stderr', string]> = [
      [['--anchor', 'HEAD'], { GITHUB_ACTIONS: 'true' }, 'stdout', 'anchor'],
      [['--anchor', 'HEAD', '--json'], { GITHUB_ACTIONS: 'true' }, 'stderr', 'anchor'],
      [['--anchor', 'HEAD', '--ci', 'github'], {}, 'stdout', 'anchor'],
      [['--attestation', statement], { GITHUB_ACTIONS: 'true' }, 'stdout', 'statement'],
      [['--attestation', statement, '--json'], { GITHUB_ACTIONS: 'true' }, 'stderr', 'statement'],
    ];
    for (const [args, env, where, check] of runs) {
      const res = gh(args, env);
      expect(res.status, res.stderr).toBe(3);
      expect(res[where]).toContain(`::error title=agentgate verify%3A ${check}::`);
    }
    const quiet = gh(['--anchor', 'HEAD', '--ci', 'none'], { GITHUB_ACTIONS: 'true' });
    expect(quiet.status).toBe(3);
    expect(`${quiet.stdout}${quiet.stderr}`).not.toContain('::error');
  });
});
