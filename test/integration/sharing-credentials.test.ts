/**
 * A remote URL that carries credentials (`https://user:token@host/...`, what CI scripts build from a
 * secret): push and fetch use it, and it is never printed (results, messages, details, git's own
 * words) nor written into the home or the repository.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsServer, type HttpsServer } from '../helpers/https-server.js';
import { git } from '../helpers/repo.js';
import { cliIn, runCli } from '../helpers/cli.js';
import { runIterations, world, type Machine, type World } from '../helpers/sharing.js';

const SECRET = 'tok3n-s3cret';

let w: World;
let a: Machine;
let server: HttpsServer;
let base = '';

/** Every file under `dir` (the workspace's `.git/config`, where the test itself wrote a URL, aside) that holds the secret. */
function filesHolding(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    if (path === join(a.dir, '.git', 'config') || !statSync(path).isFile()) continue;
    if (readFileSync(path).includes(SECRET)) out.push(path);
  }
  return out;
}

beforeAll(async () => {
  w = world();
  a = w.machine('a');
  await runIterations(a, 'cred', 1);
  server = await startHttpsServer(w.root);
  base = `127.0.0.1:${server.port}`;
  git(a.dir, ['config', 'http.sslCAInfo', server.cert]);
}, 120_000);

afterAll(() => {
  server?.stop();
  w?.cleanup();
});

describe('a remote URL with credentials', () => {
  it('works for fetch and is not printed in its result', () => {
    for (const json of [true, false]) {
      const url = `https://user:${SECRET}@${base}/empty.git`;
      const args = ['-C', a.dir, '--home', a.home, ...(json ? ['--json'] : []), 'fetch', '--remote', url];
      const res = runCli(args, { cwd: a.dir });
      expect(res.status, res.stdout + res.stderr).toBe(0);
      expect(res.stdout + res.stderr).not.toContain(SECRET);
      if (json) expect((res.json() as { remote: string }).remote).toContain(base);
    }
  });

  it.each([
    ['a refusal of the server (401)', () => `https://user:${SECRET}@${base}/private.git`, 'push'],
    ['a server nobody answers at', () => `https://user:${SECRET}@127.0.0.1:1/x.git`, 'fetch'],
    ['a token as the user name', () => `https://${SECRET}@127.0.0.1:1/x.git`, 'push'],
    ['a refused transport', () => `http://user:${SECRET}@${base}/empty.git`, 'push'],
    ['ssh with a password', () => `ssh://git:${SECRET}@127.0.0.1:1/x.git`, 'fetch'],
  ])('is not printed in an error: %s', (_, url, command) => {
    for (const json of [true, false]) {
      const args = ['-C', a.dir, '--home', a.home, ...(json ? ['--json'] : []), command, '--remote', url()];
      const res = runCli(args, { cwd: a.dir, env: { GIT_SSH_COMMAND: 'false' } });
      expect(res.status).toBe(1);
      expect(res.stdout + res.stderr).not.toContain(SECRET);
      if (json)
        expect((res.json() as { error: { code: string } }).error.code).toMatch(
          /^(REMOTE_NOT_FOUND|REMOTE_UNSAFE|GIT_FAILED|PUSH_REJECTED)$/,
        );
    }
  });

  it("of a configured remote is not printed either, and the remote's name is", () => {
    git(a.dir, ['config', 'remote.secret.url', `https://ci:${SECRET}@127.0.0.1:1/x.git`]);
    try {
      const res = cliIn(a.dir, a.home, ['push', '--remote', 'secret']);
      expect(res.status).toBe(1);
      expect(res.stdout + res.stderr).not.toContain(SECRET);
      expect((res.json() as { error: { code: string } }).error.code).toBe('REMOTE_NOT_FOUND');
    } finally {
      git(a.dir, ['config', '--remove-section', 'remote.secret']);
    }
  });

  it('is written into neither the home nor the repository', () => {
    expect([...filesHolding(a.home), ...filesHolding(join(a.dir, '.git'))]).toEqual([]);
  });
});
