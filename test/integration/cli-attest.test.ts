/**
 * `attest` writes an in-toto Statement v1 with the Test Result predicate from a run's verdicts, and
 * `verify --attestation` checks one against the local records (exit 0 or 3), on the machine that
 * made the run and on another that fetched it.
 */
import { createHash } from 'node:crypto';
import { readFileSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Statement } from '../../types/attestation.js';
import { recordVerdict } from '../helpers/gates.js';
import { git } from '../helpers/repo.js';
import { machineCli, runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

/** The CLI on `m` with the CI variables this file is about cleared (`env` may set them). */
function cli(m: Machine, args: string[], env: NodeJS.ProcessEnv = {}) {
  return machineCli(m, args, {
    GITHUB_ACTIONS: '',
    GITHUB_SERVER_URL: '',
    GITHUB_REPOSITORY: '',
    GITHUB_RUN_ID: '',
    ...env,
  });
}

async function twoIterations(): Promise<Machine> {
  w = world();
  const a = w.machine('a');
  await runIterations(a, 'run-1', 2);
  await recordVerdict(a, 'run-1', 0, 'test', { verdict: 'fail', startedAt: '2026-01-01T10:00:00Z' });
  await recordVerdict(a, 'run-1', 1, 'test', { verdict: 'fail', startedAt: '2026-01-01T11:00:00Z' });
  // A re-run that passes supersedes the failure before it.
  await recordVerdict(a, 'run-1', 1, 'test', { startedAt: '2026-01-01T11:05:00Z' });
  await recordVerdict(a, 'run-1', 1, 'lint', { startedAt: '2026-01-01T11:01:00Z' });
  return a;
}

describe('attest', () => {
  it('subjects are the patches (sha256) and after commits (gitCommit); the predicate the newest verdicts', async () => {
    const a = await twoIterations();
    const file = join(w.root, 'statement.json');
    const res = cli(a, ['attest', '--run', 'run-1', '-o', file, '--json'], {
      GITHUB_SERVER_URL: 'https://github.com',
      GITHUB_REPOSITORY: 'acme/app',
      GITHUB_RUN_ID: '42',
    });
    expect(res.status, res.stderr).toBe(0);
    expect(res.json()).toEqual({ file, subjects: 4 });
    const statement = Statement.parse(JSON.parse(readFileSync(file, 'utf8')));
    expect(statement._type).toBe('https://in-toto.io/Statement/v1');
    expect(statement.predicateType).toBe('https://in-toto.io/attestation/test-result/v0.1');
    const snaps = await a.snap.listByRun('run-1');
    expect(statement.subject).toEqual(
      snaps.flatMap((s) => [
        {
          name: `run-1/iteration-${s.iteration}/patch.diff`,
          digest: { sha256: createHash('sha256').update(readFileSync(s.patchPath!)).digest('hex') },
        },
        { name: `run-1/iteration-${s.iteration}`, digest: { gitCommit: s.afterSha } },
      ]),
    );
    expect(statement.predicate).toMatchObject({
      result: 'FAILED',
      url: 'https://github.com/acme/app/actions/runs/42',
      passedTests: ['iteration-1/lint', 'iteration-1/test'],
      warnedTests: [],
      failedTests: ['iteration-0/test'],
    });
    expect(statement.predicate.configuration.map((c) => c.annotations.attempt)).toEqual([1, 1, 2]);

    const one = join(w.root, 'one.json');
    expect(cli(a, ['attest', '--run', 'run-1', '--iteration', '1', '-o', one]).status).toBe(0);
    const last = Statement.parse(JSON.parse(readFileSync(one, 'utf8')));
    expect(last.predicate).toMatchObject({ result: 'PASSED', failedTests: [] });
    expect(last.predicate.url).toBeUndefined();
    expect(last.subject).toHaveLength(2);
    expect(cli(a, ['verify', '--attestation', one]).status).toBe(0);
  });

  it('a CI run URL its own verify would refuse is left out, with a warning', async () => {
    const a = await twoIterations();
    const file = join(w.root, 'statement.json');
    for (const [server, repository] of [
      ['https://ghe.exa mple.com', 'acme/app'],
      ['https://github.com', `acme/${'a'.repeat(4096)}`],
    ]) {
      const env = { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: '42' };
      const res = cli(a, ['attest', '--run', 'run-1', '-o', file, '--json'], env);
      expect(res.status, res.stderr).toBe(0);
      expect(res.json()).toEqual({ file, subjects: 4 });
      expect(res.stderr).toMatch(/^warning: .*no predicate\.url/m);
      expect(JSON.parse(readFileSync(file, 'utf8')).predicate).not.toHaveProperty('url');
      expect(cli(a, ['verify', '--attestation', file]).status).toBe(0);
    }
  });

  it('a pass the caller only reported is WARNED; no verdict at all is FAILED', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 2);
    const g = await recordVerdict(a, 'run-1', 1, 'test');
    const stored = join(a.home, 'gates', 'run-1', `${g.id}.json`);
    writeFileSync(stored, JSON.stringify({ ...g, observed: false }));
    const file = join(w.root, 's.json');
    expect(cli(a, ['attest', '--run', 'run-1', '--iteration', '1', '-o', file]).status).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      predicate: { result: 'WARNED', warnedTests: ['iteration-1/test'] },
    });
    expect(cli(a, ['attest', '--run', 'run-1', '--iteration', '0', '-o', file]).status).toBe(0);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({
      predicate: { result: 'FAILED', configuration: [], passedTests: [], failedTests: [] },
    });
  });

  it('bad input is a coded error', async () => {
    const a = await twoIterations();
    const out = join(w.root, 's.json');
    expect(
      cli(a, ['attest', '--run', 'run-1', '--iteration', '7', '-o', out, '--json']).json(),
    ).toMatchObject({
      error: { code: 'ITERATION_NOT_FOUND' },
    });
    expect(cli(a, ['attest', '--run', '../x', '-o', out, '--json']).json()).toMatchObject({
      error: { code: 'INVALID_ID' },
    });
    expect(cli(a, ['attest', '--run', 'run-1']).status).toBe(2);
    const [first] = await a.snap.listByRun('run-1');
    writeFileSync(first!.patchPath!, 'not the patch\n');
    expect(cli(a, ['attest', '--run', 'run-1', '-o', out, '--json']).json()).toMatchObject({
      error: { code: 'STORE_CORRUPT' },
    });
  });
});

describe('verify --attestation', () => {
  it('passes against the records here and on a machine that fetched the run; fails on any edit', async () => {
    const a = await twoIterations();
    const file = join(w.root, 'statement.json');
    expect(cli(a, ['attest', '--run', 'run-1', '-o', file]).status).toBe(0);
    const ok = cli(a, ['verify', '--attestation', file, '--json']);
    expect(ok.status, ok.stdout).toBe(0);
    expect(ok.json()).toMatchObject({ ok: true, runId: 'run-1' });

    expect(cli(a, ['push', '--run', 'run-1']).status).toBe(0);
    const b = w.machine('b');
    expect(cli(b, ['fetch', '--run', 'run-1']).status).toBe(0);
    expect(cli(b, ['verify', '--attestation', file]).status).toBe(0);

    const original = JSON.parse(readFileSync(file, 'utf8')) as Statement;
    const edits: Array<[string, (s: Statement) => void, string]> = [
      [
        'a patch digest',
        (s) => ((s.subject[0]!.digest as { sha256: string }).sha256 = '0'.repeat(64)),
        'subject',
      ],
      [
        'an after commit',
        (s) => ((s.subject[1]!.digest as { gitCommit: string }).gitCommit = 'a'.repeat(40)),
        'subject',
      ],
      ['the result', (s) => (s.predicate.result = 'PASSED'), 'result'],
      [
        'a failed test moved to passed',
        (s) => {
          s.predicate.passedTests.push(...s.predicate.failedTests.splice(0));
        },
        'result',
      ],
      // A consumer matches an artifact by any digest in the set: one nothing here confirms fails.
      [
        'a digest beside the patch sha256',
        (s) => Object.assign(s.subject[0]!.digest, { sha512: '00' }),
        'subject',
      ],
      [
        'a digest beside the after commit',
        (s) => Object.assign(s.subject[1]!.digest, { sha256: '0'.repeat(64) }),
        'subject',
      ],
      // Every iteration the predicate speaks for keeps its subjects, as attest writes them.
      ["the last iteration's after commit left out", (s) => s.subject.splice(3, 1), 'subjects'],
      ['a patch left out', (s) => s.subject.splice(0, 1), 'subjects'],
      ['an iteration with verdicts left out', (s) => s.subject.splice(0, 2), 'subjects'],
      ['a subject twice', (s) => s.subject.push(s.subject[1]!), 'subjects'],
      ['subjects in another order', (s) => s.subject.reverse(), 'subjects'],
      ['a verdict', (s) => (s.predicate.configuration[0]!.annotations.verdict = 'pass'), 'verdict'],
      ['a verdict id', (s) => (s.predicate.configuration[0]!.annotations.gateId = 'nope'), 'verdict'],
      ['the predicate type', (s) => ((s as { predicateType: string }).predicateType = 'x'), 'statement'],
      // Exactly what attest writes: a verdict named twice or out of order, and no field it never writes.
      [
        'a verdict and its test named twice',
        (s) => {
          s.predicate.configuration.push(s.predicate.configuration.at(-1)!);
          s.predicate.passedTests.push(s.predicate.passedTests.at(-1)!);
        },
        'complete',
      ],
      ['verdicts in another order', (s) => s.predicate.configuration.reverse(), 'complete'],
      [
        'a digest beside the tree a verdict judged',
        (s) => Object.assign(s.predicate.configuration[0]!.digest, { sha256: '0'.repeat(64) }),
        'statement',
      ],
      ['a subject uri', (s) => Object.assign(s.subject[0]!, { uri: 'https://example.com/p' }), 'statement'],
      [
        'an annotation more',
        (s) => Object.assign(s.predicate.configuration[0]!.annotations, { signedBy: 'me' }),
        'statement',
      ],
      ['a field more in the predicate', (s) => Object.assign(s.predicate, { note: 'x' }), 'statement'],
      ['a field more in the statement', (s) => Object.assign(s, { note: 'x' }), 'statement'],
    ];
    for (const [label, edit, check] of edits) {
      const copy = structuredClone(original);
      edit(copy);
      const edited = join(w.root, 'edited.json');
      writeFileSync(edited, JSON.stringify(copy));
      const res = cli(b, ['verify', '--attestation', edited, '--json']);
      expect(res.status, label).toBe(3);
      const report = res.json() as { ok: boolean; checks: Array<{ check: string; ok: boolean }> };
      expect(report.ok, label).toBe(false);
      expect(
        report.checks.filter((c) => !c.ok).map((c) => c.check.split(' ')[0]),
        label,
      ).toContain(check);
    }
    // The result check names the list that differs, not only the result.
    const moved = structuredClone(original);
    moved.predicate.passedTests.push(...moved.predicate.failedTests.splice(0));
    writeFileSync(join(w.root, 'moved.json'), JSON.stringify(moved));
    const movedReport = cli(b, ['verify', '--attestation', join(w.root, 'moved.json'), '--json']).json() as {
      checks: Array<{ check: string; ok: boolean; detail: string }>;
    };
    expect(movedReport.checks.find((c) => c.check === 'result')?.detail).toMatch(
      /^the statement says passedTests \[.*\], the verdicts give \[.*\]; failedTests \[\], the verdicts give \[/,
    );
    writeFileSync(join(w.root, 'garbage.json'), '{not json');
    expect(cli(b, ['verify', '--attestation', join(w.root, 'garbage.json')]).status).toBe(3);
    // A file that cannot be read: exit 1 (docs/gates.md), for a missing file, a directory and one
    // larger than any statement is read (64 MiB; sparse, so nothing is written), never usage's 2.
    const huge = join(w.root, 'huge.json');
    writeFileSync(huge, '');
    truncateSync(huge, 64 * 1024 * 1024 + 1);
    for (const unreadable of [join(w.root, 'missing.json'), w.root, huge]) {
      const res = cli(b, ['verify', '--attestation', unreadable, '--json']);
      expect([res.status, res.json()]).toMatchObject([1, { error: { code: 'PATH_NOT_FOUND' } }]);
    }
    expect(cli(b, ['verify', '--run', 'run-1', '--attestation', file]).status).toBe(2);
  });
});

describe('verify --attestation of a statement of attest --commit', () => {
  type Report = {
    ok: boolean;
    runId: string | null;
    commit?: string;
    checks: Array<{ check: string; ok: boolean }>;
  };
  const failed = (r: unknown) => (r as Report).checks.filter((c) => !c.ok).map((c) => c.check.split(' ')[0]);

  it('passes against the records here and where the run was fetched; fails on any edit and when stale', async () => {
    const a = await twoIterations();
    // What lands on main: iteration 1's after tree in a commit of its own (a squash merge).
    const [, last] = await a.snap.listByRun('run-1');
    const tree = git(a.dir, ['rev-parse', `${last!.afterSha}^{tree}`]);
    const initial = git(a.dir, ['rev-parse', 'origin/main']);
    const squash = git(a.dir, ['commit-tree', tree, '-p', initial, '-m', 'squash']);
    git(a.dir, ['push', '-q', w.origin, `${squash}:refs/heads/main`]);
    const file = join(w.root, 'commit.intoto.json');
    expect(cli(a, ['attest', '--commit', squash, '-o', file]).status).toBe(0);
    const ok = cli(a, ['verify', '--attestation', file, '--json']);
    expect(ok.status, ok.stdout).toBe(0);
    expect(ok.json()).toMatchObject({ ok: true, runId: 'run-1', commit: squash });

    // Another clone: the commit is there, the run is not until it is fetched.
    const b = w.machine('b');
    const before = cli(b, ['verify', '--attestation', file, '--json']);
    expect([before.status, failed(before.json())]).toEqual([3, ['subject']]);
    expect(cli(a, ['push', '--run', 'run-1']).status).toBe(0);
    expect(cli(b, ['fetch', '--run', 'run-1']).status).toBe(0);
    expect(cli(b, ['verify', '--attestation', file]).status).toBe(0);

    const original = JSON.parse(readFileSync(file, 'utf8')) as Statement;
    const other = join(w.root, 'iteration-0.json');
    expect(cli(a, ['attest', '--run', 'run-1', '--iteration', '0', '-o', other]).status).toBe(0);
    const iteration0 = JSON.parse(readFileSync(other, 'utf8')) as Statement;
    const commitSubject = (sha: string) => ({ name: `commit/${sha}`, digest: { gitCommit: sha } });
    const edits: Array<[string, (s: Statement) => void, string]> = [
      ['the digest', (s) => (s.subject[0]!.digest = { gitCommit: initial }), 'subject'],
      ['a commit no gate judged', (s) => (s.subject = [commitSubject(initial)]), 'subject'],
      ['a commit not in the repository', (s) => (s.subject = [commitSubject('e'.repeat(40))]), 'subject'],
      ["another iteration's verdicts", (s) => (s.predicate = iteration0.predicate), 'iteration'],
      ['the result', (s) => (s.predicate.result = 'FAILED'), 'result'],
      ['a verdict', (s) => (s.predicate.configuration[0]!.annotations.verdict = 'fail'), 'verdict'],
      ['a verdict left out', (s) => s.predicate.configuration.pop(), 'complete'],
      [
        'an iteration set aside',
        (s) =>
          (s.predicate.setAside = [
            { name: 'run-1/iteration-0', afterSha: initial, restartFrom: 0, declaredAt: 'x' },
          ]),
        'set',
      ],
      ['a second subject', (s) => s.subject.push(commitSubject(initial)), 'statement'],
      [
        'a digest beside the commit',
        (s) => (s.subject[0]!.digest = { gitCommit: squash, sha1: initial } as { gitCommit: string }),
        'subject',
      ],
    ];
    for (const [label, edit, check] of edits) {
      const copy = structuredClone(original);
      edit(copy);
      const edited = join(w.root, 'edited.json');
      writeFileSync(edited, JSON.stringify(copy));
      const res = cli(b, ['verify', '--attestation', edited, '--json']);
      expect(res.status, label).toBe(3);
      expect(failed(res.json()), label).toContain(check);
    }

    // A commit statement of the after commit itself, its subject renamed to the iteration's: it
    // is no longer what attest writes (the iteration's patch subject is not there).
    const own = join(w.root, 'own.intoto.json');
    expect(cli(a, ['attest', '--commit', last!.afterSha, '-o', own]).status).toBe(0);
    expect(cli(a, ['verify', '--attestation', own]).status).toBe(0);
    const renamed = JSON.parse(readFileSync(own, 'utf8')) as Statement;
    renamed.subject[0]!.name = 'run-1/iteration-1';
    writeFileSync(own, JSON.stringify(renamed));
    const res = cli(a, ['verify', '--attestation', own, '--json']);
    expect([res.status, failed(res.json())]).toEqual([3, ['subjects']]);

    // A re-run that fails after the statement was written makes it stale.
    await recordVerdict(a, 'run-1', 1, 'test', { verdict: 'fail' });
    const stale = cli(a, ['verify', '--attestation', file, '--json']);
    expect([stale.status, failed(stale.json())]).toEqual([3, ['complete']]);
  });
});
