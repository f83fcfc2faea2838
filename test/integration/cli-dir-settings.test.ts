/**
 * A home or artifacts directory that a file, a link to nowhere or a loop of links stands at (or
 * above), or whose path cannot be resolved, is refused by every command before any work, naming what
 * set it: INVALID_ARGUMENT (CONFIG_INVALID for the config file's artifactsDir).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BeforeState, Snapshot } from '../../types/snapshot.js';
import { loadAllCommands } from '../../src/cli/commands/index.js';
import type { Command } from '../../src/cli/spec.js';
import { CLI, cliIn, okIn, runCli, runCliAsync, type CliResult } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

interface Failure {
  code: string;
  details: Record<string, unknown>;
}

function errorOf(res: CliResult): Failure {
  return (res.json() as { error: Failure }).error;
}

/** INVALID_ARGUMENT naming the home and what set it; an agent's hook says so on stderr and exits 0. */
function expectRefused(command: Command, source: string, done: CliResult, home: string): void {
  const what = `${command.name} with ${source}: ${done.stdout}${done.stderr}`;
  if (command.name.startsWith('hook ') && !['hook install', 'hook uninstall'].includes(command.name)) {
    // An agent's hook never fails its agent.
    expect(done.status, what).toBe(0);
    expect(done.stderr, what).toContain('INVALID_ARGUMENT');
    return;
  }
  expect(done.status, what).toBe(2);
  expect(errorOf(done), what).toMatchObject({ code: 'INVALID_ARGUMENT', details: { home, source } });
}

describe('a home or artifacts directory that a file stands at', () => {
  /** The command's words, its required options and positionals: enough to get past the parser. */
  function argsOf(command: Command): string[] {
    const args = command.name.split(' ');
    for (const [name, decl] of Object.entries(command.options)) {
      if (decl.type === 'boolean' || decl.required !== true) continue;
      args.push(`--${name}`, decl.type === 'integer' ? String(decl.min ?? 0) : (decl.choices?.[0] ?? 'x'));
    }
    // After `--`, so that a group's word (`gate`) is not taken with the first one as a subcommand.
    const { required } = command.positionals;
    return required.length === 0 ? args : [...args, '--', ...required.map(() => 'x')];
  }

  it('is INVALID_ARGUMENT naming --home or AGENTGATE_HOME for every command, before any work', async () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const file = join(tempDir('agentgate-home-file-'), 'afile');
    writeFileSync(file, 'not a directory\n');
    const head = git(ws, ['rev-parse', 'HEAD']);
    const commands = await loadAllCommands();
    // Four commands at a time, each with the home named both ways: a process each.
    for (let at = 0; at < commands.length; at += 4) {
      const runs = commands.slice(at, at + 4).flatMap((command) => [
        {
          command,
          source: '--home',
          done: runCliAsync(['-C', ws, '--home', file, '--json', ...argsOf(command)]),
        },
        {
          command,
          source: 'AGENTGATE_HOME',
          done: runCliAsync(['-C', ws, '--json', ...argsOf(command)], { env: { AGENTGATE_HOME: file } }),
        },
      ]);
      for (const { command, source, done } of runs) expectRefused(command, source, await done, file);
    }
    expect(readFileSync(file, 'utf8')).toBe('not a directory\n');
    expect(git(ws, ['rev-parse', 'HEAD'])).toBe(head);
    expect(git(ws, ['status', '--porcelain'])).toBe('');
  });

  it('names the default home when ~/.agentgate is a file', () => {
    const account = tempDir('agentgate-account-');
    writeFileSync(join(account, '.agentgate'), 'not a directory\n');
    const res = runCli(['runs', '--json'], { env: { HOME: account, AGENTGATE_HOME: '' } });
    expect(res.status).toBe(2);
    expect(errorOf(res)).toMatchObject({ code: 'INVALID_ARGUMENT', details: { source: 'default' } });
  });

  it('is INVALID_ARGUMENT for --artifacts-dir and AGENTGATE_ARTIFACTS_DIR, CONFIG_INVALID for the config, before committing', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const home = tempDir('agentgate-own-home-');
    const file = join(tempDir('agentgate-arts-file-'), 'afile');
    writeFileSync(file, 'not a directory\n');
    // A symbolic link to nowhere: mkdir -p cannot make a directory there either.
    const dangling = join(tempDir('agentgate-arts-link-'), 'dangling');
    symlinkSync(join(dangling, '..', 'nowhere', 'x'), dangling);
    okIn<BeforeState>(ws, home, ['before', '--run', 'f1']);
    writeFiles(ws, { 'a.txt': 'changed\n' });
    const head = git(ws, ['rev-parse', 'HEAD']);
    const after = ['after', '--run', 'f1', '--iteration', '1'];
    const iterate = ['iterate', '--run', 'f1', '--iteration', '1', '--', 'true'];
    for (const args of [after, iterate]) {
      for (const [extra, env, source] of [
        [['--artifacts-dir', file], {}, '--artifacts-dir'],
        [[], { AGENTGATE_ARTIFACTS_DIR: file }, 'AGENTGATE_ARTIFACTS_DIR'],
        [['--artifacts-dir', join(file, 'below')], {}, '--artifacts-dir'],
        [['--artifacts-dir', dangling], {}, '--artifacts-dir'],
        [['--artifacts-dir', join(dangling, 'below')], {}, '--artifacts-dir'],
      ] as const) {
        const res = cliIn(ws, home, [...extra, ...args], env);
        expect(res.status, res.stdout).toBe(2);
        expect(errorOf(res)).toMatchObject({ code: 'INVALID_ARGUMENT', details: { source } });
      }
    }
    const config = join(tempDir('agentgate-config-'), 'config.yaml');
    writeFileSync(config, `artifactsDir: ${file}\n`);
    const res = cliIn(ws, home, ['--config', config, ...after]);
    expect(errorOf(res).code).toBe('CONFIG_INVALID');
    // Nothing was done: no commit, no snapshot; the same call then succeeds.
    expect(git(ws, ['rev-parse', 'HEAD'])).toBe(head);
    expect(okIn<Snapshot>(ws, home, after).filesChanged).toBe(1);
  });

  it('refuses a loop of symbolic links (at it or above it), or any path that cannot be resolved, before any work', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const home = tempDir('agentgate-own-home-');
    const loop = join(tempDir('agentgate-loop-'), 'loopy');
    symlinkSync(loop, loop);
    const head = git(ws, ['rev-parse', 'HEAD']);
    writeFiles(ws, { 'a.txt': 'changed\n' });
    // A name longer than a file system allows cannot be resolved either (ENAMETOOLONG).
    for (const dir of [loop, join(loop, 'below'), join(home, 'n'.repeat(300))]) {
      for (const [args, env, source] of [
        [['--home', dir, 'runs'], {}, '--home'],
        [['before', '--run', 'l1'], { AGENTGATE_HOME: dir }, 'AGENTGATE_HOME'],
      ] as const) {
        const res = runCli(['-C', ws, '--json', ...args], { env });
        expect(res.status, res.stdout).toBe(2);
        expect(errorOf(res)).toMatchObject({ code: 'INVALID_ARGUMENT', details: { home: dir, source } });
      }
      for (const [extra, env, source] of [
        [['--artifacts-dir', dir], {}, '--artifacts-dir'],
        [[], { AGENTGATE_ARTIFACTS_DIR: dir }, 'AGENTGATE_ARTIFACTS_DIR'],
      ] as const) {
        const res = cliIn(ws, home, [...extra, 'before', '--run', 'l1'], env);
        expect(res.status, res.stdout).toBe(2);
        expect(errorOf(res)).toMatchObject({
          code: 'INVALID_ARGUMENT',
          details: { artifactsDir: dir, source },
        });
      }
      const config = join(tempDir('agentgate-config-'), 'config.yaml');
      writeFileSync(config, `artifactsDir: ${dir}\n`);
      expect(errorOf(cliIn(ws, home, ['--config', config, 'before', '--run', 'l1'])).code).toBe(
        'CONFIG_INVALID',
      );
    }
    // Nothing was done: no WIP commit, no run.
    expect(git(ws, ['rev-parse', 'HEAD'])).toBe(head);
    expect(okIn<unknown[]>(ws, home, ['runs'])).toEqual([]);
  });
});

describe('a home or artifacts directory whose name is not UTF-8', () => {
  it('is INVALID_ARGUMENT naming what set it, making no directory under another name', () => {
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const parent = tempDir('agentgate-not-utf8-');
    const home = join(parent, 'home');
    // What Node makes of a name that is not UTF-8 on its command line or in its environment.
    const odd = join(parent, 'h\ufffdx');
    for (const [args, env, source] of [
      [['--home', odd, 'runs'], {}, '--home'],
      [['before', '--run', 'u1'], { AGENTGATE_HOME: odd }, 'AGENTGATE_HOME'],
    ] as const) {
      const res = runCli(['-C', ws, '--json', ...args], { env });
      expect(res.status, res.stdout).toBe(2);
      expect(errorOf(res)).toMatchObject({ code: 'INVALID_ARGUMENT', details: { home: odd, source } });
    }
    for (const [extra, env, source] of [
      [['--artifacts-dir', join(odd, 'arts')], {}, '--artifacts-dir'],
      [[], { AGENTGATE_ARTIFACTS_DIR: odd }, 'AGENTGATE_ARTIFACTS_DIR'],
    ] as const) {
      const res = cliIn(ws, home, [...extra, 'before', '--run', 'u1'], env);
      expect(res.status, res.stdout).toBe(2);
      expect(errorOf(res)).toMatchObject({ code: 'INVALID_ARGUMENT', details: { source } });
    }
    const config = join(parent, 'config.yaml');
    writeFileSync(config, `artifactsDir: ${JSON.stringify(odd)}\n`);
    expect(errorOf(cliIn(ws, home, ['--config', config, 'before', '--run', 'u1'])).code).toBe(
      'CONFIG_INVALID',
    );
    // The real bytes, through a shell: neither that name nor its U+FFFD reading is made.
    const shell = (script: string) =>
      spawnSync('sh', ['-c', script, process.execPath, CLI, join(parent, 'h'), ws], { encoding: 'utf8' });
    for (const script of [
      'exec "$0" "$1" -C "$3" --home "$2$(printf "\\377")x" --json runs',
      'AGENTGATE_HOME="$2$(printf "\\377")x" exec "$0" "$1" -C "$3" --json before --run u1',
    ]) {
      const res = shell(script);
      expect(res.status, res.stdout + res.stderr).toBe(2);
      expect(JSON.parse(res.stdout)).toMatchObject({ error: { code: 'INVALID_ARGUMENT' } });
    }
    expect(readdirSync(parent).sort()).toEqual(['config.yaml']);
    expect(git(ws, ['status', '--porcelain'])).toBe('');
  });

  it('a directory already there whose UTF-8 name holds a real U+FFFD is used', () => {
    const home = join(tempDir('agentgate-real-fffd-'), 'h\ufffdx');
    mkdirSync(home);
    expect(okIn<unknown[]>(repoWithCommit({ 'a.txt': 'a\n' }), home, ['runs'])).toEqual([]);
  });
});

describe('a home given as ~/DIR where no shell expands it', () => {
  it('--home=~/DIR and AGENTGATE_HOME=~/DIR are under the account home, as --artifacts-dir=~/DIR is', () => {
    const account = tempDir('agentgate-account-');
    const ws = repoWithCommit({ 'a.txt': 'a\n' });
    const env = { HOME: account, AGENTGATE_HOME: '', AGENTGATE_ARTIFACTS_DIR: '' };
    const before = (extra: string[], more: NodeJS.ProcessEnv = {}) =>
      runCli(['-C', ws, ...extra, '--json', 'before', '--run', 'r'], { cwd: ws, env: { ...env, ...more } });
    expect(before(['--home=~/by-option']).status).toBe(0);
    expect(before([], { AGENTGATE_HOME: '~/by-variable' }).status).toBe(0);
    expect(readdirSync(join(account, 'by-option'))).toContain('runs');
    expect(readdirSync(join(account, 'by-variable'))).toContain('runs');
    // Nothing named "~" was made in the workspace (the working directory).
    expect(readdirSync(ws).sort()).toEqual(['.git', 'a.txt']);
  });
});
