/**
 * Every setting in `git help config` (git 2.39) that names a program git may run while it fetches,
 * pushes, writes or reads a bundle (index-pack, upload-pack, receive-pack included), planted in the
 * pushing, fetching and importing clones and in the local remote, each pointing at a program that
 * leaves a marker file: push, fetch, export and import through the CLI run none of them. Controls
 * with plain git prove the planted programs are live.
 *
 * Audited and covered here: core.alternateRefsCommand (with objects/info/alternates; in the clones
 * and in the remote, whose receive-pack reads it), uploadpack.packObjectsHook, core.sshCommand,
 * GIT_SSH_COMMAND, credential.helper and credential.<url>.helper, core.askPass, gpg.program,
 * gpg.ssh.program and gpg.x509.program with push.gpgSign, remote.<name>.uploadpack and
 * remote.<name>.receivepack, core.fsmonitor and hooks in the remote. Elsewhere:
 * core.gitProxy and url.<base>.insteadOf to ext:: in reliability/sharing-hostile.test.ts; hooks,
 * filters and drivers in reliability/sharing-armed.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startHttpsServer, type HttpsServer } from '../helpers/https-server.js';
import { git, oracleEnv } from '../helpers/repo.js';
import { runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
let markers: string;
let a: Machine;
let b: Machine;
let c: Machine;
let server: HttpsServer | undefined;
let port = 0;

/** A program that leaves `markers/NAME` and fails. */
function planted(name: string): string {
  const file = join(w.root, 'bin', name);
  writeFileSync(file, `#!/bin/sh\necho "$0 $*" >> '${markers}/${name}'\nexit 1\n`, { mode: 0o755 });
  return file;
}

/** Gives `repo` (a git dir) an alternate object store and a program to list the alternate's refs. */
function armAlternates(gitDir: string, name: string): void {
  const alt = join(w.root, `${name}-alt.git`);
  git(w.root, ['init', '-q', '--bare', alt]);
  mkdirSync(join(gitDir, 'objects', 'info'), { recursive: true });
  writeFileSync(join(gitDir, 'objects', 'info', 'alternates'), `${join(alt, 'objects')}\n`);
  git(gitDir, ['config', 'core.alternateRefsCommand', planted(`alternate-refs-${name}`)]);
}

/** Plants every program-naming setting of a clone (its own config: what the agent can write). */
function armClone(m: Machine): void {
  const gitDir = join(m.dir, '.git');
  armAlternates(gitDir, m.name);
  const set = (key: string, value: string) => git(m.dir, ['config', key, value]);
  set('core.sshCommand', planted(`ssh-${m.name}`));
  set('credential.helper', planted(`credential-${m.name}`));
  set(`credential.https://127.0.0.1:${port}.helper`, planted(`credential-url-${m.name}`));
  set('core.askPass', planted(`askpass-${m.name}`));
  set('gpg.program', planted(`gpg-${m.name}`));
  set('gpg.ssh.program', planted(`gpg-ssh-${m.name}`));
  set('gpg.x509.program', planted(`gpg-x509-${m.name}`));
  set('push.gpgSign', 'true');
  set('remote.origin.uploadpack', planted(`uploadpack-${m.name}`));
  set('remote.origin.receivepack', planted(`receivepack-${m.name}`));
  // An https server with a self-signed certificate answers 401: git asks for credentials.
  set('http.sslCAInfo', server?.cert ?? '');
  set('remote.https.url', `https://127.0.0.1:${port}/repo.git`);
}

function cli(m: Machine, args: string[]) {
  const never = planted('env-program');
  return runCli(['-C', m.dir, '--home', m.home, ...args, '--json'], {
    cwd: m.dir,
    env: { GIT_SSH_COMMAND: never, GIT_ASKPASS: never, SSH_ASKPASS: never, GIT_SSH: never },
  });
}

const ran = (): string[] => readdirSync(markers).sort();

beforeAll(async () => {
  w = world();
  markers = join(w.root, 'markers');
  mkdirSync(markers);
  mkdirSync(join(w.root, 'bin'));
  [a, b, c] = [w.machine('a'), w.machine('b'), w.machine('c')];
  await runIterations(a, 'armed', 2);
  server = await startHttpsServer(w.root);
  port = server.port;
  for (const m of [a, b, c]) armClone(m);
  // The remote's own config: its receive-pack reads alternateRefsCommand; packObjectsHook is honoured
  // only from protected config, which we keep empty; its fsmonitor and hooks.
  armAlternates(w.origin, 'origin');
  git(w.origin, ['config', 'uploadpack.packObjectsHook', planted('pack-objects-hook')]);
  git(w.origin, ['config', 'core.fsmonitor', planted('fsmonitor-origin')]);
  for (const hook of ['pre-receive', 'update', 'post-receive', 'reference-transaction']) {
    writeFileSync(join(w.origin, 'hooks', hook), `#!/bin/sh\ntouch '${markers}/hook-${hook}'\n`, {
      mode: 0o755,
    });
  }
  expect(ran()).toEqual([]);
}, 120_000);

beforeEach(() => {
  for (const f of ran()) rmSync(join(markers, f));
});

afterAll(() => {
  server?.stop();
  w?.cleanup();
});

describe('program-naming settings during push, fetch, export and import', () => {
  it('push, fetch, export and import run none of them, and the run arrives whole', () => {
    const bundle = join(w.root, 'armed.bundle');
    // What ran during each step (all steps run, so that a failure names every one that ran something).
    const steps: Record<string, string[]> = {};
    const step = (name: string, m: Machine, args: string[]) => {
      const res = cli(m, args);
      steps[name] = ran();
      for (const f of steps[name]) rmSync(join(markers, f));
      return res;
    };
    expect(step('push', a, ['push']).status).toBe(0);
    expect(step('fetch', b, ['fetch']).json()).toMatchObject({ runs: ['armed'], snapshots: 2, refused: [] });
    expect(step('export', a, ['export', '-o', bundle]).status).toBe(0);
    expect(step('import', c, ['import', bundle]).json()).toMatchObject({ runs: ['armed'], snapshots: 2 });
    expect(step('push --all', b, ['push', '--all']).status).toBe(0);
    expect(step('verify', c, ['verify', '--all']).json()).toMatchObject({ ok: true });
    expect(steps).toEqual({
      push: [],
      fetch: [],
      export: [],
      import: [],
      'push --all': [],
      verify: [],
    });
  });

  it('ssh and https remotes: no ssh command, credential helper or askpass of the repository runs', () => {
    const ssh = cli(b, ['fetch', '--remote', 'ssh://agentgate.invalid/repo.git']);
    expect(ssh.status).toBe(1);
    const https = cli(b, ['fetch', '--remote', 'https']);
    expect(https.status).toBe(1);
    expect(https.stdout + https.stderr).toMatch(/401|Username|Authentication|terminal prompts/i);
    expect(ran()).toEqual([]);
  });

  it('control: plain git runs the planted programs', () => {
    const env = oracleEnv();
    spawnSync('git', ['fetch', '-q', w.origin, 'main:refs/heads/control'], { cwd: b.dir, env });
    spawnSync('git', ['fetch', '-q', 'https'], { cwd: b.dir, env });
    spawnSync('git', ['fetch', '-q', 'origin'], { cwd: b.dir, env });
    spawnSync('git', ['ls-remote', 'ssh://agentgate.invalid/repo.git'], { cwd: b.dir, env });
    spawnSync('git', ['-c', 'push.gpgSign=false', 'push', '-q', w.origin, 'main:refs/heads/control'], {
      cwd: a.dir,
      env,
    });
    expect(ran()).toEqual(
      expect.arrayContaining([
        'alternate-refs-b',
        'alternate-refs-origin',
        'askpass-b',
        'credential-b',
        'credential-url-b',
        'hook-pre-receive',
        'ssh-b',
        'uploadpack-b',
      ]),
    );
  });
});
