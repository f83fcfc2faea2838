/**
 * Sources and targets that are unusual but real: a remote of the other object format (sha256
 * against sha1), a bundle exported from a shallow clone, a forged bundle header naming a ref twice.
 */
import { appendFileSync, chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsServer } from '../helpers/https-server.js';
import { commitAll, git, writeFiles } from '../helpers/repo.js';
import { machineCli, machineOk, runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
let a: Machine;

beforeAll(async () => {
  w = world();
  a = w.machine('a');
  await runIterations(a, 'odd', 2);
}, 120_000);

afterAll(() => w?.cleanup());

describe('a remote of the other object format', () => {
  /** The error of a failing `--json` call on `m`'s workspace. */
  function failure(m: Machine, args: string[]) {
    const res = machineCli(m, ['--json', ...args]);
    expect(res.status, res.stdout + res.stderr).toBe(1);
    return (res.json() as { error: { code: string; details: Record<string, unknown> } }).error;
  }

  it('is REMOTE_NOT_FOUND naming both formats, for push and for fetch', () => {
    const other = join(w.root, 'sha256.git');
    git(w.root, ['init', '-q', '--bare', '--object-format=sha256', other]);
    const pushed = failure(a, ['push', '--remote', other]);
    expect(pushed.code).toBe('REMOTE_NOT_FOUND');
    expect(pushed.details).toMatchObject({ objectFormat: 'sha1', remoteObjectFormat: 'sha256' });
    expect(machineCli(a, ['push']).status).toBe(0);
    const b = { ...a, dir: join(w.root, 'b256'), home: join(w.root, 'b256-home') };
    git(w.root, ['init', '-q', '-b', 'main', '--object-format=sha256', b.dir]);
    git(b.dir, ['commit', '-q', '--allow-empty', '-m', 'start']);
    const fetched = failure(b, ['fetch', '--remote', w.origin]);
    expect(fetched.code).toBe('REMOTE_NOT_FOUND');
    expect(fetched.details).toMatchObject({ objectFormat: 'sha256', remoteObjectFormat: 'sha1' });
  });
});

describe('an export from a shallow clone', () => {
  it('names the boundary commit as its prerequisite, and import says to fetch it where it is missing', () => {
    const up = { ...a, dir: join(w.root, 'up'), home: join(w.root, 'up-home') };
    git(w.root, ['clone', '-q', w.origin, up.dir]);
    for (const n of [1, 2]) {
      writeFiles(up.dir, { 'history.txt': `${n}\n` });
      commitAll(up.dir, `history ${n}`);
    }
    git(up.dir, ['push', '-q', 'origin', 'main']);
    const s = { ...a, dir: join(w.root, 'shallow'), home: join(w.root, 'shallow-home') };
    git(w.root, ['clone', '-q', '--depth', '1', `file://${w.origin}`, s.dir]);
    const boundary = git(s.dir, ['rev-parse', 'HEAD']);
    machineOk(s, ['before', '--run', 'shallow']);
    writeFiles(s.dir, { 'work.txt': 'shallow work\n' });
    machineOk(s, ['after', '--run', 'shallow', '--iteration', '0']);
    // A stale line for a commit the clone does not hold is no prerequisite (git itself ignores it).
    appendFileSync(join(s.dir, '.git', 'shallow'), `${'1'.repeat(40)}\n`);
    const bundle = join(w.root, 'shallow.bundle');
    machineOk(s, ['export', '-o', bundle]);
    const header = readFileSync(bundle).toString('latin1').split('\n\n')[0] as string;
    expect(header.split('\n')).toContain(`-${boundary} history 2`);

    const fresh = { ...a, dir: join(w.root, 'fresh'), home: join(w.root, 'fresh-home') };
    git(w.root, ['init', '-q', '-b', 'main', fresh.dir]);
    git(fresh.dir, ['commit', '-q', '--allow-empty', '-m', 'unrelated']);
    const res = machineCli(fresh, ['--json', 'import', bundle]);
    expect(res.status, res.stdout + res.stderr).toBe(1);
    const { error } = res.json() as { error: { code: string; details: Record<string, unknown> } };
    expect(error.code).toBe('BUNDLE_INVALID');
    expect(error.details.prerequisites).toEqual([boundary]);

    // A full clone holds the boundary's history: the import lands and the run verifies there.
    const full = { ...a, home: join(w.root, 'full-home') };
    git(a.dir, ['fetch', '-q', 'origin']);
    expect(machineOk(full, ['import', bundle])).toMatchObject({ runs: ['shallow'], snapshots: 1 });
    expect(machineCli(full, ['verify', '--run', 'shallow']).status).toBe(0);
  });
});

describe('a forged bundle header that names a ref twice', () => {
  it.each([
    ['the true commit first', false],
    ['the forged commit first', true],
  ])('refuses that ref, listing it, and takes the rest (%s)', (_, forgedFirst) => {
    const file = join(w.root, `twice-${String(forgedFirst)}.bundle`);
    machineOk(a, ['export', '-o', file]);
    const bytes = readFileSync(file);
    const end = bytes.indexOf('\n\n');
    const [signature, ...heads] = bytes.subarray(0, end).toString('latin1').split('\n');
    const ref = 'refs/agentgate/records/odd/iteration-0';
    const other = (heads.find((h) => h.endsWith('/odd/iteration-1')) as string).split(' ')[0] as string;
    const forged = `${other} ${ref}`;
    const lines = forgedFirst ? [forged, ...heads] : [...heads, forged];
    writeFileSync(file, Buffer.concat([Buffer.from([signature, ...lines].join('\n')), bytes.subarray(end)]));
    const b = w.machine(`twice-${String(forgedFirst)}`);
    const res = machineOk(b, ['import', file]) as { snapshots: number; refused: Array<{ ref: string }> };
    expect(res.refused.map((r) => r.ref)).toEqual([ref]);
    expect(res.snapshots).toBe(1);
    expect(git(b.dir, ['for-each-ref', '--format=%(refname)', 'refs/agentgate/records/'])).toBe(
      'refs/agentgate/records/odd/iteration-1',
    );
  });
});

describe('a remote that is a bundle file', () => {
  it('is REMOTE_NOT_FOUND, however it is named: import is the way a bundle comes in', () => {
    const file = join(w.root, 'as-remote.bundle');
    machineOk(a, ['export', '-o', file]);
    const b = w.machine('bundle-remote');
    git(b.dir, ['config', 'remote.audit.url', file]);
    git(b.dir, ['config', `url.${file}.insteadOf`, 'audit:']);
    for (const remote of ['audit', 'audit:']) {
      const res = machineCli(b, ['--json', 'fetch', '--remote', remote]);
      expect(res.status, res.stdout + res.stderr).toBe(1);
      expect((res.json() as { error: { code: string } }).error.code).toBe('REMOTE_NOT_FOUND');
    }
    expect(git(b.dir, ['for-each-ref', 'refs/agentgate/'])).toBe('');
    expect(machineOk(b, ['import', file])).toMatchObject({ runs: ['odd'], snapshots: 2 });
  });
});

describe('an https server that asks for credentials none gave', () => {
  it('is REMOTE_NOT_FOUND for push and fetch, with or without a user name in the URL', async () => {
    const server = await startHttpsServer(w.root);
    try {
      git(a.dir, ['config', 'http.sslCAInfo', server.cert]);
      for (const url of [
        `https://127.0.0.1:${server.port}/private.git`,
        `https://ci@127.0.0.1:${server.port}/x.git`,
      ])
        for (const command of ['push', 'fetch']) {
          const res = machineCli(a, ['--json', command, '--remote', url]);
          expect(res.status, res.stdout + res.stderr).toBe(1);
          expect((res.json() as { error: { code: string } }).error.code).toBe('REMOTE_NOT_FOUND');
        }
    } finally {
      server.stop();
      git(a.dir, ['config', '--unset', 'http.sslCAInfo']);
    }
  });
});

describe("CI's credentials for the remote's URL (http.<url>.extraHeader, as actions/checkout writes)", () => {
  it('are sent to that URL, while the plain http.extraHeader (any server) stays off', async () => {
    const server = await startHttpsServer(w.root);
    const url = `https://127.0.0.1:${server.port}/private.git`;
    const settings = [
      ['http.sslCAInfo', server.cert],
      ['http.extraHeader', 'X-Planted: everywhere'],
      [`http.https://127.0.0.1:${server.port}/.extraHeader`, 'AUTHORIZATION: basic Y2k6dG9rZW4='],
      ['http.https://elsewhere.invalid/.extraHeader', 'X-Elsewhere: 1'],
    ];
    try {
      for (const [key, value] of settings) git(a.dir, ['config', '--add', key as string, value as string]);
      for (const command of ['fetch', 'push']) {
        const before = server.headers().length;
        machineCli(a, ['--json', command, '--remote', url]);
        const sent = server.headers().slice(before);
        expect(sent.length).toBeGreaterThan(0);
        for (const headers of sent) {
          expect(headers.authorization).toBe('basic Y2k6dG9rZW4=');
          expect(headers['x-planted']).toBeUndefined();
          expect(headers['x-elsewhere']).toBeUndefined();
        }
      }
    } finally {
      server.stop();
      for (const [key] of settings) git(a.dir, ['config', '--unset-all', key as string]);
    }
  });
});

describe('an ssh remote', () => {
  it("reaches the caller's ssh agent (SSH_AUTH_SOCK), where keys with a passphrase and CI's keys are", () => {
    const bin = join(w.root, 'fake-ssh-bin');
    const seen = join(w.root, 'ssh-saw.txt');
    mkdirSync(bin, { recursive: true });
    // The `ssh` git runs (core.sshCommand=ssh, found on PATH): it notes the agent it was given.
    writeFileSync(join(bin, 'ssh'), `#!/bin/sh\nprintf '%s' "$SSH_AUTH_SOCK" > '${seen}'\nexit 255\n`);
    chmodSync(join(bin, 'ssh'), 0o755);
    const env = { PATH: `${bin}:${process.env.PATH ?? ''}`, SSH_AUTH_SOCK: join(w.root, 'agent.sock') };
    for (const command of ['fetch', 'push']) {
      writeFileSync(seen, 'not run');
      const res = machineCli(a, ['--json', command, '--remote', 'ssh://git@example.invalid/repo.git'], env);
      expect(res.status, res.stdout + res.stderr).toBe(1);
      expect(readFileSync(seen, 'utf8')).toBe(env.SSH_AUTH_SOCK);
    }
  });
});

describe('a bundle file whose name holds a line break', () => {
  it('is imported like any other', () => {
    const file = join(w.root, 'line\nbreak.bundle');
    machineOk(a, ['export', '-o', file]);
    const b = w.machine('line-break');
    expect(machineOk(b, ['import', file])).toMatchObject({ file, runs: ['odd'], snapshots: 2 });
  });
});
