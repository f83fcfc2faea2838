/**
 * Ties between runs through the built CLI: several iterations with one after tree (attest --commit,
 * verify --attestation), and a person's line in a run's WIP commits that another run also wrote.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Anchor, Trace } from '../../types/anchor.js';
import { git, lines, recordRun, setupCli, writeFiles, type RunSetup } from '../helpers/provenance.js';

let s: RunSetup | undefined;
afterEach(() => s?.cleanup());

const cli = (args: string[]) => setupCli(s, args);

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

describe("a person's lines in a run's WIP commits", () => {
  it("a line kept by a WIP commit is that run's iteration 0, not a never-merged run's that wrote the same text", async () => {
    s = await recordRun([], { base: { 'a.txt': lines('base line', 20) } });
    const person = 'person uncommitted line, same as run B wrote';
    git(s.dir, ['checkout', '-q', '-b', 'fa']);
    const withPerson = lines('base line', 10) + `${person}\n` + lines('base line', 10, 11);
    writeFiles(s.dir, { 'a.txt': withPerson });
    iterate('rA', 'echo "agent A file long enough content" > x.txt');
    git(s.dir, ['checkout', '-q', '-b', 'fb', 'main']);
    // rB, never merged, writes the same line as an agent would.
    const same = join(s.snap.options.home, 'same.txt');
    writeFileSync(same, withPerson);
    iterate('rB', `cp '${same}' a.txt`);
    git(s.dir, ['checkout', '-q', 'main']);
    git(s.dir, ['merge', '-q', '--no-ff', 'fa', '-m', 'merge']);

    const anchor = Anchor.parse(cli(['anchor', 'HEAD', '--json']).json());
    const a = anchor.files.find((f) => f.path === 'a.txt');
    expect(a).toMatchObject({ linesFromRuns: 0, origins: [{ runId: 'rA', iteration: 0, lines: 1 }] });
    expect(anchor.runs.map((r) => r.runId)).toEqual(['rA']);
    const trace = Trace.parse(cli(['trace', 'a.txt', '--json']).json());
    expect(trace.ranges.find((r) => r.start === 11)).toMatchObject({ origin: { runId: 'rA', iteration: 0 } });
    const report = cli(['report', '--anchor', 'HEAD', '--format', 'json']);
    expect(report.status, report.stderr).toBe(0);
    const files = (report.json() as { files: Array<{ path: string; notFromRuns: unknown }> }).files;
    expect(files.find((f) => f.path === 'a.txt')?.notFromRuns).toEqual([{ start: 11, end: 11 }]);
  });

  it('a staged file kept by the "WIP before run: staged" commit is iteration 0 in anchor and trace', async () => {
    s = await recordRun([], { base: { 'a.txt': lines('base line', 20) } });
    git(s.dir, ['checkout', '-q', '-b', 'feat']);
    writeFiles(s.dir, { 's2.txt': 'long-enough-person-text\n', 'p.txt': 'partly-staged-person-line-one\n' });
    git(s.dir, ['add', 's2.txt', 'p.txt']);
    // Staged and then changed again: before keeps the staged version in a commit of its own.
    writeFiles(s.dir, { 'p.txt': 'partly-staged-person-line-one\npartly-unstaged-person-line-two\n' });
    iterate('r1', 'echo agent-long-enough-line-here >> a.txt');
    expect(git(s.dir, ['log', '-1', '--format=%s', 'feat~2'])).toBe('[agentgate] WIP before run: staged');
    git(s.dir, ['checkout', '-q', 'main']);
    git(s.dir, ['merge', '-q', '--no-ff', 'feat', '-m', 'merge']);

    const anchor = Anchor.parse(cli(['anchor', 'HEAD', '--json']).json());
    const byPath = new Map(anchor.files.map((f) => [f.path, [f.method, f.origins]]));
    expect(byPath.get('s2.txt')).toEqual(['ancestry', [{ runId: 'r1', iteration: 0, lines: 1 }]]);
    expect(byPath.get('p.txt')).toEqual(['ancestry', [{ runId: 'r1', iteration: 0, lines: 2 }]]);
    for (const path of ['s2.txt', 'p.txt']) {
      const trace = Trace.parse(cli(['trace', path, '--json']).json());
      expect(
        trace.ranges.map((r) => [r.origin?.runId, r.origin?.iteration]),
        path,
      ).toEqual(trace.ranges.map(() => ['r1', 0]));
    }
  });
});
