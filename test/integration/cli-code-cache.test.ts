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
import { tempDir } from '../helpers/repo.js';

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
  const file = () => join(dir, files()[0] as string);
  const keys = () => decodeCodeCache(readFileSync(file()))?.keys;
  return { project, dir, run, files, file, keys };
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
  it('is written by the first run of each command, in a private directory, and otherwise left alone', () => {
    const { dir, run, files, file, keys } = setup();
    expect(ok(run(['runs', '--json']))).toBe('[]\n');
    expect(files()).toHaveLength(1);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(file()).mode & 0o022).toBe(0);
    expect(keys()).toEqual(['runs']);

    const before = statSync(file());
    ok(run(['runs', '--json']));
    expect(statSync(file()).mtimeMs).toBe(before.mtimeMs);
    expect(statSync(file()).ino).toBe(before.ino);

    ok(run(['list', '--json']));
    expect(keys()).toEqual(['runs', 'list']);
    // Neither a bare option nor an unknown command names a command: nothing is added.
    ok(run(['--version']));
    expect(run(['no-such-command']).status).toBe(2);
    expect(keys()).toEqual(['runs', 'list']);
  });

  it('adds a command that failed too: it compiled the code it ran', () => {
    const { run, keys } = setup();
    const res = run(['show', 'snap-none', '--json']);
    expect(res.status).not.toBe(0);
    expect(keys()).toEqual(['show']);
  });

  it('passes over a damaged cache, a cache or directory others may write, and a cache it cannot write', () => {
    const { dir, run, file, keys } = setup();
    ok(run(['runs', '--json']));
    const good = readFileSync(file());

    const damaged = Buffer.from(good);
    for (let i = 64; i < damaged.length; i += 997) damaged[i] = (damaged[i] as number) ^ 0x5a;
    writeFileSync(file(), damaged);
    expect(ok(run(['runs', '--json']))).toBe('[]\n');
    expect(keys()).toEqual(['runs']);

    writeFileSync(file(), good.subarray(0, good.length >> 1));
    expect(ok(run(['runs', '--json']))).toBe('[]\n');
    expect(keys()).toEqual(['runs']);

    chmodSync(file(), 0o666);
    expect(ok(run(['runs', '--json']))).toBe('[]\n');
    expect(statSync(file()).mode & 0o022).toBe(0);

    // A directory others may write is neither read nor written.
    writeFileSync(file(), damaged);
    chmodSync(dir, 0o777);
    expect(ok(run(['runs', '--json']))).toBe('[]\n');
    expect(readFileSync(file())).toEqual(damaged);
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
    const { run, file, keys } = setup();
    ok(run(['runs', '--json']));
    const before = statSync(file()).ino;
    expect(ok(run(['runs', '--json'], {}, ['--no-opt']))).toBe('[]\n');
    expect(statSync(file()).ino).not.toBe(before);
    expect(keys()).toEqual(['runs']);
  });

  it('is off with AGENTGATE_NO_CODE_CACHE=1', () => {
    const { dir, run } = setup();
    ok(run(['runs', '--json'], { AGENTGATE_NO_CODE_CACHE: '1' }));
    expect(existsSync(dir)).toBe(false);
  });

  it('keeps the newest eight files: other builds and Node versions do not pile up', () => {
    const { dir, run, files } = setup();
    ok(run(['runs', '--json']));
    const current = files()[0] as string;
    const old = new Date('2026-01-01T00:00:00Z');
    for (let i = 0; i < 10; i++) {
      const path = join(dir, `0000000000000${String(i).padStart(3, '0')}-nodev0.0.${i}-x64.v8`);
      writeFileSync(path, 'old');
      utimesSync(path, old, old);
    }
    ok(run(['list', '--json']));
    expect(files()).toHaveLength(8);
    expect(files()).toContain(current);
  });
});
