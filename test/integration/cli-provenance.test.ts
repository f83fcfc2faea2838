/** The provenance commands through the built CLI: JSON documents, the recorded anchor, exit statuses and codes. */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Anchor, Trace } from '../../types/anchor.js';
import { runCli } from '../helpers/cli.js';
import { recordVerdict } from '../helpers/gates.js';
import {
  commitAll,
  git,
  lines,
  recordRun,
  squash,
  writeFiles,
  setupCli,
  type RunSetup,
} from '../helpers/provenance.js';

let s: RunSetup | undefined;
afterEach(() => s?.cleanup());

const cli = (args: string[]) => setupCli(s, args);

describe('anchor, trace, verify --anchor, attest --commit (CLI)', () => {
  it('records an anchor, recomputes it, traces a file and attests the commit', async () => {
    s = await recordRun([{ 'a.txt': lines('a', 3) }, { 'a.txt': lines('a', 4) }]);
    await recordVerdict(
      { dir: s.dir, home: s.snap.options.home, artifacts: s.snap.options.artifactsDir, snap: s.snap },
      'run-a',
      2,
      'test',
    );
    const base = git(s.dir, ['rev-parse', 'HEAD']);
    const c = squash(s.dir, 'agent-run-a');
    const res = cli(['anchor', 'HEAD', '--json']);
    expect(res.status, res.stderr).toBe(0);
    const anchor = Anchor.parse(res.json());
    expect(anchor).toMatchObject({ commit: c, treeMatch: { runId: 'run-a', iteration: 2 } });
    expect(existsSync(join(s.snap.options.home, 'anchors', `${c}.json`))).toBe(true);
    expect(cli(['verify', '--anchor', 'HEAD', '--json']).status).toBe(0);

    writeFiles(s.dir, { 'b.txt': 'person\n' });
    commitAll(s.dir, 'person');
    const range = cli(['anchor', '--range', `${base}..HEAD`, '--json']);
    expect(range.status, range.stderr).toBe(0);
    const anchors = (range.json() as unknown[]).map((a) => Anchor.parse(a));
    expect(anchors.map((a) => [a.commit === c, a.coverage.filesFromRuns])).toEqual([
      [true, 1],
      [false, 0],
    ]);

    const trace = cli(['trace', 'a.txt', '--json']);
    expect(trace.status, trace.stderr).toBe(0);
    const t = Trace.parse(trace.json());
    expect(t.ranges.map((r) => [r.start, r.end, r.origin?.iteration, r.origin?.gates])).toEqual([
      [1, 3, 1, []],
      [4, 4, 2, [{ name: 'test', verdict: 'pass' }]],
    ]);
    // --format json is the document itself, as with --json (report --format json alike).
    const asked = cli(['trace', 'a.txt', '--format', 'json']);
    expect(asked.status, asked.stderr).toBe(0);
    expect(Trace.parse(asked.json())).toEqual(t);
    const record = cli(['trace', 'a.txt', '--format', 'agent-trace', '--json']);
    expect(record.status, record.stderr).toBe(0);
    expect(record.json()).toMatchObject({ version: '0.1.0', vcs: { type: 'git', revision: t.rev } });

    const file = join(s.snap.options.home, 'commit.intoto.json');
    const attest = cli(['attest', '--commit', c, '-o', file, '--json']);
    expect(attest.status, attest.stderr).toBe(0);
    expect(attest.json()).toEqual({ file, subjects: 1 });
    expect(JSON.parse(readFileSync(file, 'utf8')).subject[0].digest).toEqual({ gitCommit: c });
    const refused = cli(['attest', '--commit', 'HEAD', '-o', file, '--json']);
    expect([refused.status, (refused.json() as { error: { code: string } }).error.code]).toEqual([
      3,
      'COMMIT_NOT_GATED',
    ]);
  });

  it('exit statuses: a forged recorded anchor 3, no anchor ANCHOR_NOT_FOUND 1, usage 2', async () => {
    s = await recordRun([{ 'a.txt': lines('a', 3) }]);
    const c = squash(s.dir, 'agent-run-a');
    const none = cli(['verify', '--anchor', c, '--json']);
    expect([none.status, (none.json() as { error: { code: string } }).error.code]).toEqual([
      1,
      'ANCHOR_NOT_FOUND',
    ]);
    expect(cli(['anchor', c]).status).toBe(0);
    const path = join(s.snap.options.home, 'anchors', `${c}.json`);
    const recorded = Anchor.parse(JSON.parse(readFileSync(path, 'utf8')));
    writeFiles(s.snap.options.home, {
      [`anchors/${c}.json`]: JSON.stringify({ ...recorded, runs: [{ runId: 'forged', iterations: [1] }] }),
    });
    const forged = cli(['verify', '--anchor', c, '--json']);
    expect(forged.status).toBe(3);
    expect((forged.json() as { ok: boolean }).ok).toBe(false);
    expect(cli(['anchor']).status).toBe(2);
    expect(cli(['anchor', 'HEAD', '--range', 'a..b']).status).toBe(2);
    const symmetric = cli(['anchor', '--range', 'HEAD~1...HEAD', '--json']);
    expect([symmetric.status, (symmetric.json() as { error: { code: string } }).error.code]).toEqual([
      2,
      'INVALID_ARGUMENT',
    ]);
    const past = cli(['trace', 'a.txt', '-L', '999,1000', '--json']);
    expect([past.status, (past.json() as { error: { code: string } }).error.code]).toEqual([
      2,
      'INVALID_ARGUMENT',
    ]);
    const reversed = cli(['trace', 'a.txt', '-L', '5,2', '--json']);
    expect([reversed.status, (reversed.json() as { error: { code: string } }).error.code]).toEqual([
      2,
      'INVALID_ARGUMENT',
    ]);
    const part = cli(['trace', 'a.txt', '-L', '2,3', '--json']);
    expect(part.status, part.stderr).toBe(0);
    expect(Trace.parse(part.json()).ranges.map((r) => [r.start, r.end])).toEqual([[2, 3]]);
    expect(cli(['attest', '-o', 'x.json']).status).toBe(2);
    const bad = cli(['anchor', 'nope', '--json']);
    expect([bad.status, (bad.json() as { error: { code: string } }).error.code]).toEqual([
      1,
      'REVISION_NOT_FOUND',
    ]);
    const missing = cli(['trace', 'nope.txt', '--json']);
    expect((missing.json() as { error: { code: string } }).error.code).toBe('PATH_NOT_FOUND');
  });
});

describe('anchor and trace edges (CLI)', () => {
  it('an empty range anchors nothing: [] with --json, one line for people, exit 0', async () => {
    s = await recordRun([{ 'a.txt': lines('a', 3) }]);
    squash(s.dir, 'agent-run-a');
    for (const range of ['main..main', 'HEAD..HEAD~1']) {
      const json = cli(['anchor', '--range', range, '--json']);
      expect([json.status, json.json()], json.stderr).toEqual([0, []]);
      const text = cli(['anchor', '--range', range]);
      expect(text.status, text.stderr).toBe(0);
      expect(text.stdout).toMatch(/^No first-parent commit in .*: nothing to anchor\.\n$/);
    }
    expect(existsSync(join(s.snap.options.home, 'anchors'))).toBe(false);
  });

  it('trace of a directory (the top level or one at REV) is PATH_NOT_FOUND naming it a tree', async () => {
    s = await recordRun([{ 'sub/a.txt': lines('a', 3) }]);
    squash(s.dir, 'agent-run-a');
    for (const path of ['.', './', 'sub/..', s.dir, 'sub', 'sub/']) {
      const res = cli(['trace', path, '--json']);
      const error = (res.json() as { error: { code: string; details: { type?: string } } }).error;
      expect([res.status, error.code, error.details.type], path).toEqual([1, 'PATH_NOT_FOUND', 'tree']);
    }
    const outside = cli(['trace', '..', '--json']);
    const error = (outside.json() as { error: { code: string; details: { type?: string } } }).error;
    expect([error.code, error.details.type]).toEqual(['PATH_NOT_FOUND', undefined]);
  });

  it('trace of a file whose name ends in "}" (git would read REV^{commit}:NAME} as a peel of REV)', async () => {
    const names = ['@{u}', 'tpl/{{name}}', 'x}'];
    s = await recordRun([Object.fromEntries(names.map((n) => [n, lines('agent line', 2)]))]);
    squash(s.dir, 'agent-run-a');
    for (const name of names) {
      const res = cli(['trace', '--json', '--', name]);
      expect(res.status, `${name}: ${res.stderr}${res.stdout}`).toBe(0);
      expect(Trace.parse(res.json()).ranges.map((r) => [r.start, r.end, r.origin?.iteration])).toEqual([
        [1, 2, 1],
      ]);
    }
    // A directory so named is one all the same.
    const dir = cli(['trace', '--json', '--', 'tpl/{{name}}/..']);
    expect((dir.json() as { error: { details: { type?: string } } }).error.details.type).toBe('tree');
    writeFiles((s as RunSetup).dir, { '{{slug}}/a.txt': 'x\n', 'p}': 'a person line\n' });
    commitAll((s as RunSetup).dir, 'a directory whose name ends in }');
    const res = cli(['trace', '--json', '--', '{{slug}}']);
    const error = (res.json() as { error: { code: string; details: { type?: string } } }).error;
    expect([res.status, error.code, error.details.type]).toEqual([1, 'PATH_NOT_FOUND', 'tree']);
    // report --anchor lists such a file's lines no run wrote (it traces them).
    const report = cli(['report', '--anchor', 'HEAD', '--format', 'json']);
    expect(report.status, report.stderr).toBe(0);
    const files = (report.json() as { files: Array<{ path: string; notFromRuns: unknown }> }).files;
    expect(files.find((f) => f.path === 'p}')?.notFromRuns).toEqual([{ start: 1, end: 1 }]);
  });

  it('trace --rev of a revision git cannot resolve (no upstream, a reflog too short) is REVISION_NOT_FOUND, as for anchor', async () => {
    s = await recordRun([{ 'a.txt': lines('a', 3) }]);
    squash(s.dir, 'agent-run-a');
    for (const rev of ['@{u}', 'main@{push}', 'nosuch@{u}', 'HEAD@{999}']) {
      const codes = [
        ['trace', 'a.txt', '--rev', rev],
        ['anchor', rev],
      ].map((args) => {
        const res = cli([...args, '--json']);
        return [res.status, (res.json() as { error: { code: string } }).error.code];
      });
      expect(codes, rev).toEqual([
        [1, 'REVISION_NOT_FOUND'],
        [1, 'REVISION_NOT_FOUND'],
      ]);
    }
  });
});

describe('a commit whose parent this clone does not have', () => {
  it('anchor, verify --anchor, report --anchor and attest --commit are OBJECT_MISSING, never an empty anchor', async () => {
    s = await recordRun([{ 'a.txt': lines('a', 3) }]);
    const c = squash(s.dir, 'agent-run-a');
    expect(cli(['anchor', c]).status).toBe(0);
    const home = s.snap.options.home;
    const recorded = readFileSync(join(home, 'anchors', `${c}.json`), 'utf8');
    const shallow = join(home, 'shallow');
    git(s.dir, ['clone', '-q', '--depth', '1', `file://${s.dir}`, shallow]);
    const inShallow = (args: string[]) => runCli(['-C', shallow, '--home', home, '--json', ...args]);
    for (const args of [
      ['anchor', 'HEAD'],
      ['verify', '--anchor', 'HEAD'],
      ['report', '--anchor', 'HEAD', '--format', 'json'],
      ['attest', '--commit', 'HEAD', '-o', join(home, 'x.json')],
    ]) {
      const res = inShallow(args);
      const error = (res.json() as { error: { code: string; details: { parent: string } } }).error;
      expect([res.status, error.code, error.details.parent], args.join(' ')).toEqual([
        1,
        'OBJECT_MISSING',
        git(s.dir, ['rev-parse', 'HEAD~1']),
      ]);
    }
    expect(readFileSync(join(home, 'anchors', `${c}.json`), 'utf8')).toBe(recorded);
    // The next step the error names: one more commit of history, and the commit can be anchored.
    git(shallow, ['fetch', '-q', '--deepen=1']);
    const anchor = inShallow(['anchor', 'HEAD']);
    expect(anchor.status, anchor.stdout).toBe(0);
    expect(Anchor.parse(anchor.json()).files.map((f) => f.path)).toEqual(['a.txt']);
  });
  it('trace of a line a run wrote, blamed on a shallow boundary, is OBJECT_MISSING, never origin null', async () => {
    s = await recordRun(
      [{ 'base.txt': `${lines('b', 3)}agent b\n`, 'a.txt': lines('a', 1) }, { 'a.txt': lines('a', 2) }],
      { base: { 'base.txt': lines('b', 3) } },
    );
    git(s.dir, ['merge', '--ff-only', '-q', 'agent-run-a']);
    const home = s.snap.options.home;
    const full = Trace.parse(cli(['trace', 'base.txt', '--json']).json());
    expect(full.ranges.at(-1)?.origin?.iteration).toBe(1);
    const [one, two] = s.snapshots;
    // Depth 2: the boundary is iteration 1's after commit (its before commit is cut off); depth 1:
    // iteration 2's, so no iteration of the run is whole in the clone.
    const cases: Array<[number, string, string | undefined]> = [
      [2, 'base.txt', one?.beforeSha],
      [2, 'a.txt', one?.beforeSha],
      [1, 'a.txt', two?.beforeSha],
    ];
    for (const [depth, path, parent] of cases) {
      const clone = join(home, `depth-${depth}`);
      if (!existsSync(clone)) git(s.dir, ['clone', '-q', '--depth', `${depth}`, `file://${s.dir}`, clone]);
      const res = runCli(['-C', clone, '--home', home, '--json', 'trace', path]);
      const error = (res.json() as { error: { code: string; details: { parent: string } } }).error;
      expect([res.status, error.code, error.details.parent], `${depth} ${path}`).toEqual([
        1,
        'OBJECT_MISSING',
        parent,
      ]);
    }
  });
});

describe('a snapshot file or run record that does not load', () => {
  it('trace: a run that links a gone snapshot file (the one naming the file) is STORE_CORRUPT, never origin null', async () => {
    s = await recordRun([{ 'a.txt': lines('a', 3) }]);
    await recordRun([{ 'b.txt': lines('b', 2) }], { setup: s, runId: 'run-b' });
    git(s.dir, ['merge', '-q', '--ff-only', 'agent-run-b']);
    const traced = Trace.parse(cli(['trace', 'b.txt', '--json']).json());
    expect(traced.ranges.map((r) => r.origin?.runId)).toEqual(['run-b']);
    rmSync(join(s.snap.options.home, 'snapshots', `${s.snapshots[1]?.id}.json`));
    const res = cli(['trace', 'b.txt', '--json']);
    expect([res.status, (res.json() as { error: { code: string } }).error.code]).toEqual([
      1,
      'STORE_CORRUPT',
    ]);
  });

  it('stops anchor, verify --anchor, trace, report --anchor and attest --commit alike: STORE_CORRUPT, nothing recorded', async () => {
    s = await recordRun([{ 'a.txt': lines('a', 3) }, { 'a.txt': lines('a', 4) }]);
    const c = squash(s.dir, 'agent-run-a');
    expect(cli(['anchor', c]).status).toBe(0);
    const home = s.snap.options.home;
    const anchorFile = join(home, 'anchors', `${c}.json`);
    const recorded = readFileSync(anchorFile, 'utf8');
    const snapFile = join(home, 'snapshots', `${s.snapshots[0]?.id}.json`);
    const runFile = join(home, 'runs', 'run-a.json');
    const [snapText, runText] = [readFileSync(snapFile, 'utf8'), readFileSync(runFile, 'utf8')];
    const damages: Array<[string, () => void]> = [
      ['a truncated snapshot', () => writeFileSync(snapFile, '{"id":')],
      ['a truncated run record', () => writeFileSync(runFile, '{')],
      ['a link to a snapshot that is gone', () => rmSync(snapFile)],
    ];
    for (const [what, damage] of damages) {
      damage();
      for (const args of [
        ['anchor', c],
        ['verify', '--anchor', c],
        ['trace', 'a.txt'],
        ['report', '--anchor', c, '--format', 'json'],
        ['attest', '--commit', c, '-o', join(home, 'x.json')],
      ]) {
        const res = cli([...args, '--json']);
        const code = (res.json() as { error?: { code: string } }).error?.code;
        expect([res.status, code], `${what}: ${args[0]}`).toEqual([1, 'STORE_CORRUPT']);
      }
      expect(readFileSync(anchorFile, 'utf8')).toBe(recorded);
      writeFileSync(snapFile, snapText);
      writeFileSync(runFile, runText);
    }
    expect(cli(['verify', '--anchor', c]).status).toBe(0);
  });
});

describe('recorded anchor files that do not load', () => {
  it('verify --all fails on them, naming each (push, which refuses them, sends people there)', async () => {
    s = await recordRun([{ 'a.txt': lines('a', 3) }]);
    const c = squash(s.dir, 'agent-run-a');
    expect(cli(['anchor', 'HEAD']).status).toBe(0);
    expect(cli(['verify', '--all', '--json']).status).toBe(0);
    const home = s.snap.options.home;
    const base = git(s.dir, ['rev-parse', 'HEAD~1']);
    const other = JSON.parse(readFileSync(join(home, 'anchors', `${c}.json`), 'utf8')) as object;
    writeFiles(home, {
      [`anchors/${c}.json`]: '{"commit":',
      // The anchor of one commit filed under another's name would travel under the wrong ref.
      [`anchors/${base}.json`]: JSON.stringify(other),
    });
    const res = cli(['verify', '--all', '--json']);
    expect(res.status, res.stderr).toBe(3);
    const failed = (res.json() as { checks: Array<{ check: string; ok: boolean; detail: string }> }).checks
      .filter((k) => !k.ok)
      .map((k) => [k.check, [c, base].some((id) => k.detail.includes(`${id}.json`))]);
    expect(failed).toEqual([
      ['store-file', true],
      ['store-file', true],
    ]);
    const remote = join(home, 'remote.git');
    git(s.dir, ['init', '-q', '--bare', remote]);
    git(s.dir, ['remote', 'add', 'origin', remote]);
    const push = cli(['push', '--json']);
    expect((push.json() as { error: { code: string } }).error.code).toBe('STORE_CORRUPT');
  });
});

describe('file names that are not UTF-8', () => {
  it('are linked like any other (tree), traced by bytes or as JSON writes them, and their lines listed in report --anchor', async () => {
    s = await recordRun([]);
    git(s.dir, ['checkout', '-q', '-b', 'agent']);
    const agent = 'printf "x\\n" > "$(printf "caf\\351.txt")"; printf "ok\\n" > ok.txt';
    const run = cli(['iterate', '--run', 'r', '--iteration', '1', '--', 'sh', '-c', agent]);
    expect(run.status, run.stderr).toBe(0);
    git(s.dir, ['checkout', '-q', 'main']);
    squash(s.dir, 'agent');
    const anchor = Anchor.parse(cli(['anchor', 'HEAD', '--json']).json());
    expect(anchor.files.map((f) => [f.path.isWellFormed(), f.method])).toEqual([
      [false, 'tree'],
      [true, 'tree'],
    ]);
    // Named as JSON prints it (\udcNN), or by its bytes, which a command line brings as U+FFFD.
    for (const given of ['caf\\udce9.txt', 'caf\ufffd.txt']) {
      const t = cli(['trace', given, '--json']);
      expect(t.status, t.stdout).toBe(0);
      expect(Trace.parse(t.json()).path).toBe('caf\udce9.txt');
      expect(Trace.parse(t.json()).ranges.map((r) => r.origin?.runId)).toEqual(['r']);
    }
    // A person's commit of another such file, with quotes and a backslash: no run wrote its lines.
    writeFileSync(Buffer.from(`${s.dir}/na\xefve "q\\".txt`, 'latin1'), 'by hand\n');
    commitAll(s.dir, 'by hand');
    const report = cli(['report', '--anchor', 'HEAD', '--format', 'json']);
    expect(report.status, report.stderr).toBe(0);
    const files = (report.json() as { files: Array<{ path: string; notFromRuns: unknown }> }).files;
    expect(files.map((f) => [f.path, f.notFromRuns])).toEqual([
      ['na\udcefve "q\\".txt', [{ start: 1, end: 1 }]],
    ]);
    // Two names that a command line brings alike: which one is meant must be said.
    writeFileSync(Buffer.from(`${s.dir}/na\xf0ve "q\\".txt`, 'latin1'), 'by hand too\n');
    commitAll(s.dir, 'twin');
    const twin = cli(['trace', 'na\ufffdve "q\\".txt', '--json']);
    const error = (twin.json() as { error: { code: string; details: { candidates: string[] } } }).error;
    expect([error.code, error.details.candidates]).toEqual([
      'PATH_NOT_FOUND',
      ['na\udcefve "q\\".txt', 'na\udcf0ve "q\\".txt'],
    ]);
  });
});
