/**
 * Records received from others, third round (issue 18): each case is a record or a remote that a
 * hostile or careless publisher can make, received on a second clone with real git.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, lstatSync, mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_IDENTITY } from '../../types/config.js';
import { Sharing, type SharingOptions } from '../../src/sharing/sharing.js';
import { Snapshotter } from '../../src/snapshotter/snapshotter.js';
import { runCli } from '../helpers/cli.js';
import { canMountTmpfs } from '../helpers/disk.js';
import { git, tempDir, writeFiles } from '../helpers/repo.js';
import {
  failsWith,
  forge,
  recordOf,
  runIterations,
  world,
  type Machine,
  type World,
} from '../helpers/sharing.js';

let w: World;
const mounts: string[] = [];
afterEach(() => {
  for (const dir of mounts.splice(0)) execFileSync('umount', [dir]);
  w?.cleanup();
});
const asRoot = process.getuid?.() === 0;

/** The machine's Sharing with other options (an artifacts directory, a patch bound). */
function sharingOf(m: Machine, extra: Partial<SharingOptions>): Sharing {
  return new Sharing({
    home: m.home,
    artifactsDir: m.artifacts,
    identity: DEFAULT_IDENTITY,
    gitTimeoutMs: 60_000,
    lockTimeoutMs: 10_000,
    ...extra,
  });
}

const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;

/** Every file under `dir`, relative, sorted (empty when it does not exist). */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((name) => !lstatSync(join(dir, name)).isDirectory())
    .sort();
}

function cli(m: Machine, args: string[]) {
  return runCli(['-C', m.dir, '--home', m.home, ...args, '--json'], { cwd: m.dir });
}

describe('records received from others', () => {
  it('item 1: a record that empties commitMessage and changes its task fails verify; an agent-made commit still verifies', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 't', 1);
    // An iteration where the agent made its own commit: the record's message is empty, rightly.
    const before = await a.snap.captureBeforeState(a.dir, { runId: 'own' });
    writeFiles(a.dir, { 'agent.txt': 'by the agent\n' });
    git(a.dir, ['add', '-A']);
    git(a.dir, ['commit', '-q', '-m', 'agent commit']);
    await a.snap.captureAfterState(a.dir, before, { runId: 'own', iteration: 0, taskPrompt: 'own task' });
    await a.share.push({ workspace: a.dir });
    const ref = 'refs/agentgate/records/t/iteration-0';
    const record = recordOf(w.origin, ref);
    record.snapshot.commitMessage = '';
    record.snapshot.task = 'a new task nobody asked for';
    forge(w.origin, ref, git(w.origin, ['rev-parse', `${ref}^`]), json(record));
    const b = w.machine('b');
    expect((await b.share.fetch({ workspace: b.dir })).snapshots).toBe(2);
    const edited = await b.snap.verify({ runId: 't' });
    expect(edited.ok).toBe(false);
    expect(edited.checks.filter((c) => !c.ok).map((c) => c.check)).toEqual(
      expect.arrayContaining(['commit-message', 'task']),
    );
    expect((await b.snap.verify({ runId: 'own' })).ok).toBe(true);
  });

  it('item 3: fetch and import never write a patch through a link planted in an artifacts directory inside the workspace', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'linked', 1);
    await runIterations(a, 'plain', 1);
    await a.share.push({ workspace: a.dir });
    const bundle = join(w.root, 'runs.bundle');
    await a.share.export({ workspace: a.dir }, bundle);
    const outside = join(w.root, 'outside');
    mkdirSync(outside);
    const b = w.machine('b');
    const artifacts = join(b.dir, '.agentgate-artifacts');
    mkdirSync(artifacts);
    symlinkSync(outside, join(artifacts, 'linked'));
    const share = sharingOf(b, { artifactsDir: artifacts });
    const got = await share.fetch({ workspace: b.dir });
    expect(got.runs).toEqual(['plain']);
    expect(got.refused.map((r) => r.ref)).toEqual(['refs/agentgate/records/linked/iteration-0']);
    expect(filesUnder(outside)).toEqual([]);
    // fetch writes no artifact; the first patch of the run builds it, where it belongs.
    expect(filesUnder(join(artifacts, 'plain'))).toEqual([]);
    const snap = new Snapshotter({ ...share.options, onDirty: 'wip-commit' });
    await snap.generatePatch((await snap.listByRun('plain'))[0]!);
    expect(filesUnder(join(artifacts, 'plain'))).toEqual(['.gitignore', 'iteration-0/patch.diff']);
    expect(filesUnder(outside)).toEqual([]);
    // The same for import, into another home, with the artifacts directory itself a link.
    const c = w.machine('c');
    const linkedDir = join(c.dir, 'arts');
    symlinkSync(outside, linkedDir);
    const imported = await sharingOf(c, { artifactsDir: linkedDir }).import(c.dir, bundle);
    expect(imported.snapshots).toBe(0);
    expect(imported.refused).toHaveLength(2);
    expect(filesUnder(outside)).toEqual([]);
    expect(filesUnder(join(c.home, 'runs'))).toEqual([]);
  });

  it('item 4: push and export publish only runs recorded here by default; --run names one, --all takes everything', async () => {
    w = world();
    const [a, b] = [w.machine('a'), w.machine('b')];
    await runIterations(a, 'from-a', 1);
    await a.share.push({ workspace: a.dir });
    await b.share.fetch({ workspace: b.dir });
    await runIterations(b, 'from-b', 1);
    const mirror = join(w.root, 'mirror.git');
    git(w.root, ['init', '-q', '--bare', mirror]);
    const records = () =>
      git(mirror, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/records/']).split('\n');
    expect(await b.share.push({ workspace: b.dir }, mirror)).toMatchObject({ runs: ['from-b'], refs: 1 });
    expect(records()).toEqual(['refs/agentgate/records/from-b/iteration-0']);
    const bundle = join(w.root, 'b.bundle');
    expect(await b.share.export({ workspace: b.dir }, bundle)).toMatchObject({ runs: ['from-b'], refs: 1 });
    expect(git(b.dir, ['bundle', 'list-heads', bundle])).not.toContain('from-a');
    expect(await b.share.push({ workspace: b.dir, runId: 'from-a' }, mirror)).toMatchObject({
      runs: ['from-a'],
    });
    expect(await b.share.export({ workspace: b.dir, all: true }, bundle)).toMatchObject({
      runs: ['from-a', 'from-b'],
    });
    // Through the CLI too.
    const other = join(w.root, 'other.git');
    git(w.root, ['init', '-q', '--bare', other]);
    expect(cli(b, ['push', '--remote', other]).json()).toMatchObject({ runs: ['from-b'] });
  });

  it('item 7: a fetched record never replaces the before state of a run that exists here', async () => {
    w = world();
    const [a, b] = [w.machine('a'), w.machine('b')];
    await runIterations(a, 'r', 1);
    await a.share.push({ workspace: a.dir });
    await b.share.fetch({ workspace: b.dir });
    // b takes the run's work (its HEAD must build on it) and is in the middle of an iteration of r;
    // a records a later one meanwhile and publishes it.
    git(b.dir, ['reset', '-q', '--hard', (await b.snap.listByRun('r'))[0]?.afterSha ?? '']);
    const mine = await b.snap.captureBeforeState(b.dir, { runId: 'r' });
    await runIterations(a, 'r', 1, 1);
    await a.share.push({ workspace: a.dir });
    expect((await b.share.fetch({ workspace: b.dir })).snapshots).toBe(1);
    expect((await b.snap.store.loadRun('r'))?.before).toEqual(mine);
  });

  it('item 8: a record whose patch would pass the bound is refused, and the other records land', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'fine', 2);
    // One compressible blob at many paths: a tiny pack, a large patch.
    const before = await a.snap.captureBeforeState(a.dir, { runId: 'bomb' });
    const blob = `${'the same line again\n'.repeat(5000)}`;
    writeFiles(a.dir, Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`bomb/${i}.txt`, blob])));
    await a.snap.captureAfterState(a.dir, before, { runId: 'bomb', iteration: 0 });
    await a.share.push({ workspace: a.dir });
    const b = w.machine('b');
    const share = sharingOf(b, { maxPatchBytes: 1024 * 1024 });
    for (let round = 0; round < 2; round++) {
      const got = await share.fetch({ workspace: b.dir });
      expect(got.runs).toEqual(['fine']);
      expect(got.refused.map((r) => r.ref)).toEqual(['refs/agentgate/records/bomb/iteration-0']);
    }
    // Nothing is written at fetch; verify builds the artifacts of the run it checks.
    expect(filesUnder(b.artifacts)).toEqual([]);
    expect((await b.snap.verify({ runId: 'fine' })).ok).toBe(true);
    expect(filesUnder(b.artifacts)).toEqual([
      'fine/.gitignore',
      'fine/iteration-0/patch.diff',
      'fine/iteration-1/patch.diff',
    ]);
    expect(await b.snap.store.loadRun('bomb')).toBeNull();
  });

  it('item 10: a fetched after commit with a date the parser rejects is one failed check for verify --all and report', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'good', 2);
    await a.share.push({ workspace: a.dir });
    // The same change as good's iteration 0, in a commit whose author date is out of range.
    const ref = 'refs/agentgate/records/good/iteration-0';
    const record = recordOf(w.origin, ref);
    const s = record.snapshot as { beforeSha: string; afterSha: string; commitMessage: string };
    const tree = git(w.origin, ['rev-parse', `${s.afterSha}^{tree}`]);
    const who = 'Agent <agent@example.com> 99999999999999999999 +0000';
    const bad = git(w.origin, ['hash-object', '-t', 'commit', '--literally', '-w', '--stdin'], {
      input: `tree ${tree}\nparent ${s.beforeSha}\nauthor ${who}\ncommitter ${who}\n\n${s.commitMessage}`,
    });
    forge(
      w.origin,
      'refs/agentgate/records/baddate/iteration-0',
      bad,
      json({
        ...record,
        snapshot: { ...record.snapshot, runId: 'baddate', id: 'snap-baddate', afterSha: bad },
        patch: { ...(record.patch as object), file: 'baddate/iteration-0/patch.diff' },
      }),
    );
    const b = w.machine('b');
    expect(await b.share.fetch({ workspace: b.dir })).toMatchObject({
      runs: ['baddate', 'good'],
      refused: [],
    });
    const all = cli(b, ['verify', '--all']);
    expect(all.status).toBe(3);
    const checks = (all.json() as { checks: Array<{ runId: string; check: string; ok: boolean }> }).checks;
    expect(checks.filter((c) => !c.ok).map((c) => `${c.runId} ${c.check}`)).toEqual([
      'baddate commit-message',
    ]);
    expect(checks.filter((c) => c.runId === 'good').length).toBeGreaterThan(10);
    for (const format of ['json', 'md', 'html', 'dotenv']) {
      const out = join(w.root, `report.${format}`);
      const res = cli(b, ['report', '--run', 'baddate', '--format', format, '-o', out]);
      expect(res.status, res.stdout + res.stderr).toBe(0);
      expect(existsSync(out)).toBe(true);
    }
  });

  it('item 12: fetch --run of a run the remote does not have is RUN_NOT_FOUND', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'known', 1);
    await a.share.push({ workspace: a.dir });
    const b = w.machine('b');
    await failsWith(b.share.fetch({ workspace: b.dir, runId: 'unknown' }), 'RUN_NOT_FOUND');
    const res = cli(b, ['fetch', '--run', 'unknown']);
    expect(res.status).toBe(1);
    expect((res.json() as { error: { code: string } }).error.code).toBe('RUN_NOT_FOUND');
    expect(await b.share.fetch({ workspace: b.dir, runId: 'known' })).toMatchObject({ snapshots: 1 });
  });

  it.runIf(asRoot && canMountTmpfs())(
    'item 16: export to a full disk is DISK_FULL and leaves no file',
    async () => {
      w = world();
      const a = w.machine('a');
      const before = await a.snap.captureBeforeState(a.dir, { runId: 'big' });
      writeFiles(a.dir, { 'big.bin': randomBytes(3_000_000) });
      await a.snap.captureAfterState(a.dir, before, { runId: 'big', iteration: 0 });
      const disk = tempDir('agentgate-disk-');
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', disk]);
      mounts.push(disk);
      const res = cli(a, ['export', '-o', join(disk, 'runs.bundle')]);
      expect(res.status).toBe(1);
      expect((res.json() as { error: { code: string } }).error.code).toBe('DISK_FULL');
      expect(readdirSync(disk)).toEqual([]);
    },
  );
});
