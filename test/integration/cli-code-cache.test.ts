/**
 * The bin keeps V8's code cache per user (src/cli/code-cache.ts): written after a run of a command
 * it does not hold yet, left alone otherwise, private, and never a reason for a command to fail. A
 * damaged, foreign-writable or unwritable cache is passed over and the command works as without one.
 * Each test installs a copy of the bin in a project of its own, whose node_modules/.cache holds it.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeCodeCache } from '../../src/cli/code-cache.js';
import { CLI } from '../helpers/cli.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

/** A copy of the bin, installed in a project of its own, and a home; `run` calls it. */
function setup() {
  const project = tempDir('code-cache-');
  const home = tempDir('code-cache-home-');
  const bin = install(project);
  const dir = join(project, 'node_modules', '.cache', 'agentgate-snapshot');
  const run = (args: string[], env: NodeJS.ProcessEnv = {}, nodeOptions: string[] = []) =>
    spawnSync(process.execPath, [...nodeOptions, bin, ...args], {
      env: { ...process.env, AGENTGATE_HOME: home, ...env },
      encoding: 'utf8',
    });
  const files = () => (existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.v8')) : []);
  /** The commands with a cache file (`none` for no command), in order. */
  const commands = () =>
    files()
      .map((f) => f.split('.')[1] as string)
      .sort();
  const file = (command: string) => join(dir, files().find((f) => f.split('.')[1] === command) as string);
  const cache = (command: string) => decodeCodeCache(readFileSync(file(command)));
  return { project, dir, run, files, commands, file, cache };
}

/** The bin and its bundle as npm installs them in `project`; returns the bin's path. */
function install(project: string): string {
  const pkg = join(project, 'node_modules', 'agentgate-snapshotter');
  mkdirSync(join(pkg, 'dist', 'bin'), { recursive: true });
  writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'agentgate-snapshotter', type: 'module' }));
  for (const file of [basename(CLI), 'cli.cjs'])
    copyFileSync(join(dirname(CLI), file), join(pkg, 'dist', 'bin', file));
  return join(pkg, 'dist', 'bin', basename(CLI));
}

function ok(res: { status: number | null; stdout: string; stderr: string }): string {
  expect(res.status, res.stdout + res.stderr).toBe(0);
  return res.stdout;
}

describe('the code cache', () => {
  it('is written, one file per command, by the first run of a command, in a private directory, and otherwise left alone', () => {
    const { dir, run, commands, file, cache } = setup();
    expect(ok(run(['runs', '--json']))).toBe('[]\n');
    expect(commands()).toEqual(['runs']);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file('runs')).mode & 0o022).toBe(0);
    expect(cache('runs')?.complete).toBe(true);

    const before = statSync(file('runs'));
    ok(run(['runs', '--json']));
    expect([statSync(file('runs')).ino, statSync(file('runs')).mtimeMs]).toEqual([
      before.ino,
      before.mtimeMs,
    ]);

    ok(run(['list', '--json']));
    ok(run(['--version']));
    expect(commands()).toEqual(['list', 'none', 'runs']);
    // Neither an unknown command, a command's --help, nor a command after a global option is kept:
    // the bin's guess of the command and the command that ran must agree.
    expect(run(['no-such-command']).status).toBe(2);
    ok(run(['show', '--help']));
    ok(run(['--home', tempDir('code-cache-other-home-'), 'runs', '--json']));
    expect(commands()).toEqual(['list', 'none', 'runs']);
  });

  it('keeps the cache of a command that failed, and replaces it after the command next succeeds', () => {
    const { run, file, cache } = setup();
    const repo = repoWithCommit();
    expect(run(['list', '-C', repo, '--run', 'no-such-run', '--json']).status).not.toBe(0);
    expect(cache('list')?.complete).toBe(false);
    const failed = statSync(file('list')).ino;
    expect(run(['list', '-C', repo, '--run', 'no-such-run', '--json']).status).not.toBe(0);
    expect(statSync(file('list')).ino).toBe(failed);
    ok(run(['list', '--json']));
    expect(cache('list')?.complete).toBe(true);
    expect(statSync(file('list')).ino).not.toBe(failed);
  });

  it('passes over a damaged cache, a cache or directory others may write, and a cache it cannot write', () => {
    const { dir, run, file, cache } = setup();
    ok(run(['runs', '--json']));
    const good = readFileSync(file('runs'));

    const damaged = Buffer.from(good);
    for (let i = 64; i < damaged.length; i += 997) damaged[i] = (damaged[i] as number) ^ 0x5a;
    writeFileSync(file('runs'), damaged);
    expect(ok(run(['runs', '--json']))).toBe('[]\n');
    expect(cache('runs')?.complete).toBe(true);

    writeFileSync(file('runs'), good.subarray(0, good.length >> 1));
    expect(ok(run(['runs', '--json']))).toBe('[]\n');
    expect(cache('runs')?.complete).toBe(true);

    chmodSync(file('runs'), 0o666);
    expect(ok(run(['runs', '--json']))).toBe('[]\n');
    expect(statSync(file('runs')).mode & 0o022).toBe(0);

    // A directory others may write is neither read nor written.
    writeFileSync(file('runs'), damaged);
    chmodSync(dir, 0o777);
    expect(ok(run(['runs', '--json']))).toBe('[]\n');
    expect(readFileSync(file('runs'))).toEqual(damaged);
    chmodSync(dir, 0o700);

    // A symbolic link in its place (to someone else's directory, say) is passed over the same way.
    const other = setup();
    const elsewhere = tempDir('code-cache-elsewhere-');
    mkdirSync(dirname(other.dir), { recursive: true });
    symlinkSync(elsewhere, other.dir);
    expect(ok(other.run(['runs', '--json']))).toBe('[]\n');
    expect(readdirSync(elsewhere)).toEqual([]);

    // node_modules/.cache is a file: there is nowhere to write, and the command does not mind.
    const blocked = setup();
    writeFileSync(join(blocked.project, 'node_modules', '.cache'), '');
    expect(ok(blocked.run(['runs', '--json']))).toBe('[]\n');
  });

  it('is made again when V8 rejects it (other V8 flags)', () => {
    const { run, file } = setup();
    ok(run(['runs', '--json']));
    const before = statSync(file('runs')).ino;
    expect(ok(run(['runs', '--json'], {}, ['--no-opt']))).toBe('[]\n');
    expect(statSync(file('runs')).ino).not.toBe(before);
  });

  it('is off with AGENTGATE_NO_CODE_CACHE=1', () => {
    const { dir, run } = setup();
    ok(run(['runs', '--json'], { AGENTGATE_NO_CODE_CACHE: '1' }));
    expect(existsSync(dir)).toBe(false);
  });

  it('keeps the files of the four builds written last, and no temp file of a writer that died: other builds and Node versions do not pile up', () => {
    const { dir, run, files } = setup();
    ok(run(['runs', '--json']));
    const current = files()[0] as string;
    for (let i = 0; i < 6; i++) {
      const when = new Date(Date.UTC(2026, 0, 1 + i));
      for (const command of ['runs', 'list']) {
        const path = join(dir, `00000000000000${i}-v0_0_${i}-x64.${command}.v8`);
        writeFileSync(path, 'old');
        utimesSync(path, when, when);
      }
    }
    // The temp file of a writer killed half-way (pid 2^22 + 1: above Linux's pid_max, never alive).
    const orphan = join(dir, `.${current}.4194305.0123456789ab.tmp`);
    writeFileSync(orphan, 'half');
    ok(run(['list', '--json']));
    expect(existsSync(orphan)).toBe(false);
    const builds = new Set(files().map((f) => f.split('.')[0]));
    expect(builds.size).toBe(4);
    expect(files()).toContain(current);
    expect(builds).toContain('000000000000005-v0_0_5-x64');
    expect(builds).not.toContain('000000000000002-v0_0_2-x64');
  });
});
