/**
 * Gate verdicts travel with the run's records: one ref per verdict, log text only with
 * `includeGateLogs` (digest always), zod-checked on receipt, never replacing a stored verdict, and a
 * verdict tampered with on the remote, in a bundle or in the local home is refused.
 */
import { cpSync, mkdirSync, rmSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Sharing } from '../../src/sharing/sharing.js';
import { receivedGateLogPath } from '../../src/store/paths.js';
import { GateStore } from '../../src/store/gate-store.js';
import { portable, recordVerdict, verdictsOf } from '../helpers/gates.js';
import { git, gitRaw } from '../helpers/repo.js';
import { runCli } from '../helpers/cli.js';
import {
  failsWith,
  machineCli,
  machineOk,
  runIterations,
  world,
  type Machine,
  type World,
} from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

function withLogs(m: Machine): Machine {
  return { ...m, share: new Sharing({ ...m.share.options, includeGateLogs: true }) };
}

/** Rewrites a verdict commit on a remote with `edit` applied to its gate.json (a tamper in transit). */
function tamper(repo: string, ref: string, edit: (gate: Record<string, unknown>) => void): void {
  const record = JSON.parse(git(repo, ['show', `${ref}:gate.json`])) as { gate: Record<string, unknown> };
  edit(record.gate);
  const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: JSON.stringify(record) });
  const entries = git(repo, ['ls-tree', ref])
    .split('\n')
    .map((line) => (line.endsWith('\tgate.json') ? `100644 blob ${blob}\tgate.json` : line));
  const tree = git(repo, ['mktree'], { input: `${entries.join('\n')}\n` });
  const parent = git(repo, ['rev-parse', `${ref}^`]);
  git(repo, ['update-ref', ref, git(repo, ['commit-tree', tree, '-p', parent, '-m', 'edited'])]);
}

/** Rewrites a commit on a remote with one more file in its tree (data riding along, kept alive by our ref). */
function rideAlong(repo: string, ref: string, name: string, content: string): void {
  const blob = git(repo, ['hash-object', '-w', '--stdin'], { input: content });
  const entries = [...git(repo, ['ls-tree', ref]).split('\n'), `100644 blob ${blob}\t${name}`];
  const tree = git(repo, ['mktree'], { input: `${entries.join('\n')}\n` });
  const body = git(repo, ['cat-file', 'commit', ref]).replace(/^tree \S+/, `tree ${tree}`);
  git(repo, [
    'update-ref',
    ref,
    git(repo, ['hash-object', '-t', 'commit', '-w', '--stdin'], { input: `${body}\n` }),
  ]);
}

describe('verdicts travel with push and fetch', () => {
  it('a record or verdict whose tree carries another file is refused at fetch and import; the rest lands', async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'run-1', 2);
    const kept = await recordVerdict(a, 'run-1', 1, 'test');
    const carrier = await recordVerdict(a, 'run-1', 1, 'lint');
    await a.share.push({ workspace: a.dir });
    const record = 'refs/agentgate/records/run-1/iteration-0';
    const verdict = `refs/agentgate/gates/run-1/${carrier.id}`;
    rideAlong(w.origin, record, 'payload.bin', 'anything at all\n');
    rideAlong(w.origin, verdict, 'payload.bin', 'anything at all\n');
    const fetched = await b.share.fetch({ workspace: b.dir });
    expect(fetched).toMatchObject({ snapshots: 1, gates: 1 });
    expect(fetched.refused.map((r) => r.ref).sort()).toEqual([verdict, record].sort());
    expect((await verdictsOf(b.home, 'run-1')).map((g) => g.id)).toEqual([kept.id]);
    expect(git(b.dir, ['for-each-ref', '--format=%(refname)', record, verdict])).toBe('');
    // The same commits in a bundle.
    const c = w.machine('c');
    const bundle = join(w.root, 'ride.bundle');
    git(w.origin, ['bundle', 'create', '-q', bundle, '--all']);
    const imported = await c.share.import(c.dir, bundle);
    expect(imported.refused.map((r) => r.ref).sort()).toEqual([verdict, record].sort());
  });

  it('every verdict arrives with its digest; the log text only with includeGateLogs', async () => {
    w = world();
    const a = withLogs(w.machine('a'));
    const b = w.machine('b');
    await runIterations(a, 'run-1', 2);
    const red = await recordVerdict(a, 'run-1', 0, 'test', { verdict: 'fail', log: 'FAIL: it broke\n' });
    const green = await recordVerdict(a, 'run-1', 1, 'test', { log: 'ok 12 tests\n' });
    const lint = await recordVerdict(a, 'run-1', 1, 'lint');
    const pushed = await a.share.push({ workspace: a.dir });
    expect(pushed.updated).toEqual(expect.arrayContaining([`refs/agentgate/gates/run-1/${red.id}`]));
    expect(
      git(w.origin, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/gates/']).split('\n'),
    ).toEqual([red, green, lint].map((g) => `refs/agentgate/gates/run-1/${g.id}`).sort());

    const fetched = await b.share.fetch({ workspace: b.dir });
    expect(fetched).toMatchObject({ snapshots: 2, gates: 3, refused: [], runs: ['run-1'] });
    const theirs = await verdictsOf(b.home, 'run-1');
    expect(theirs.map(portable)).toEqual((await verdictsOf(a.home, 'run-1')).map(portable));
    const got = theirs.find((g) => g.id === green.id)!;
    expect(got.log?.path).toBe(receivedGateLogPath(b.artifacts, green));
    expect(readFileSync(got.log!.path!, 'utf8')).toBe('ok 12 tests\n');

    // Fetching again changes nothing.
    expect(await b.share.fetch({ workspace: b.dir })).toMatchObject({ gates: 0, refused: [] });
    // B publishes nothing new of its own; its push of the fetched verdicts is up to date.
    expect((await b.share.push({ workspace: b.dir })).updated).toEqual([]);
  });

  it('the log text one fetch writes is bounded: past it a verdict lands without its text', async () => {
    // One compressible blob can stand in any number of logs: a small remote must not fill the disk.
    w = world();
    const a = withLogs(w.machine('a'));
    const b = w.machine('b');
    await runIterations(a, 'run-1', 1);
    const text = 'x'.repeat(3000);
    const first = await recordVerdict(a, 'run-1', 0, 'test', {
      log: text,
      startedAt: '2026-01-01T00:00:00.000Z',
    });
    const second = await recordVerdict(a, 'run-1', 0, 'lint', {
      log: text,
      startedAt: '2026-01-01T00:00:01.000Z',
    });
    await a.share.push({ workspace: a.dir });
    const share = new Sharing({ ...b.share.options, maxGateLogBytes: 4000 });
    expect(await share.fetch({ workspace: b.dir })).toMatchObject({ gates: 2, refused: [] });
    const paths = (await verdictsOf(b.home, 'run-1')).map((g) => g.log?.path ?? null);
    expect(paths.filter((p) => p !== null)).toHaveLength(1);
    const written = paths.find((p) => p !== null)!;
    expect(readFileSync(written, 'utf8')).toBe(text);
    expect(readdirSync(join(b.artifacts, 'run-1', 'iteration-0'))).toEqual([written.split('/').at(-1)]);
    // The text left out is still in git, under the verdict's ref.
    for (const g of [first, second])
      expect(git(b.dir, ['show', `refs/agentgate/gates/run-1/${g.id}:gate.log`])).toBe(text);
  });

  it('a verdict whose check changed the workspace travels as the error it is', async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'run-1', 1);
    const g = await recordVerdict(a, 'run-1', 0, 'lint');
    const changed = {
      ...g,
      verdict: 'error',
      reason: 'GATE_TREE_MISMATCH: after the check ...',
      workspaceChanged: true,
    };
    writeFileSync(new GateStore(a.home).path('run-1', g.id), JSON.stringify(changed));
    await a.share.push({ workspace: a.dir });
    expect(await b.share.fetch({ workspace: b.dir })).toMatchObject({ gates: 1, refused: [] });
    expect(await new GateStore(b.home).load('run-1', g.id)).toMatchObject({
      verdict: 'error',
      workspaceChanged: true,
    });
  });

  it('without includeGateLogs the log stays home and only its digest travels', async () => {
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'run-1', 1);
    const g = await recordVerdict(a, 'run-1', 0, 'test', { log: 'secret-ish log\n' });
    await a.share.push({ workspace: a.dir });
    expect(git(w.origin, ['ls-tree', '--name-only', `refs/agentgate/gates/run-1/${g.id}`])).toBe('gate.json');
    await b.share.fetch({ workspace: b.dir });
    const [got] = await verdictsOf(b.home, 'run-1');
    expect(got?.log).toEqual({ path: null, sha256: g.log!.sha256, bytes: g.log!.bytes });
  });

  it("a log travels byte for byte whatever the workspace's attributes say (text=auto, ident)", async () => {
    w = world();
    const a = withLogs(w.machine('a'));
    const b = w.machine('b');
    await runIterations(a, 'run-1', 1);
    const text = 'ok 1\r\nok 2 $Id: kept $\r\n';
    const g = await recordVerdict(a, 'run-1', 0, 'test', { log: text });
    writeFileSync(join(a.dir, '.gitattributes'), '* text=auto ident\n');
    await a.share.push({ workspace: a.dir });
    expect(
      gitRaw(w.origin, ['cat-file', 'blob', `refs/agentgate/gates/run-1/${g.id}:gate.log`]).toString(),
    ).toBe(text);
    expect(await b.share.fetch({ workspace: b.dir })).toMatchObject({ gates: 1, refused: [] });
    const [got] = await verdictsOf(b.home, 'run-1');
    expect(readFileSync(got!.log!.path!, 'utf8')).toBe(text);
  });

  it('export and import carry the verdicts too', async () => {
    w = world();
    const a = withLogs(w.machine('a'));
    const b = w.machine('b');
    await runIterations(a, 'run-1', 1);
    const g = await recordVerdict(a, 'run-1', 0, 'test', { log: 'log\n' });
    const file = join(w.root, 'run.bundle');
    expect(await a.share.export({ workspace: a.dir }, file)).toMatchObject({ refs: 2 });
    git(b.dir, ['fetch', '-q', 'origin']);
    expect(await b.share.import(b.dir, file)).toMatchObject({ snapshots: 1, gates: 1, refused: [] });
    expect((await verdictsOf(b.home, 'run-1')).map(portable)).toEqual([portable(g)]);
  });

  it('a bundle of many verdict refs naming both a/b and a/b/c: those are refused, the rest lands', async () => {
    // Past 2,000 new refs one wildcard fetches them all: two targets git cannot both create failed it.
    w = world();
    const a = w.machine('a');
    const b = w.machine('b');
    await runIterations(a, 'run-1', 1);
    const g = await recordVerdict(a, 'run-1', 0, 'test');
    const file = join(w.root, 'run.bundle');
    await a.share.export({ workspace: a.dir }, file);
    const verdict = git(a.dir, ['rev-parse', `refs/agentgate/gates/run-1/${g.id}`]);
    const lines = Array.from(
      { length: 2001 },
      (_, i) => `create refs/agentgate/gates/run-1/g${i} ${verdict}`,
    );
    git(a.dir, ['update-ref', '--stdin'], {
      input: `${lines.join('\n')}\ncreate refs/agentgate/gates/run-1/zz/deeper ${verdict}\n`,
    });
    const forged = join(w.root, 'forged.bundle');
    git(a.dir, ['bundle', 'create', '-q', forged, '--all']);
    // A bundle's header lists its refs as text: one named like the other's directory.
    const bytes = readFileSync(forged);
    const end = bytes.indexOf('\n\n');
    const header = bytes
      .subarray(0, end)
      .toString('utf8')
      .replace(' refs/agentgate/gates/run-1/g0\n', ' refs/agentgate/gates/run-1/zz\n');
    writeFileSync(forged, Buffer.concat([Buffer.from(header), bytes.subarray(end)]));
    git(b.dir, ['fetch', '-q', 'origin']);
    const got = await b.share.import(b.dir, forged);
    expect(got).toMatchObject({ snapshots: 1, gates: 1 });
    expect(got.refused.map((r) => r.ref)).toContain('refs/agentgate/gates/run-1/zz/deeper');
    expect((await verdictsOf(b.home, 'run-1')).map((v) => v.id)).toEqual([g.id]);
    expect(git(b.dir, ['for-each-ref', 'refs/agentgate/incoming/'])).toBe('');
  });
});

describe('a matrix whose logs travelled, in a home moved elsewhere', () => {
  it("verify finds each received verdict's own copy, never this machine's log of the same attempt; a deleted copy is said gone", async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 1);
    await a.share.push({ workspace: a.dir });
    // Two runners fetch, gate (each records attempt 1), then push.
    const runners = [w.machine('b1'), w.machine('b2')];
    for (const [i, m] of runners.entries()) {
      mkdirSync(m.home, { recursive: true });
      writeFileSync(join(m.home, 'config.yaml'), 'sharing:\n  includeGateLogs: true\n');
      machineOk(m, ['fetch']);
      expect(
        machineCli(m, [
          'gate',
          '--run',
          'run-1',
          '--name',
          't',
          '--isolated',
          '--',
          process.execPath,
          '-e',
          `console.log('runner ${i}')`,
        ]).status,
      ).toBe(0);
    }
    for (const m of runners) machineOk(m, ['push']);
    const b1 = runners[0]!;
    machineOk(b1, ['fetch']);
    const home = join(w.root, 'moved-home');
    cpSync(b1.home, home, { recursive: true });
    rmSync(b1.home, { recursive: true, force: true });
    const verify = () =>
      runCli([
        '-C',
        b1.dir,
        '--home',
        home,
        '--artifacts-dir',
        join(home, 'artifacts'),
        'verify',
        '--run',
        'run-1',
        '--json',
      ]);
    const logChecks = (res: ReturnType<typeof verify>) =>
      (res.json() as { checks: Array<{ check: string; ok: boolean; detail: string }> }).checks.filter(
        (c) => c.check === 'gate-log',
      );
    const moved = verify();
    expect(moved.status).toBe(0);
    expect(logChecks(moved).map((c) => c.ok)).toEqual([true, true]);
    const [received] = (await verdictsOf(home, 'run-1')).filter((g) => g.receivedAt !== undefined);
    const copy = receivedGateLogPath(join(home, 'artifacts'), received!);
    expect(readFileSync(copy, 'utf8')).toBe('runner 1\n');
    rmSync(copy);
    const gone = verify();
    expect(gone.status).toBe(0);
    const detail = logChecks(gone).find((c) => c.detail.includes(received!.id))?.detail;
    expect(detail).toContain(copy);
    expect(detail).not.toContain('gate-t-1.log');
  });
});

describe('a verdict received is untrusted', () => {
  async function published(): Promise<{ a: Machine; b: Machine; ref: string; id: string }> {
    w = world();
    const a = withLogs(w.machine('a'));
    const b = w.machine('b');
    await runIterations(a, 'run-1', 2);
    const g = await recordVerdict(a, 'run-1', 1, 'test', { log: 'ok\n' });
    await a.share.push({ workspace: a.dir });
    return { a, b, ref: `refs/agentgate/gates/run-1/${g.id}`, id: g.id };
  }

  const edits: Array<[string, (gate: Record<string, unknown>) => void, RegExp]> = [
    [
      'a treeId that is not the tree of its after commit',
      (g) => (g.treeId = 'f'.repeat(40)),
      /treeId .* is not the tree of its after commit/,
    ],
    ['a verdict moved to another iteration', (g) => (g.iteration = 0), /has after commit/],
    ['an unknown field', (g) => (g.extra = 1), /does not match the gate verdict schema/],
    ['an attempt number no verdict may hold (2^53-1)', (g) => (g.attempt = 2 ** 53 - 1), /attempt/],
    ['an attempt number no verdict may hold (1e11)', (g) => (g.attempt = 1e11), /attempt/],
    [
      'an implausible attempt number',
      (g) => (g.attempt = 1_000_001),
      /attempt number 1000001 is implausible/,
    ],
    ['an implausible replayed attempt', (g) => (g.replayOf = 5_000_000), /implausible/],
    ['a machine path in the log', (g) => ((g.log as Record<string, unknown>).path = '/etc/passwd'), /schema/],
    ['another id than its ref', (g) => (g.id = 'other-id'), /describes verdict other-id/],
    [
      'a log digest that is not the text',
      (g) => ((g.log as Record<string, unknown>).sha256 = '0'.repeat(64)),
      /sha256/,
    ],
  ];
  it.each(edits)('a remote whose verdict JSON was edited (%s) is refused at fetch', async (_l, edit, why) => {
    const { b, ref, id } = await published();
    tamper(w.origin, ref, edit);
    const fetched = await b.share.fetch({ workspace: b.dir });
    expect(fetched.gates).toBe(0);
    expect(fetched.refused).toEqual([{ ref, reason: expect.stringMatching(why) as string }]);
    expect(await new GateStore(b.home).load('run-1', id)).toBeNull();
    expect(git(b.dir, ['for-each-ref', 'refs/agentgate/gates/', 'refs/agentgate/incoming/'])).toBe('');
  });

  it('a stored verdict is never replaced by a different one published later under its id', async () => {
    const { b, ref, id } = await published();
    await b.share.fetch({ workspace: b.dir });
    const before = await new GateStore(b.home).load('run-1', id);
    tamper(w.origin, ref, (g) => (g.verdict = 'fail'));
    const fetched = await b.share.fetch({ workspace: b.dir });
    expect(fetched.refused).toEqual([{ ref, reason: expect.stringMatching(/kept the local one/) as string }]);
    expect(await new GateStore(b.home).load('run-1', id)).toEqual(before);
  });

  it.each([
    ['another tree', { treeId: 'e'.repeat(40) }],
    ['a fail made a pass', { verdict: 'pass' }],
  ])('a verdict tampered with in the local home (%s) is never published', async (_l, edit) => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'run-1', 1);
    const g = await recordVerdict(a, 'run-1', 0, 'test', { verdict: 'fail' });
    const file = new GateStore(a.home).path('run-1', g.id);
    writeFileSync(file, JSON.stringify({ ...g, ...edit }));
    await failsWith(a.share.push({ workspace: a.dir }), 'STORE_CORRUPT');
    await failsWith(a.share.export({ workspace: a.dir }, join(w.root, 'x.bundle')), 'STORE_CORRUPT');
    expect(git(w.origin, ['for-each-ref', 'refs/agentgate/gates/'])).toBe('');
  });

  it('a log is never written through a link inside the workspace', async () => {
    w = world();
    const a = withLogs(w.machine('a'));
    const b = w.machine('b');
    await runIterations(a, 'run-1', 2);
    await a.share.push({ workspace: a.dir });
    const arts = join(b.dir, 'arts');
    const share = new Sharing({ ...b.share.options, artifactsDir: arts });
    // The records land first (a link there would refuse the record itself, before its verdicts).
    expect((await share.fetch({ workspace: b.dir })).refused).toEqual([]);
    const g = await recordVerdict(a, 'run-1', 1, 'test', { log: 'ok\n' });
    await a.share.push({ workspace: a.dir });
    const elsewhere = join(w.root, 'elsewhere');
    mkdirSync(elsewhere);
    // (The fetch wrote no patch artifact there: those are built when asked for.)
    mkdirSync(join(arts, 'run-1'), { recursive: true });
    rmSync(join(arts, 'run-1', 'iteration-1'), { recursive: true, force: true });
    symlinkSync(elsewhere, join(arts, 'run-1', 'iteration-1'));
    const fetched = await share.fetch({ workspace: b.dir });
    expect(fetched.refused).toEqual([
      { ref: `refs/agentgate/gates/run-1/${g.id}`, reason: expect.stringMatching(/symbolic link/) as string },
    ]);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('a bundle whose verdict was edited is refused at import', async () => {
    const { a, b, ref } = await published();
    tamper(a.dir, ref, (g) => (g.treeId = 'a'.repeat(40)));
    const file = join(w.root, 'run.bundle');
    await a.share.export({ workspace: a.dir }, file);
    git(b.dir, ['fetch', '-q', 'origin']);
    const imported = await b.share.import(b.dir, file);
    expect(imported).toMatchObject({ snapshots: 2, gates: 0 });
    expect(imported.refused).toEqual([{ ref, reason: expect.stringMatching(/treeId/) as string }]);
  });
});
