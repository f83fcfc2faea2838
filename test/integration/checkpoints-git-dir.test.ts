/**
 * A bare repository, or a directory inside a git dir, is no workspace for checkpoints: its refs and
 * objects are not files to capture or rewrite. Every checkpoint command refuses it with
 * UNSAFE_WORKSPACE and writes nothing; an agent hook there records nothing and still exits 0. A
 * directory that is no repository at all keeps its checkpoints.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fingerprint } from '../helpers/checkpoints.js';
import { runCli } from '../helpers/cli.js';
import { git, tempDir, writeFiles } from '../helpers/repo.js';

/** A bare repository that a clone pushed one commit to. */
function pushedBare(): string {
  const root = tempDir('agentgate-cp-bare-');
  const bare = join(root, 'bare.git');
  git(root, ['init', '-q', '--bare', '-b', 'main', bare]);
  const clone = join(root, 'clone');
  git(root, ['init', '-q', '-b', 'main', clone]);
  git(clone, ['remote', 'add', 'origin', bare]);
  writeFiles(clone, { f: '1\n' });
  git(clone, ['add', 'f']);
  git(clone, ['commit', '-q', '-m', 'c1']);
  git(clone, ['push', '-q', 'origin', 'main']);
  return bare;
}

const COMMANDS = [
  ['track', '--label', 'A'],
  ['list'],
  ['status'],
  ['gc'],
  ['patch', 'latest'],
  ['diff', 'latest'],
  ['diff-full', 'latest'],
  ['restore', 'latest'],
  ['revert', 'latest'],
];

describe('checkpoints in a git dir', () => {
  it.each([
    ['a bare repository', ''],
    ['a directory inside a bare repository', 'refs'],
    ['a directory inside a bare repository (objects)', 'objects'],
  ])('refuse %s with UNSAFE_WORKSPACE for every command, writing nothing', (_name, below) => {
    const bare = pushedBare();
    const dir = join(bare, below);
    const home = tempDir('agentgate-cp-bare-home-');
    const before = fingerprint(bare);
    for (const args of COMMANDS) {
      const res = runCli(['checkpoint', ...args, '--json', '-C', dir], { env: { AGENTGATE_HOME: home } });
      expect([args[0], res.status, (res.json() as { error?: { code?: string } }).error?.code]).toEqual([
        args[0],
        1,
        'UNSAFE_WORKSPACE',
      ]);
    }
    expect(existsSync(join(home, 'checkpoints'))).toBe(false);
    expect(fingerprint(bare)).toEqual(before);
    expect(git(bare, ['rev-parse', 'main'])).toMatch(/^[0-9a-f]{40}$/);
  });

  it('an agent hook there records nothing and exits 0', () => {
    const bare = pushedBare();
    const home = tempDir('agentgate-cp-bare-hook-');
    const before = fingerprint(bare);
    const event = JSON.stringify({
      session_id: 's1',
      cwd: bare,
      hook_event_name: 'UserPromptSubmit',
      prompt: 'p',
    });
    const hook = runCli(['hook', 'claude-code'], { input: event, env: { AGENTGATE_HOME: home } });
    expect(hook.status).toBe(0);
    expect(existsSync(join(home, 'checkpoints'))).toBe(false);
    expect(fingerprint(bare)).toEqual(before);
    expect(readFileSync(join(home, 'logs', 'hooks.log'), 'utf8')).toContain('UNSAFE_WORKSPACE');
  });

  it('a directory that is no repository keeps its checkpoints', () => {
    const dir = tempDir('agentgate-cp-plain-');
    const home = tempDir('agentgate-cp-plain-home-');
    writeFiles(dir, { 'a.txt': 'one\n' });
    const env = { AGENTGATE_HOME: home };
    expect(runCli(['checkpoint', 'track', '--json', '-C', dir], { env }).status).toBe(0);
    expect(readdirSync(join(home, 'checkpoints'))[0]).toMatch(/^path-/);
    writeFiles(dir, { 'a.txt': 'two\n' });
    expect(runCli(['checkpoint', 'restore', 'latest', '--json', '-C', dir], { env }).status).toBe(0);
    expect(readFileSync(join(dir, 'a.txt'), 'utf8')).toBe('one\n');
  });

  it("refuse a home inside the workspace's git dir (UNSAFE_WORKSPACE), as before and after do, writing nothing there", () => {
    const dir = tempDir('agentgate-cp-home-in-git-');
    git(dir, ['init', '-q', '-b', 'main']);
    writeFiles(dir, { 'a.txt': 'one\n' });
    git(dir, ['add', 'a.txt']);
    git(dir, ['commit', '-q', '-m', 'c1']);
    const before = fingerprint(join(dir, '.git'));
    // Below refs/, every file of a store would be a broken ref of the workspace's repository.
    for (const home of [join(dir, '.git', 'refs', 'agentgate'), join(dir, '.git', 'agentgate')]) {
      const res = runCli(['checkpoint', 'track', '--json', '-C', dir, '--home', home]);
      expect([res.status, (res.json() as { error?: { code?: string } }).error?.code]).toEqual([
        1,
        'UNSAFE_WORKSPACE',
      ]);
      expect(existsSync(home)).toBe(false);
    }
    expect(fingerprint(join(dir, '.git'))).toEqual(before);
    expect(git(dir, ['for-each-ref', '--format=%(refname)'])).toBe('refs/heads/main');
  });
});
