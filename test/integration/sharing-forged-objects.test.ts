/** Records from a remote whose SHAs name objects of the wrong kind (a black-box hunt, travel13). */
import { closeSync, ftruncateSync, openSync, rmSync, writeSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import type { ReceiveResult } from '../../types/sharing.js';
import { Sharing } from '../../src/sharing/sharing.js';
import { recordVerdict } from '../helpers/gates.js';
import { commitAll, git, gitRaw, initRepo, writeFiles } from '../helpers/repo.js';
import {
  failsWith,
  forge,
  machineCli,
  machineOk,
  recordOf,
  runIterations,
  world,
  type Machine,
  type World,
} from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

describe('a forged record whose before SHA is no commit', () => {
  it('is refused by fetch and import, so verify --all and report still run', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'good', 1);
    await a.share.push({ workspace: a.dir });
    const ref = 'refs/agentgate/records/good/iteration-0';
    const record = recordOf(w.origin, ref);
    const s = record.snapshot as { beforeSha: string; afterSha: string; commitMessage: string };
    // The before commit's tree stands where the before commit goes (`^{tree}` peels it too).
    const tree = git(w.origin, ['rev-parse', `${s.beforeSha}^{tree}`]);
    for (const [runId, beforeSha] of [['bytree', tree]] as const)
      forge(
        w.origin,
        `refs/agentgate/records/${runId}/iteration-0`,
        s.afterSha,
        json({
          ...record,
          snapshot: { ...record.snapshot, runId, id: `snap-${runId}`, beforeSha },
          patch: { ...(record.patch as object), file: `${runId}/iteration-0/patch.diff` },
          run: { ...(record.run as object), before: null },
        }),
      );
    const b = w.machine('b');
    const got = await b.share.fetch({ workspace: b.dir });
    expect(got.runs).toEqual(['good']);
    expect(got.refused.map((r) => r.ref)).toEqual(['refs/agentgate/records/bytree/iteration-0']);
    const verify = machineCli(b, ['verify', '--all', '--json']);
    expect(verify.status, verify.stdout).toBe(0);
    const report = machineCli(b, ['report', '--run', 'good', '--format', 'json', '--json']);
    expect(report.status, report.stdout).toBe(0);

    const c = w.machine('c');
    const bundle = `${w.root}/all.bundle`;
    git(w.origin, ['bundle', 'create', bundle, '--all']);
    const imported = await c.share.import(c.dir, bundle);
    expect(imported.runs).toEqual(['good']);
    expect(imported.refused.map((r) => r.ref)).toEqual(['refs/agentgate/records/bytree/iteration-0']);
  });
});

describe('a ref of this repository in the way of a received one', () => {
  // `refs/agentgate/runs/one` keeps git from making `refs/agentgate/runs/one/iteration-0`; a plain
  // `git fetch origin 'refs/agentgate/*:refs/agentgate/*'` of a hostile remote brings such names.
  for (const blocker of ['refs/agentgate/runs/one', 'refs/agentgate/records/one', 'refs/agentgate/gates/one'])
    it(`${blocker} refuses that run's records alone, and the home stays consistent`, async () => {
      w = world();
      const a = w.machine('a');
      await runIterations(a, 'one', 1);
      await runIterations(a, 'two', 1);
      await recordVerdict(a, 'one', 0, 'lint');
      await recordVerdict(a, 'two', 0, 'lint');
      await a.share.push({ workspace: a.dir });
      const bundle = `${w.root}/all.bundle`;
      git(w.origin, ['bundle', 'create', bundle, '--all']);
      for (const [name, receive] of [
        ['b', (m: Machine) => m.share.fetch({ workspace: m.dir })],
        ['c', (m: Machine) => m.share.import(m.dir, bundle)],
      ] as const) {
        const m = w.machine(name);
        git(m.dir, ['update-ref', blocker, 'HEAD']);
        const got = await receive(m);
        expect(got.runs).toContain('two');
        expect(got.refused.length).toBeGreaterThan(0);
        expect(got.refused.every((r) => r.ref.includes('/one/'))).toBe(true);
        const verify = machineCli(m, ['verify', '--all', '--json']);
        expect(verify.status, verify.stdout).toBe(0);
        // Once the name is out of the way, the next call takes the rest.
        git(m.dir, ['update-ref', '-d', blocker]);
        const again = await receive(m);
        expect(again.refused).toEqual([]);
        expect(machineCli(m, ['verify', '--all', '--json']).status).toBe(0);
        expect(git(m.dir, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/gates/one/'])).not.toBe('');
      }
    });
});

describe('a file that is no bundle, whatever its size', () => {
  // git reads a bundle's header one byte at a time: a GiB without a line break kept `git bundle
  // verify` busy until the git timeout (GIT_TIMEOUT, "raise gitTimeoutMs").
  for (const [name, start] of [
    ['zeros', ''],
    ['a signature, then one endless line', '# v2 git bundle\n'],
    ['a signature, then a line git never writes', '# v2 git bundle\nnot a ref line\n\nPACK'],
  ] as const)
    it(`${name} is BUNDLE_INVALID`, async () => {
      w = world();
      const a = w.machine('a');
      const file = `${w.root}/big.bundle`;
      const fd = openSync(file, 'w');
      writeSync(fd, start);
      ftruncateSync(fd, 1024 ** 3);
      closeSync(fd);
      const share = new Sharing({
        home: a.home,
        artifactsDir: a.artifacts,
        identity: DEFAULT_IDENTITY,
        gitTimeoutMs: 5_000,
        lockTimeoutMs: 10_000,
      });
      await failsWith(share.import(a.dir, file), 'BUNDLE_INVALID');
    });
});

describe('a fetch from a shallow clone', () => {
  it('refuses, naming them, the records git rejects for their cut-off history (git exits 0)', async () => {
    w = world();
    const s = w.machine('s');
    writeFiles(s.dir, { 'second.txt': 'two\n' });
    commitAll(s.dir, 'second');
    // A CI checkout: only the last commit, its parent cut off.
    git(s.dir, ['fetch', '-q', '--depth', '1', 'origin']);
    git(s.dir, ['fetch', '-q', '--depth', '1', '.', 'HEAD']);
    git(s.dir, ['reflog', 'expire', '--expire=now', '--all']);
    git(s.dir, ['gc', '-q', '--prune=now']);
    expect(git(s.dir, ['rev-parse', '--is-shallow-repository'])).toBe('true');
    await runIterations(s, 'cut', 1);
    await recordVerdict(s, 'cut', 0, 'lint');
    // Its record and verdict refs are made when they are first published.
    await s.share.export({ workspace: s.dir }, `${w.root}/cut.bundle`);
    const empty = initRepo();
    try {
      const share = new Sharing({
        home: `${w.root}/empty-home`,
        artifactsDir: `${w.root}/empty-home/artifacts`,
        identity: DEFAULT_IDENTITY,
        gitTimeoutMs: 60_000,
        lockTimeoutMs: 10_000,
      });
      const got = await share.fetch({ workspace: empty }, s.dir);
      expect(got.runs).toEqual([]);
      expect(got.refused.map((r) => r.ref).sort()).toEqual([
        expect.stringMatching(/^refs\/agentgate\/gates\/cut\//),
        'refs/agentgate/records/cut/iteration-0',
      ]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('a ref named like one of our namespaces', () => {
  // A plain `git fetch origin 'refs/agentgate/*:refs/agentgate/*'` of a hostile remote can bring a
  // ref named `refs/agentgate/runs` (or records, gates, anchors, incoming): git then cannot make any
  // ref below it. fetch and import failed with GIT_FAILED (after the home had stored the records).
  it('refuses what it is in the way of, or is swept when it is our scratch name; the rest lands', () => {
    w = world();
    const a = w.machine('a');
    machineOk(a, ['before', '--run', 'one']);
    writeFiles(a.dir, { 'src/app.txt': 'changed\n' });
    const { afterSha } = machineOk(a, ['after', '--run', 'one', '--iteration', '0']) as { afterSha: string };
    machineOk(a, ['gate', 'record', '--run', 'one', '--name', 'lint', '--exit-code', '0']);
    machineOk(a, ['anchor', afterSha]);
    machineOk(a, ['push']);
    const bundle = `${w.root}/all.bundle`;
    git(w.origin, ['bundle', 'create', '-q', bundle, '--all']);
    const cases: Array<[string, (got: ReceiveResult) => void]> = [
      ['refs/agentgate/incoming', (got) => expect(got.refused).toEqual([])],
      ['refs/agentgate/incoming/anchors', (got) => expect(got.refused).toEqual([])],
      ['refs/agentgate/runs', (got) => expect(got.runs).toEqual([])],
      ['refs/agentgate/records', (got) => expect(got.runs).toEqual([])],
      ['refs/agentgate/gates', (got) => expect([got.runs, got.gates]).toEqual([['one'], 0])],
      ['refs/agentgate/anchors', (got) => expect([got.runs, got.anchors]).toEqual([['one'], []])],
    ];
    for (const [blocker, expected] of cases)
      for (const receive of [['fetch'], ['import', bundle]]) {
        const m = w.machine(`m${cases.findIndex(([b]) => b === blocker)}-${receive[0]}`);
        git(m.dir, ['update-ref', blocker, 'HEAD']);
        const res = machineCli(m, [...receive, '--json']);
        expect(res.status, `${blocker} ${receive[0]}: ${res.stdout}`).toBe(0);
        const got = res.json() as ReceiveResult;
        expected(got);
        // What it is in the way of says so (a verdict or anchor of a refused record follows it).
        if (got.refused.length > 0) expect(got.refused.map((r) => r.reason).join('\n')).toContain(blocker);
        // The home holds exactly what was taken in.
        if (got.runs.length > 0) expect(machineCli(m, ['verify', '--all', '--json']).status).toBe(0);
        else expect(machineOk(m, ['runs'])).toEqual([]);
        // Once the name is out of the way, the next call takes everything.
        git(m.dir, ['update-ref', '-d', blocker]);
        const again = machineOk(m, [...receive]) as ReceiveResult;
        expect(again.refused).toEqual([]);
        expect(git(m.dir, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/'])).toContain(
          'refs/agentgate/anchors/',
        );
      }
  });
});

describe('a remote that lacks the objects of one record', () => {
  // A damaged remote (a lost object, a failed gc) or one that names more than it can send: git's
  // pack fails for the whole fetch, and every fetch from it failed with GIT_FAILED, the healthy
  // runs included.
  it('refuses that record alone, naming it; the other runs land', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'good', 2);
    await runIterations(a, 'bad', 1);
    await recordVerdict(a, 'good', 1, 'lint');
    await a.share.push({ workspace: a.dir });
    const ref = 'refs/agentgate/records/bad/iteration-0';
    const blob = git(w.origin, ['rev-parse', `${ref}:record.json`]);
    // Small pushes are kept as loose objects: remove the one blob.
    rmSync(`${w.origin}/objects/${blob.slice(0, 2)}/${blob.slice(2)}`);
    const b = w.machine('b');
    const got = await b.share.fetch({ workspace: b.dir });
    expect(got.runs).toEqual(['good']);
    expect([got.snapshots, got.gates]).toEqual([2, 1]);
    expect(got.refused.map((r) => r.ref)).toEqual([ref]);
    expect(machineCli(b, ['verify', '--all', '--json']).status).toBe(0);
    // Once the remote is mended, the next fetch takes it.
    gitRaw(w.origin, ['hash-object', '-w', '--stdin'], gitRaw(a.dir, ['cat-file', 'blob', blob]));
    const again = await b.share.fetch({ workspace: b.dir });
    expect([again.snapshots, again.refused]).toEqual([1, []]);
  });
});
