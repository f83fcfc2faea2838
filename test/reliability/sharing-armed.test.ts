/**
 * push, fetch, export and import between armed repositories (fixtures/make-armed-repo.sh: hooks,
 * hooksPath, fsmonitor, filters, drivers, ...), through a bare remote whose own hooks are armed and
 * whose configured upload-pack and receive-pack are programs, with a hostile caller environment:
 * nothing armed runs, and the run verifies on the other side.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { oracleEnv, tempDir } from '../helpers/repo.js';

const SCRIPT = new URL('../../fixtures/make-armed-repo.sh', import.meta.url).pathname;
const root = tempDir('agentgate-sharing-armed-');
const [a, b, remote, markers, bogus] = ['a', 'b', 'remote.git', 'markers', 'bogus'].map((n) =>
  join(root, n),
) as [string, string, string, string, string];
const never = join(root, 'never');

const ENV: NodeJS.ProcessEnv = {
  GIT_DIR: join(bogus, 'git-dir'),
  GIT_WORK_TREE: join(bogus, 'work-tree'),
  GIT_INDEX_FILE: join(bogus, 'index'),
  GIT_SSH_COMMAND: never,
  GIT_ASKPASS: never,
  GIT_PROXY_COMMAND: never,
  GIT_EXTERNAL_DIFF: never,
};

function cli(repo: string, home: string, args: string[]): unknown {
  const res = runCli(['-C', repo, '--home', home, ...args, '--json'], { env: ENV, cwd: repo });
  expect(readdirSync(markers), `armed programs that ran during "${args.join(' ')}"`).toEqual([]);
  expect(res.status, `${args.join(' ')}: ${res.stdout}${res.stderr}`).toBe(0);
  return JSON.parse(res.stdout);
}

const plain = (cwd: string, args: string[]): string =>
  execFileSync('git', args, { cwd, env: oracleEnv() }).toString().trim();

beforeAll(() => {
  for (const repo of [a, b]) execFileSync('sh', [SCRIPT, repo, markers], { env: oracleEnv(), stdio: 'pipe' });
  writeFileSync(never, `#!/bin/sh\ntouch '${markers}/env-program'\nexit 1\n`, { mode: 0o755 });
  plain(root, ['init', '-q', '--bare', remote]);
  // The remote's own hooks, and programs named as upload-pack and receive-pack in both clones.
  for (const hook of [
    'pre-receive',
    'update',
    'post-receive',
    'post-update',
    'reference-transaction',
    'push-to-checkout',
  ]) {
    writeFileSync(join(remote, 'hooks', hook), `#!/bin/sh\ntouch '${markers}/remote-${hook}'\nexit 0\n`);
    chmodSync(join(remote, 'hooks', hook), 0o755);
  }
  mkdirSync(bogus, { recursive: true });
  for (const repo of [a, b]) {
    plain(repo, ['-c', 'core.hooksPath=/dev/null', 'remote', 'add', 'origin', remote]);
    plain(repo, ['config', 'remote.origin.uploadpack', never]);
    plain(repo, ['config', 'remote.origin.receivepack', never]);
  }
  expect(readdirSync(markers)).toEqual([]);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('sharing between armed repositories', () => {
  it('push, fetch, export and import run nothing armed, and the run verifies on the other side', () => {
    const [homeA, homeB, homeC] = ['home-a', 'home-b', 'home-c'].map((n) => join(root, n)) as [
      string,
      string,
      string,
    ];
    cli(a, homeA, ['before', '--run', 'armed']);
    writeFileSync(join(a, 'data.txt'), 'changed by the agent\n');
    cli(a, homeA, ['after', '--run', 'armed', '--iteration', '0', '--task', 'armed task']);
    expect(cli(a, homeA, ['push'])).toMatchObject({ refs: 1 });
    expect(cli(b, homeB, ['fetch'])).toMatchObject({ runs: ['armed'], snapshots: 1, refused: [] });
    expect(cli(b, homeB, ['verify', '--run', 'armed'])).toMatchObject({ ok: true });
    const bundle = join(root, 'armed.bundle');
    cli(a, homeA, ['export', '-o', bundle]);
    expect(cli(b, homeC, ['import', bundle])).toMatchObject({ runs: ['armed'], snapshots: 1 });
    expect(cli(b, homeC, ['verify', '--all'])).toMatchObject({ ok: true });
    expect(plain(remote, ['for-each-ref', '--format=%(refname)'])).toBe(
      'refs/agentgate/records/armed/iteration-0',
    );
  });

  it('control: a plain git push to the same remote runs its hooks (the arming is live)', () => {
    plain(a, [
      '-c',
      'core.hooksPath=/dev/null',
      'push',
      '-q',
      '--receive-pack=git-receive-pack',
      remote,
      'main:refs/heads/control',
    ]);
    expect(readdirSync(markers)).toContain('remote-pre-receive');
  });
});
