/**
 * The four sharing commands through the built CLI: a run made on machine A is published, fetched on
 * B and imported from a bundle on C, where runs, list, show, patch and verify work as on A; a copied
 * home verifies with --home and --artifacts-dir; a fetch killed inside git is mended by the next.
 * (push and fetch killed at any moment: test/reliability/crash-sharing.test.ts.)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Snapshot } from '../../types/snapshot.js';
import { CLI, runCli } from '../helpers/cli.js';
import { deadPid } from '../helpers/node-child.js';
import { git } from '../helpers/repo.js';
import { machineCli as cli, machineOk as ok, runIterations, world, type World } from '../helpers/sharing.js';

let w: World;
afterEach(() => w?.cleanup());

describe('sharing through the CLI', () => {
  it('push, fetch, export and import; then runs, list, show, patch and verify on the other machines', async () => {
    w = world();
    const [a, b, c] = [w.machine('a'), w.machine('b'), w.machine('c')];
    ok(a, ['before', '--run', 'cli-run']);
    writeFileSync(join(a.dir, 'new.bin'), Buffer.from([0, 1, 2, 255, 254]));
    writeFileSync(join(a.dir, 'README.md'), 'hello\nworld\n');
    const snap = ok(a, [
      'after',
      '--run',
      'cli-run',
      '--iteration',
      '0',
      '--task',
      'make it so',
      '--gate',
      'npm test',
    ]) as Snapshot;
    expect(snap).toMatchObject({ task: 'make it so', gate: 'npm test' });
    expect(ok(a, ['push'])).toMatchObject({ remote: 'origin', runs: ['cli-run'], refs: 1 });
    expect(ok(b, ['fetch'])).toMatchObject({ remote: 'origin', runs: ['cli-run'], snapshots: 1 });
    const bundle = join(w.root, 'run.bundle');
    expect(ok(a, ['export', '--run', 'cli-run', '-o', bundle])).toMatchObject({
      file: bundle,
      runs: ['cli-run'],
      refs: 1,
    });
    expect(ok(c, ['import', bundle])).toMatchObject({ file: bundle, runs: ['cli-run'], snapshots: 1 });
    const original = readFileSync(snap.patchPath as string);
    for (const m of [b, c]) {
      expect(ok(m, ['runs'])).toEqual([
        expect.objectContaining({ runId: 'cli-run', workspace: m.dir, recordedWorkspace: a.dir }),
      ]);
      expect(ok(m, ['list'])).toEqual([expect.objectContaining({ id: snap.id, workspace: m.dir })]);
      expect(ok(m, ['show', snap.afterSha.slice(0, 10)])).toMatchObject({ id: snap.id, task: 'make it so' });
      const patch = runCli(['-C', m.dir, '--home', m.home, 'patch', snap.id], {
        env: { AGENTGATE_ARTIFACTS_DIR: '' },
      });
      expect(Buffer.from(patch.stdout)).toEqual(original);
      expect(ok(m, ['verify', '--run', 'cli-run'])).toMatchObject({ ok: true });
    }
    const refused = cli(a, ['push', '--remote', 'ext::sh -c id', '--json']);
    expect(refused.status).toBe(1);
    expect(refused.json()).toEqual({ error: expect.objectContaining({ code: 'REMOTE_UNSAFE' }) });
    const bad = join(w.root, 'bad.bundle');
    writeFileSync(bad, 'garbage');
    expect((cli(c, ['import', bad, '--json']).json() as { error: { code: string } }).error.code).toBe(
      'BUNDLE_INVALID',
    );
  });

  it("a fetched run's artifacts are built where --artifacts-dir says, not where they were at fetch", async () => {
    w = world();
    const [a, b] = [w.machine('a'), w.machine('b')];
    await runIterations(a, 'art', 1);
    ok(a, ['push']);
    const first = join(w.root, 'art-at-fetch');
    ok(b, ['fetch', '--artifacts-dir', first]);
    const later = join(w.root, 'art-later');
    const verified = ok(b, ['verify', '--run', 'art', '--artifacts-dir', later]) as { ok: boolean };
    expect(verified.ok).toBe(true);
    const [snap] = ok(b, ['list', '--artifacts-dir', later]) as Snapshot[];
    expect(snap?.patchPath).toBe(join(later, 'art', 'iteration-0', 'patch.diff'));
    expect(existsSync(snap?.patchPath as string)).toBe(true);
    expect(existsSync(join(first, 'art'))).toBe(false);
  });

  it('a home and workspace copied to another place verify and patch with -C, --home and --artifacts-dir once the originals are gone', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'moved', 2);
    const original = readFileSync((await a.snap.listByRun('moved'))[1]!.patchPath as string);
    const [home, ws] = [join(w.root, 'copied-home'), join(w.root, 'copied-ws')];
    cpSync(a.home, home, { recursive: true });
    cpSync(a.dir, ws, { recursive: true });
    rmSync(a.home, { recursive: true, force: true });
    rmSync(a.dir, { recursive: true, force: true });
    const opts = ['-C', ws, '--home', home, '--artifacts-dir', join(home, 'artifacts')];
    expect(runCli([...opts, 'verify', '--run', 'moved', '--json']).json()).toMatchObject({ ok: true });
    const list = runCli([...opts, 'list', '--json']).json() as Snapshot[];
    expect(list).toHaveLength(2);
    // Printed paths are this machine's: the copied artifacts and the -C workspace, not the originals.
    for (const s of list)
      expect(s).toMatchObject({
        workspace: ws,
        patchPath: join(home, 'artifacts', 'moved', `iteration-${s.iteration}`, 'patch.diff'),
      });
    expect(runCli([...opts, 'show', list[1]!.id, '--json']).json()).toEqual(list[1]);
    expect(runCli([...opts, 'runs', '--json']).json()).toEqual([
      expect.objectContaining({ runId: 'moved', workspace: ws }),
    ]);
    expect(runCli([...opts, 'report', '--format', 'json']).json()).toMatchObject({
      run: { workspace: ws },
      verification: { ok: true },
    });
    // Without -C nothing stands in for the recorded workspace: it is printed as recorded.
    expect(
      (runCli(['--home', home, 'runs', '--json']).json() as Array<{ workspace: string }>)[0]!.workspace,
    ).toBe(a.dir);
    // The copied home publishes from the copied workspace, and -C names it.
    const bundle = join(w.root, 'copied.bundle');
    expect(runCli([...opts, 'export', '-o', bundle, '--json']).json()).toMatchObject({
      runs: ['moved'],
      refs: 2,
    });
    expect(runCli([...opts, 'push', '--run', 'moved', '--json']).json()).toMatchObject({
      runs: ['moved'],
      refs: 2,
    });
    const unrelated = join(w.root, 'unrelated');
    git(w.root, ['init', '-q', unrelated]);
    git(unrelated, [
      '-c',
      'user.name=t',
      '-c',
      'user.email=t@t',
      'commit',
      '-q',
      '--allow-empty',
      '-m',
      'other history',
    ]);
    const elsewhere = runCli([
      '-C',
      unrelated,
      '--home',
      home,
      'export',
      '--run',
      'moved',
      '-o',
      join(w.root, 'no.bundle'),
      '--json',
    ]);
    expect([elsewhere.status, (elsewhere.json() as { error: { code: string } }).error.code]).toEqual([
      1,
      'RUN_WORKSPACE_MISMATCH',
    ]);
    const patchFile = join(w.root, 'out.diff');
    rmSync(join(home, 'artifacts'), { recursive: true, force: true });
    expect(runCli([...opts, 'patch', list[1]!.id, '-o', patchFile]).status).toBe(0);
    expect(readFileSync(patchFile)).toEqual(original);
  });

  it('-C wins over a recorded workspace that exists: verify --run and report check the clone it names', async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'cloned', 1);
    const clone = join(w.root, 'clone');
    git(w.root, ['clone', '-q', a.dir, clone]);
    git(clone, ['reset', '-q', '--hard', 'HEAD~1']);
    const home = ['--home', a.home];
    expect(runCli([...home, '-C', a.dir, 'verify', '--run', 'cloned', '--json']).status).toBe(0);
    expect(runCli([...home, '-C', join(a.dir, '.'), 'verify', '--run', 'cloned']).status).toBe(0);
    const there = runCli([...home, '-C', clone, 'verify', '--run', 'cloned', '--json']);
    expect(there.status).toBe(3);
    expect(runCli([...home, '-C', clone, 'report', '--format', 'json']).json()).toMatchObject({
      run: { workspace: clone },
      verification: { ok: false },
    });
    // --all covers runs of every workspace: -C stands in only for those not on this machine.
    expect(runCli([...home, '-C', clone, 'verify', '--all']).status).toBe(0);
  });

  it("a copied home's gate logs are printed where they are now, by gate list and gate replay", async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'gated', 1);
    ok(a, ['gate', '--run', 'gated', '--name', 't', '--json', '--', 'true']);
    const [home, ws] = [join(w.root, 'copied-home'), join(w.root, 'copied-ws')];
    cpSync(a.home, home, { recursive: true });
    cpSync(a.dir, ws, { recursive: true });
    rmSync(a.home, { recursive: true, force: true });
    const opts = ['-C', ws, '--home', home];
    const here = join(home, 'artifacts', 'gated', 'iteration-0', 'gate-t-1.log');
    const [listed] = runCli([...opts, 'gate', 'list', '--run', 'gated', '--json']).json() as Array<{
      log: { path: string };
    }>;
    expect(listed?.log.path).toBe(here);
    const replay = runCli([
      ...opts,
      'gate',
      'replay',
      '--run',
      'gated',
      '--iteration',
      '0',
      '--name',
      't',
      '--yes',
      '--json',
    ]).json() as {
      original: { log: { path: string } };
    };
    expect(replay.original.log.path).toBe(here);
    expect(runCli([...opts, 'verify', '--run', 'gated', '--json']).json()).toMatchObject({ ok: true });
  });

  it("push goes to the remote's pushurl, as git push does; fetch to its url", async () => {
    w = world();
    const a = w.machine('a');
    await runIterations(a, 'pu', 1);
    const pushed = join(w.root, 'pushed.git');
    git(w.root, ['init', '-q', '--bare', pushed]);
    git(a.dir, ['config', 'remote.origin.pushurl', pushed]);
    ok(a, ['push', '--run', 'pu']);
    expect(git(pushed, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/'])).not.toBe('');
    expect(git(w.origin, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/'])).toBe('');
  });

  it('a fetch killed inside git, holding a ref lock, is mended by the next fetch (the same state every time)', async () => {
    w = world();
    const [a, b] = [w.machine('a'), w.machine('b')];
    await runIterations(a, 'locked', 2);
    ok(a, ['push']);
    // What SIGKILL leaves when it lands while git updates refs/agentgate/incoming/: our lock, held
    // by a dead process, and git's lock on the ref it was writing.
    const owner = {
      pid: await deadPid(),
      hostname: hostname(),
      createdAt: new Date(Date.now() - 1000).toISOString(),
      token: 'dead0wner',
      purpose: 'sharing',
    };
    writeFileSync(join(b.dir, '.git', 'agentgate.lock'), JSON.stringify(owner));
    const refLock = join(b.dir, '.git', 'refs', 'agentgate', 'incoming', 'locked', 'iteration-0.lock');
    mkdirSync(join(refLock, '..'), { recursive: true });
    writeFileSync(refLock, '');
    expect(ok(b, ['fetch'])).toMatchObject({ snapshots: 2, refused: [] });
    expect(existsSync(refLock)).toBe(false);
    expect(ok(b, ['verify', '--run', 'locked'])).toMatchObject({ ok: true });
  });
});

describe('a push whose transport outlives the git timeout', () => {
  it('ends with GIT_TIMEOUT once git is stopped, though the ssh git started still holds its pipes', () => {
    w = world();
    const a = w.machine('a');
    ok(a, ['before', '--run', 'r']);
    writeFileSync(join(a.dir, 'new.txt'), 'new\n');
    ok(a, ['after', '--run', 'r', '--iteration', '0']);
    mkdirSync(a.home, { recursive: true });
    writeFileSync(join(a.home, 'config.yaml'), 'gitTimeoutMs: 1000\n');
    // An ssh that never answers (a host that drops packets): it outlives the git that started it.
    const bin = join(w.root, 'bin');
    const pidFile = join(w.root, 'ssh.pid');
    mkdirSync(bin);
    writeFileSync(join(bin, 'ssh'), `#!/bin/sh\necho $$ > '${pidFile}'\nexec sleep 3600\n`, { mode: 0o755 });
    const res = spawnSync(
      process.execPath,
      [CLI, '-C', a.dir, '--home', a.home, '--json', 'push', '--remote', 'ssh://unanswered.invalid/x.git'],
      {
        env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, AGENTGATE_ARTIFACTS_DIR: '' },
        encoding: 'utf8',
        // Only so that a hang fails the test instead of stalling the suite.
        timeout: 120_000,
      },
    );
    try {
      expect(res.signal).toBeNull();
      expect(JSON.parse(res.stdout)).toMatchObject({ error: { code: 'GIT_TIMEOUT' } });
    } finally {
      if (existsSync(pidFile)) process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGKILL');
    }
  });
});
