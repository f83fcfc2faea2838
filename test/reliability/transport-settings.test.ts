/**
 * Settings that make a push or fetch write files or weaken https, planted where an agent can plant
 * them: a non-bare local remote that checks a pushed ref out through its own filter
 * (`receive.denyCurrentBranch=updateInstead`), and the workspace's `http.*` keys, plain and
 * `http.<url>.*`, against a local https server. Each has a control with plain git.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpsServer, type HttpsServer } from '../helpers/https-server.js';
import { git, oracleEnv } from '../helpers/repo.js';
import { cliIn } from '../helpers/cli.js';
import { runIterations, world, type Machine, type World } from '../helpers/sharing.js';

let w: World;
let a: Machine;
let server: HttpsServer;
let url = '';

const plain = (cwd: string, args: string[]) =>
  spawnSync('git', ['-c', 'core.hooksPath=/dev/null', ...args], { cwd, env: oracleEnv(), encoding: 'utf8' });
const errorCode = (res: { stdout: string }) =>
  (JSON.parse(res.stdout) as { error?: { code?: string } }).error?.code;
/** Sets `pairs` in the workspace's config for one test, and removes them after it. */
function withConfig(pairs: Array<[string, string]>, body: () => void): void {
  for (const [key, value] of pairs) git(a.dir, ['config', key, value]);
  try {
    body();
  } finally {
    for (const [key] of pairs) git(a.dir, ['config', '--unset-all', key]);
  }
}

beforeAll(async () => {
  w = world();
  a = w.machine('a');
  await runIterations(a, 'armed', 1);
  server = await startHttpsServer(w.root);
  url = `https://127.0.0.1:${server.port}/empty.git`;
  git(a.dir, ['config', 'remote.https.url', url]);
}, 120_000);

afterAll(() => {
  server?.stop();
  w?.cleanup();
});

describe('a local remote that would check the pushed ref out', () => {
  it('is PUSH_REJECTED: its filter never runs and its work tree stays empty', () => {
    const remote = join(w.root, 'checkout');
    const marker = join(w.root, 'smudged');
    git(w.root, ['init', '-q', remote]);
    git(remote, ['config', 'receive.denyCurrentBranch', 'updateInstead']);
    git(remote, ['config', 'filter.fx.smudge', `touch '${marker}'; cat`]);
    writeFileSync(join(remote, '.git', 'info', 'attributes'), '* filter=fx\n');
    git(remote, ['symbolic-ref', 'HEAD', 'refs/agentgate/records/armed/iteration-0']);

    const res = cliIn(a.dir, a.home, ['push', '--remote', remote]);
    expect(errorCode(res)).toBe('PUSH_REJECTED');
    expect(readdirSync(remote)).toEqual(['.git']);
    expect(readdirSync(w.root)).not.toContain('smudged');

    // Control: plain git's push checks the ref out through the filter.
    expect(plain(a.dir, ['push', '-q', remote, 'HEAD:refs/agentgate/records/armed/iteration-0']).status).toBe(
      0,
    );
    expect(readdirSync(w.root)).toContain('smudged');
  });
});

describe("the workspace's http settings", () => {
  /** The section of settings for the server's URL (known once it listens). */
  const at = () => `http.https://127.0.0.1:${server.port}/`;

  it.each([
    ['plain', () => 'http'],
    ['for the URL', at],
  ])('a cookie file (%s) is neither read nor overwritten by the jar', (_, section) => {
    const precious = join(w.root, 'precious.txt');
    writeFileSync(precious, 'the user file\n');
    withConfig(
      [
        ['http.sslCAInfo', server.cert],
        [`${section()}.cookieFile`, precious],
        [`${section()}.saveCookies`, 'true'],
      ],
      () => {
        const before = server.requests();
        expect(cliIn(a.dir, a.home, ['fetch', '--remote', 'https']).status).toBe(0);
        expect(server.requests()).toBeGreaterThan(before);
        expect(readFileSync(precious, 'utf8')).toBe('the user file\n');
        // Control: plain git writes its cookie jar over the file.
        plain(a.dir, ['ls-remote', 'https']);
        expect(readFileSync(precious, 'utf8')).toMatch(/planted/);
      },
    );
  });

  it.each([
    ['plain', () => 'http'],
    ['for the URL', at],
  ])(
    'sslVerify=false (%s) is ignored: an unknown certificate is refused before any request',
    (_, section) => {
      withConfig([[`${section()}.sslVerify`, 'false']], () => {
        const before = server.requests();
        expect(errorCode(cliIn(a.dir, a.home, ['fetch', '--remote', 'https']))).toBe('REMOTE_NOT_FOUND');
        expect(server.requests()).toBe(before);
        plain(a.dir, ['ls-remote', 'https']);
        expect(server.requests()).toBeGreaterThan(before);
      });
    },
  );

  it('a proxy for the URL is not used', () => {
    withConfig(
      [
        ['http.sslCAInfo', server.cert],
        [`${at()}.proxy`, 'http://127.0.0.1:1'],
      ],
      () => {
        const before = server.requests();
        plain(a.dir, ['ls-remote', 'https']);
        expect(server.requests()).toBe(before);
        cliIn(a.dir, a.home, ['fetch', '--remote', 'https']);
        expect(server.requests()).toBeGreaterThan(before);
      },
    );
  });

  it('a client certificate for the URL is REMOTE_UNSAFE', () => {
    withConfig([[`${at()}.sslCert`, server.cert]], () => {
      expect(errorCode(cliIn(a.dir, a.home, ['fetch', '--remote', 'https']))).toBe('REMOTE_UNSAFE');
    });
  });
});
