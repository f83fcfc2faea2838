/**
 * An index.lock is removed only when no git could own it. A real `git commit -a` whose editor is
 * open (fixtures/wait-editor.sh) keeps `.git/index.lock` closed: no process holds it open, yet the
 * commit will rename it into place. `before` and `after` must leave it alone (wait, then
 * INDEX_LOCKED naming it), and the user's commit must then succeed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BeforeState } from '../../types/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { git, oracleEnv, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const EDITOR = new URL('../../fixtures/wait-editor.sh', import.meta.url).pathname;

const cleanup: string[] = [];
afterEach(() => {
  for (const d of cleanup.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(lockTimeoutMs: number) {
  const ws = repoWithCommit({ 'a.txt': 'one\n' });
  const home = tempDir('agentgate-home-');
  const signals = tempDir('agentgate-editor-');
  cleanup.push(ws, home, signals);
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, 'config.yaml'), `lockTimeoutMs: ${lockTimeoutMs}\n`);
  const run = (args: string[]) => runCli(['-C', ws, '--json', ...args], { env: { AGENTGATE_HOME: home } });
  return { ws, run, started: join(signals, 'started'), release: join(signals, 'release') };
}

/** The user's `git commit -a`, stopped in its editor until `release` exists. */
async function userCommit(ws: string, started: string, release: string): Promise<ChildProcess> {
  const child = spawn('git', ['-c', 'core.hooksPath=/dev/null', 'commit', '-a'], {
    cwd: ws,
    stdio: 'ignore',
    env: oracleEnv({ GIT_EDITOR: `sh ${EDITOR}`, EDITOR_STARTED: started, EDITOR_RELEASE: release }),
  });
  while (!existsSync(started)) await new Promise((resolve) => setTimeout(resolve, 20));
  return child;
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => child.on('exit', (code) => resolve(code)));
}

function code(res: { status: number | null; stdout: string }): string | null {
  return res.status === 0 ? null : (JSON.parse(res.stdout) as { error: { code: string } }).error.code;
}

describe('an index.lock a live git may own', () => {
  it('before and after leave it alone and fail INDEX_LOCKED naming it; the user commit then succeeds', async () => {
    const { ws, run, started, release } = setup(1000);
    expect(run(['before', '--run', 'r']).status).toBe(0);
    writeFiles(ws, { 'a.txt': 'user edit\n' });
    const commit = await userCommit(ws, started, release);
    const exited = exitOf(commit);
    const lock = join(ws, '.git', 'index.lock');
    try {
      expect(existsSync(lock)).toBe(true);
      for (const args of [
        ['after', '--run', 'r', '--iteration', '1'],
        ['before', '--run', 'r2'],
      ]) {
        const res = run(args);
        expect(code(res), res.stdout).toBe('INDEX_LOCKED');
        expect(res.stdout).toContain(lock);
        expect(existsSync(lock)).toBe(true);
      }
    } finally {
      writeFileSync(release, '');
    }
    expect(await exited).toBe(0);
    expect(git(ws, ['log', '-1', '--format=%s'])).toBe('user message');
    expect(git(ws, ['status', '--porcelain'])).toBe('');
    // With the commit done, the next before starts from it.
    const res = run(['before', '--run', 'r2']);
    expect(res.status, res.stdout).toBe(0);
    expect(BeforeState.parse(res.json()).sha).toBe(git(ws, ['rev-parse', 'HEAD']));
  });

  it('a before that arrives while the editor is open waits for the commit, then starts from it', async () => {
    const { ws, run, started, release } = setup(60_000);
    writeFiles(ws, { 'a.txt': 'user edit\n' });
    const commit = await userCommit(ws, started, release);
    const exited = exitOf(commit);
    // Someone closes the editor a moment later, while before waits.
    const closer = spawnSync('sh', ['-c', `(sleep 1; : > "${release}") >/dev/null 2>&1 &`]);
    expect(closer.status).toBe(0);
    const res = run(['before', '--run', 'w']);
    expect(res.status, res.stdout).toBe(0);
    expect(await exited).toBe(0);
    expect(git(ws, ['log', '-1', '--format=%s'])).toBe('user message');
    expect(BeforeState.parse(res.json()).sha).toBe(git(ws, ['rev-parse', 'HEAD']));
    expect(BeforeState.parse(res.json()).wipSha).toBeNull();
  });
});
