/**
 * Ties between runs through the built CLI: several iterations with one after tree (attest --commit,
 * verify --attestation), and a person's line in a run's WIP commits that another run also wrote.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { git, lines, recordRun, type RunSetup } from '../helpers/provenance.js';

let s: RunSetup | undefined;
afterEach(() => s?.cleanup());

function cli(args: string[]) {
  if (s === undefined) throw new Error('no setup');
  return runCli(['-C', s.dir, '--home', s.snap.options.home, ...args], {
    env: { AGENTGATE_ARTIFACTS_DIR: '', GITHUB_ACTIONS: '' },
  });
}

/** `iterate` of run `runId` iteration 1 with the shell command `agent`; must succeed. */
function iterate(runId: string, agent: string): void {
  const res = cli(['iterate', '--run', runId, '--iteration', '1', '--', 'sh', '-c', agent]);
  expect(res.status, res.stderr).toBe(0);
}

type Report = { ok: boolean; runId: string | null; checks: Array<{ check: string; ok: boolean }> };
type Named = { predicate: { configuration: Array<{ annotations: { runId: string } }> } };

describe('attest --commit and verify --attestation when several iterations have the tree', () => {
  it('a later run on the same tree neither breaks a statement nor takes over attest --commit', async () => {
    s = await recordRun([], { base: { 'a.txt': lines('base line', 20) } });
    iterate('r1', 'echo "agent line long enough to count" >> a.txt');
    expect(cli(['gate', '--run', 'r1', '--name', 'test', '--', 'true']).status).toBe(0);
    const file = join(s.snap.options.home, 'att.json');
    expect(cli(['attest', '--commit', 'HEAD', '-o', file]).status).toBe(0);
    expect(cli(['verify', '--attestation', file]).status).toBe(0);

    // An agent that did nothing at HEAD: its after commit is HEAD too.
    iterate('r2', 'true');
    const again = cli(['verify', '--attestation', file, '--json']);
    expect(again.status, again.stdout).toBe(0);
    expect((again.json() as Report).runId).toBe('r1');
    const second = join(s.snap.options.home, 'att2.json');
    expect(cli(['attest', '--commit', 'HEAD', '-o', second]).status).toBe(0);
    const named = JSON.parse(readFileSync(second, 'utf8')) as Named;
    expect(named.predicate.configuration.map((c) => c.annotations.runId)).toEqual(['r1']);
  });

  it("prefers the iteration whose after commit is the commit over another run's with the same tree", async () => {
    s = await recordRun([], { base: { 'a.txt': lines('base line', 20) } });
    iterate('r1', 'echo "agent line long enough to count" >> a.txt');
    expect(cli(['gate', '--run', 'r1', '--name', 'test', '--', 'true']).status).toBe(0);
    // r2, recorded last, makes the same after tree on another branch from the same base.
    git(s.dir, ['checkout', '-q', '-b', 'other', 'main~1']);
    iterate('r2', 'echo "agent line long enough to count" >> a.txt');
    expect(cli(['gate', '--run', 'r2', '--name', 'test', '--', 'false']).status).not.toBe(0);
    git(s.dir, ['checkout', '-q', 'main']);
    const file = join(s.snap.options.home, 'att.json');
    const res = cli(['attest', '--commit', 'main', '-o', file]);
    expect(res.status, res.stderr).toBe(0);
    const named = JSON.parse(readFileSync(file, 'utf8')) as Named;
    expect(named.predicate.configuration.map((c) => c.annotations.runId)).toEqual(['r1']);
    expect(cli(['verify', '--attestation', file]).status).toBe(0);
  });
});
