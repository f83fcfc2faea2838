/**
 * The bin run as a program (npx, PATH, a hook's command line): its sh line starts Node without
 * NODE_EXTRA_CA_CERTS, which Node would parse at every start, and the CLI gives the value back to
 * the commands it starts. What the agent and a gate's check see must be the caller's environment,
 * byte for byte, whether the variable is set, empty or unset; `node <bin>` keeps working as before.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CLI } from '../helpers/cli.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

const UNSET = '<unset>';

/**
 * A command that writes what it sees: its NODE_EXTRA_CA_CERTS and AGENTGATE_NODE_EXTRA_CA_CERTS,
 * and whether its parent (the CLI's Node process) started with NODE_EXTRA_CA_CERTS.
 */
function probe(out: string): string[] {
  const script = [
    `printf '%s\\n' "\${NODE_EXTRA_CA_CERTS-${UNSET}}" "\${AGENTGATE_NODE_EXTRA_CA_CERTS-${UNSET}}" > "$1"`,
    `tr '\\0' '\\n' < /proc/$PPID/environ | grep -c '^NODE_EXTRA_CA_CERTS=' >> "$1"`,
    'exit 0',
  ].join('\n');
  return ['sh', '-c', script, 'probe', out];
}

interface Seen {
  child: string;
  carried: string;
  parentHadIt: boolean;
}

function read(out: string): Seen {
  const [child, carried, count] = readFileSync(out, 'utf8').split('\n');
  return { child: child as string, carried: carried as string, parentHadIt: count !== '0' };
}

/** The caller's environment with NODE_EXTRA_CA_CERTS as given (undefined: not set at all) and a home of its own. */
function callerEnv(value: string | undefined, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const rest = { ...process.env };
  delete rest.NODE_EXTRA_CA_CERTS;
  const home = tempDir('launcher-home-');
  return {
    ...rest,
    NO_COLOR: '1',
    AGENTGATE_HOME: home,
    ...(value === undefined ? {} : { NODE_EXTRA_CA_CERTS: value }),
    ...extra,
  };
}

/** `iterate` with the probe as its agent, the bin run as a program (or by node when `viaNode`). */
function iterateSeen(value: string | undefined, opts: { viaNode?: boolean; extra?: NodeJS.ProcessEnv } = {}) {
  const ws = repoWithCommit({ 'a.txt': 'one\n' });
  const out = join(tempDir('launcher-out-'), 'seen');
  const args = ['iterate', '-C', ws, '--run', 'r1', '--iteration', '1', '--json', '--', ...probe(out)];
  const res = opts.viaNode
    ? spawnSync(process.execPath, [CLI, ...args], { env: callerEnv(value, opts.extra), encoding: 'utf8' })
    : spawnSync(CLI, args, { env: callerEnv(value, opts.extra), encoding: 'utf8' });
  expect(res.status, res.stdout + res.stderr).toBe(0);
  return read(out);
}

describe('the bin run as a program', () => {
  it('starts Node without NODE_EXTRA_CA_CERTS and gives the agent the value as the caller set it', () => {
    const value = join(tempDir('launcher-ca-'), 'extra ca $(touch pwned) `id`.pem');
    writeFileSync(value, '');
    expect(iterateSeen(value)).toEqual({ child: value, carried: UNSET, parentHadIt: false });
  });

  it('keeps an empty value empty and an unset one unset, and drops a stale AGENTGATE_NODE_EXTRA_CA_CERTS', () => {
    expect(iterateSeen('')).toEqual({ child: '', carried: UNSET, parentHadIt: false });
    expect(iterateSeen(undefined, { extra: { AGENTGATE_NODE_EXTRA_CA_CERTS: '/stale.pem' } })).toEqual({
      child: UNSET,
      carried: UNSET,
      parentHadIt: false,
    });
  });

  it('gives a gate the caller’s value too', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const out = join(tempDir('launcher-out-'), 'seen');
    const env = callerEnv('/etc/agentgate-test-ca.pem');
    const cli = (args: string[]) => spawnSync(CLI, [args[0] as string, '-C', ws, ...args.slice(1)], { env });
    expect(cli(['before', '--run', 'r1']).status).toBe(0);
    expect(cli(['after', '--run', 'r1', '--iteration', '1']).status).toBe(0);
    const gate = cli(['gate', '--run', 'r1', '--name', 'probe', '--', ...probe(out)]);
    expect(gate.status, String(gate.stderr)).toBe(0);
    expect(read(out)).toEqual({ child: '/etc/agentgate-test-ca.pem', carried: UNSET, parentHadIt: false });
  });

  it('runs through a symbolic link from another directory, as npm installs it', () => {
    const link = join(tempDir('launcher-bin-'), 'agentgate-snapshot');
    symlinkSync(CLI, link);
    const res = spawnSync(link, ['--version'], {
      env: callerEnv('/etc/agentgate-test-ca.pem'),
      encoding: 'utf8',
    });
    expect([res.status, res.stdout]).toEqual([0, expect.stringMatching(/^\d+\.\d+\.\d+\n$/)]);
  });
});

describe('the bin run by node', () => {
  it('is plain JavaScript: Node keeps NODE_EXTRA_CA_CERTS and so does the agent', () => {
    expect(iterateSeen('/etc/agentgate-test-ca.pem', { viaNode: true })).toEqual({
      child: '/etc/agentgate-test-ca.pem',
      carried: UNSET,
      parentHadIt: true,
    });
  });
});
