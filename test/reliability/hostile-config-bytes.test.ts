/**
 * Config whose bytes are not UTF-8, or whose files are not regular files: a driver named in bytes
 * that are not UTF-8 (which no setting we pass can name), an include path that is not UTF-8, an
 * include that is a FIFO, and a git dir whose path is not UTF-8. Every armed program touches a
 * marker file; none may appear.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BeforeState, Snapshot } from '../../types/snapshot.js';
import { runCli } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

interface Ws {
  root: string;
  ws: string;
  home: string;
  markers: string;
}

function workspace(files: Record<string, string>): Ws {
  const root = tempDir('agentgate-config-bytes-');
  const markers = join(root, 'markers');
  mkdirSync(markers);
  return { root, ws: repoWithCommit(files), home: join(root, 'home'), markers };
}

function cli(w: Ws, args: string[]) {
  const res = runCli(['-C', w.ws, '--json', ...args], { env: { AGENTGATE_HOME: w.home } });
  const code = res.status === 0 ? null : (JSON.parse(res.stdout) as { error?: { code: string } }).error?.code;
  return { ...res, code };
}

function ok<T>(w: Ws, args: string[]): T {
  const res = cli(w, args);
  expect(res.status, `${args.join(' ')}: ${res.stdout}${res.stderr}`).toBe(0);
  return JSON.parse(res.stdout) as T;
}

const touch = (w: Ws, name: string) => `touch '${join(w.markers, name)}'; cat`;
const markers = (w: Ws) => readdirSync(w.markers);
/** `text` with each `%` standing for the byte 0xff (not UTF-8). */
const bytes = (text: string) => Buffer.from(text.replace(/%/g, '\u00ff'), 'latin1');

describe('a driver whose name is not UTF-8', () => {
  it.each([
    ['filter', 'clean', 'filter'],
    ['diff', 'textconv', 'diff'],
    ['merge', 'driver', 'merge'],
  ])('[%s "f\\xff"] %s: before and after are UNSAFE_WORKSPACE, nothing runs', (section, key, attr) => {
    const w = workspace({ 'a.txt': 'one\n' });
    appendFileSync(join(w.ws, '.git', 'config'), bytes(`[${section} "f%"]\n\t${key} = ${touch(w, key)}\n`));
    writeFileSync(join(w.ws, '.gitattributes'), bytes(`* ${attr}=f%\n`));
    writeFiles(w.ws, { 'a.txt': 'dirty\n' });
    expect(cli(w, ['before', '--run', 'r1']).code).toBe('UNSAFE_WORKSPACE');
    expect(cli(w, ['after', '--run', 'r1', '--iteration', '1']).code).toBe('UNSAFE_WORKSPACE');
    expect(markers(w)).toEqual([]);
    if (section !== 'filter') return;
    // Control: the arming is live, and only its exact bytes name the driver.
    git(w.ws, ['hash-object', '--path=a.txt', 'a.txt']);
    expect(markers(w)).toEqual(['clean']);
  });

  it('one in an included file is refused too', () => {
    const w = workspace({ 'a.txt': 'one\n', '.gitattributes': '* filter=x\n' });
    writeFileSync(join(w.ws, '.git', 'inc.cfg'), bytes(`[filter "x%"]\n\tclean = ${touch(w, 'clean')}\n`));
    git(w.ws, ['config', '--add', 'include.path', 'inc.cfg']);
    writeFiles(w.ws, { 'a.txt': 'dirty\n' });
    expect(cli(w, ['before', '--run', 'r1']).code).toBe('UNSAFE_WORKSPACE');
    expect(markers(w)).toEqual([]);
  });
});

describe('includes git reads however they are named or made', () => {
  it('an include path that is not UTF-8 is followed: its filter stays off', () => {
    const w = workspace({ 'a.txt': 'one\n', '.gitattributes': '* filter=fx\n' });
    writeFileSync(bytes(join(w.ws, '.git', 'ev%il.cfg')), `[filter "fx"]\n\tclean = ${touch(w, 'clean')}\n`);
    appendFileSync(join(w.ws, '.git', 'config'), bytes('[include]\n\tpath = ev%il.cfg\n'));
    writeFiles(w.ws, { 'a.txt': 'one\nedit\n' });
    const before = ok<BeforeState>(w, ['before', '--run', 'r1']);
    expect(git(w.ws, ['show', `${before.wipSha}:a.txt`])).toBe('one\nedit');
    writeFiles(w.ws, { 'a.txt': 'the agent was here\n' });
    ok<Snapshot>(w, ['after', '--run', 'r1', '--iteration', '1']);
    expect(markers(w)).toEqual([]);
    // Control: git follows the include and runs the filter.
    git(w.ws, ['hash-object', '--path=a.txt', 'a.txt']);
    expect(markers(w)).toEqual(['clean']);
  });

  it('an include that is a FIFO is UNSAFE_WORKSPACE, without waiting for a writer', () => {
    const w = workspace({ 'a.txt': 'one\n', '.gitattributes': '* filter=fx\n' });
    expect(spawnSync('mkfifo', [join(w.ws, '.git', 'feed.cfg')]).status).toBe(0);
    git(w.ws, ['config', '--add', 'include.path', 'feed.cfg']);
    writeFiles(w.ws, { 'a.txt': 'dirty\n' });
    expect(cli(w, ['before', '--run', 'r1']).code).toBe('UNSAFE_WORKSPACE');
    expect(markers(w)).toEqual([]);
  });
});

describe('a git dir whose path is not UTF-8', () => {
  it('before and checkpoint track are UNSAFE_WORKSPACE, not INTERNAL', () => {
    const w = workspace({ 'a.txt': 'one\n' });
    const ws = join(w.root, 'ws');
    const init = spawnSync('sh', [
      '-c',
      `git init -q --separate-git-dir="${w.root}/gd$(printf '\\351')" "${ws}"`,
    ]);
    expect(init.status, String(init.stderr)).toBe(0);
    writeFiles(ws, { 'a.txt': 'one\n' });
    const v = { ...w, ws };
    expect(cli(v, ['before', '--run', 'r1']).code).toBe('UNSAFE_WORKSPACE');
    expect(cli(v, ['checkpoint', 'track']).code).toBe('UNSAFE_WORKSPACE');
  });
});
