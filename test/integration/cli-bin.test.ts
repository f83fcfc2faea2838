/**
 * The bin as people run it: a plain `#!/usr/bin/env node` program (npx, PATH, a hook's command
 * line, a symbolic link as npm installs it) or `node <bin>`. What the agent and a gate's check see
 * is the caller's environment, byte for byte: NODE_EXTRA_CA_CERTS and AGENTGATE_NODE_EXTRA_CA_CERTS
 * set, empty or unset reach them as given (issue 26 item 11), and the CLI's Node itself starts with
 * the caller's NODE_EXTRA_CA_CERTS. Node's compile cache is turned on and never fails the CLI.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

const UNSET = '<unset>';
const WATCHED = ['NODE_EXTRA_CA_CERTS', 'AGENTGATE_NODE_EXTRA_CA_CERTS', 'NODE_COMPILE_CACHE'] as const;

/** A command that writes the watched variables it sees, and those its parent (the CLI's Node) started with. */
function probe(out: string): string[] {
  const script = [
    ...WATCHED.map((name) => `printf '%s\\n' "\${${name}-${UNSET}}" >> "$1"`),
    `tr '\\0' '\\n' < /proc/$PPID/environ | grep '^NODE_EXTRA_CA_CERTS=' >> "$1" || true`,
  ].join('\n');
  return ['sh', '-c', script, 'probe', out];
}

interface Seen {
  child: Record<(typeof WATCHED)[number], string>;
  parent: string;
}

function read(out: string): Seen {
  const lines = readFileSync(out, 'utf8').split('\n');
  return {
    child: Object.fromEntries(WATCHED.map((name, i) => [name, lines[i]])) as Seen['child'],
    parent: lines[WATCHED.length] ?? '',
  };
}

/** The caller's environment with the CA variables as given (undefined: not set at all) and a home of its own. */
function callerEnv(vars: Partial<Record<(typeof WATCHED)[number] | 'TMPDIR', string>>): NodeJS.ProcessEnv {
  const rest = { ...process.env };
  for (const name of WATCHED) delete rest[name];
  return { ...rest, NO_COLOR: '1', AGENTGATE_HOME: tempDir('bin-home-'), ...vars };
}

/** `iterate` with the probe as its agent, the bin run as a program (or by node when `viaNode`). */
function iterateSeen(env: NodeJS.ProcessEnv, viaNode = false): Seen {
  const ws = repoWithCommit({ 'a.txt': 'one\n' });
  const out = join(tempDir('bin-out-'), 'seen');
  const args = ['iterate', '-C', ws, '--run', 'r1', '--iteration', '1', '--json', '--', ...probe(out)];
  const res = viaNode
    ? spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' })
    : spawnSync(CLI, args, { env, encoding: 'utf8' });
  expect(res.status, res.stdout + res.stderr).toBe(0);
  return read(out);
}

describe('the bin and the caller’s environment', () => {
  const ca = () => {
    const file = join(tempDir('bin-ca-'), 'extra ca $(touch pwned) `id`.pem');
    writeFileSync(file, '');
    return file;
  };

  it('gives the agent both CA variables as the caller set them, run as a program or by node', () => {
    for (const viaNode of [false, true]) {
      const [value, own] = [ca(), '/etc/agentgate-own-ca.pem'];
      const env = callerEnv({ NODE_EXTRA_CA_CERTS: value, AGENTGATE_NODE_EXTRA_CA_CERTS: own });
      expect(iterateSeen(env, viaNode)).toEqual({
        child: { NODE_EXTRA_CA_CERTS: value, AGENTGATE_NODE_EXTRA_CA_CERTS: own, NODE_COMPILE_CACHE: UNSET },
        parent: `NODE_EXTRA_CA_CERTS=${value}`,
      });
    }
  });

  it('keeps an empty value empty and an unset one unset', () => {
    expect(iterateSeen(callerEnv({ NODE_EXTRA_CA_CERTS: '' }))).toEqual({
      child: { NODE_EXTRA_CA_CERTS: '', AGENTGATE_NODE_EXTRA_CA_CERTS: UNSET, NODE_COMPILE_CACHE: UNSET },
      parent: 'NODE_EXTRA_CA_CERTS=',
    });
    expect(iterateSeen(callerEnv({ AGENTGATE_NODE_EXTRA_CA_CERTS: '/only-ours.pem' }))).toEqual({
      child: {
        NODE_EXTRA_CA_CERTS: UNSET,
        AGENTGATE_NODE_EXTRA_CA_CERTS: '/only-ours.pem',
        NODE_COMPILE_CACHE: UNSET,
      },
      parent: '',
    });
  });

  it('gives a gate’s check the caller’s values too', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const out = join(tempDir('bin-out-'), 'seen');
    const env = callerEnv({
      NODE_EXTRA_CA_CERTS: '/etc/agentgate-test-ca.pem',
      AGENTGATE_NODE_EXTRA_CA_CERTS: '/etc/agentgate-own-ca.pem',
    });
    const cli = (args: string[]) => spawnSync(CLI, [args[0] as string, '-C', ws, ...args.slice(1)], { env });
    expect(cli(['before', '--run', 'r1']).status).toBe(0);
    expect(cli(['after', '--run', 'r1', '--iteration', '1']).status).toBe(0);
    const gate = cli(['gate', '--run', 'r1', '--name', 'probe', '--', ...probe(out)]);
    expect(gate.status, String(gate.stderr)).toBe(0);
    expect(read(out)).toEqual({
      child: {
        NODE_EXTRA_CA_CERTS: '/etc/agentgate-test-ca.pem',
        AGENTGATE_NODE_EXTRA_CA_CERTS: '/etc/agentgate-own-ca.pem',
        NODE_COMPILE_CACHE: UNSET,
      },
      parent: 'NODE_EXTRA_CA_CERTS=/etc/agentgate-test-ca.pem',
    });
  });

  it('runs through a symbolic link from another directory, as npm installs it', () => {
    const link = join(tempDir('bin-link-'), 'agentgate-snapshot');
    symlinkSync(CLI, link);
    const res = spawnSync(link, ['--version'], { env: callerEnv({}), encoding: 'utf8' });
    expect([res.status, res.stdout, res.stderr]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+\n$/), '']);
  });
});

describe('the bin and Node’s compile cache', () => {
  it('keeps the compiled CLI where NODE_COMPILE_CACHE says', () => {
    const dir = tempDir('bin-cache-');
    const res = spawnSync(CLI, ['runs', '--json'], {
      env: callerEnv({ NODE_COMPILE_CACHE: dir }),
      encoding: 'utf8',
    });
    expect([res.status, res.stdout, res.stderr]).toEqual([0, '[]\n', '']);
    expect(readdirSync(dir, { recursive: true }).length).toBeGreaterThan(0);
  });

  it('keeps it by default in a directory of this user’s own in the temporary directory', () => {
    const tmp = tempDir('bin-tmp-');
    const res = spawnSync(CLI, ['runs', '--json'], { env: callerEnv({ TMPDIR: tmp }), encoding: 'utf8' });
    expect([res.status, res.stdout, res.stderr]).toEqual([0, '[]\n', '']);
    const own = join(tmp, `agentgate-compile-cache-${process.getuid?.()}`);
    expect(readdirSync(tmp)).toEqual([own.slice(tmp.length + 1)]);
    expect(statSync(own).mode & 0o077).toBe(0);
    expect(readdirSync(own, { recursive: true }).length).toBeGreaterThan(0);
  });

  it('never uses a cache directory that others may write to, or a link planted in its place', () => {
    const name = `agentgate-compile-cache-${process.getuid?.()}`;
    const open = tempDir('bin-tmp-');
    mkdirSync(join(open, name));
    chmodSync(join(open, name), 0o777);
    const linked = tempDir('bin-tmp-');
    const elsewhere = tempDir('bin-elsewhere-');
    symlinkSync(elsewhere, join(linked, name));
    for (const tmp of [open, linked]) {
      const res = spawnSync(CLI, ['runs', '--json'], { env: callerEnv({ TMPDIR: tmp }), encoding: 'utf8' });
      expect([res.status, res.stdout, res.stderr]).toEqual([0, '[]\n', '']);
    }
    expect(readdirSync(join(open, name))).toEqual([]);
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('runs as before, and quietly, when the cache cannot be kept', () => {
    const file = join(tempDir('bin-cache-'), 'a-file');
    writeFileSync(file, '');
    for (const env of [{ NODE_COMPILE_CACHE: join(file, 'cache') }, { NODE_DISABLE_COMPILE_CACHE: '1' }]) {
      const res = spawnSync(CLI, ['runs', '--json'], { env: callerEnv(env), encoding: 'utf8' });
      expect([res.status, res.stdout, res.stderr]).toEqual([0, '[]\n', '']);
    }
  });
});
