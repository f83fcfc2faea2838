/**
 * Config a repository can use to bring a driver back past neutraliseDrivers, or to change what git
 * takes a commit's parents to be: driver names holding `=` (which `-c` splits at) or empty, include
 * chains longer than any cut-off, a symlinked include whose relative includes git places by its
 * name, include paths in `~user` form, and a planted info/grafts. Every armed program touches a
 * marker file; none may appear.
 */
import { appendFileSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BeforeState, Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { runCli } from '../helpers/cli.js';
import { commitAll, git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

interface Ws {
  ws: string;
  home: string;
  markers: string;
}

function workspace(files: Record<string, string>): Ws {
  const root = tempDir('agentgate-driver-names-');
  const markers = join(root, 'markers');
  mkdirSync(markers);
  return { ws: repoWithCommit(files), home: join(root, 'home'), markers };
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

const touch = (w: Ws, name: string) => `touch '${join(w.markers, name)}'`;
const markers = (w: Ws) => readdirSync(w.markers);

/** Sets config keys as they are (git config takes `filter.c=1.clean` whole: only `-c` splits it). */
function arm(w: Ws, file: string, entries: Record<string, string>): void {
  for (const [key, value] of Object.entries(entries)) git(w.ws, ['config', '--file', file, key, value]);
}

describe('drivers whose names hold "="', () => {
  it('no filter, diff or merge driver runs through before, after, patch, gate --isolated, gate replay or cherry-pick', () => {
    const w = workspace({
      'a.txt': 'one\n',
      'b.dat': 'bee\n',
      '.gitattributes': '*.txt filter=c=1 diff=d=1 merge=m=1\n*.dat filter=p=1 diff=t=1 merge=m=1\n',
    });
    git(w.ws, ['checkout', '-q', '-b', 'release']);
    writeFiles(w.ws, { 'a.txt': 'release edit\n' });
    commitAll(w.ws, 'release');
    git(w.ws, ['checkout', '-q', 'main']);
    arm(w, join(w.ws, '.git', 'config'), {
      'filter.c=1.clean': touch(w, 'clean'),
      'filter.c=1.smudge': touch(w, 'smudge'),
      'filter.p=1.process': touch(w, 'process'),
      'diff.d=1.command': touch(w, 'diff-command'),
      'diff.t=1.textconv': touch(w, 'textconv'),
      'merge.m=1.driver': touch(w, 'merge'),
    });

    writeFiles(w.ws, { 'a.txt': 'dirty before the run\n', 'b.dat': 'dirty too\n' });
    const before = ok<BeforeState>(w, ['before', '--run', 'r1']);
    expect(before.wipSha).not.toBeNull();
    expect(markers(w)).toEqual([]);
    writeFiles(w.ws, { 'a.txt': 'the agent was here\n', 'b.dat': 'and here\n' });
    const snap = ok<Snapshot>(w, ['after', '--run', 'r1', '--iteration', '1']);
    expect(git(w.ws, ['show', `${snap.afterSha}:a.txt`])).toBe('the agent was here');
    ok(w, ['patch', snap.id]);
    ok(w, ['stats', snap.beforeSha, snap.afterSha]);
    expect(markers(w)).toEqual([]);

    ok(w, ['gate', '--run', 'r1', '--name', 'g', '--isolated', '--', 'true']);
    ok(w, ['gate', 'replay', '--run', 'r1', '--iteration', '1', '--name', 'g', '--yes']);
    expect(markers(w)).toEqual([]);
    // a.txt changed on both sides: the merge needs the driver, which is `false` here, so a conflict.
    const picked = cli(w, ['cherry-pick', snap.id, '--onto', 'release']);
    expect(picked.code).not.toBeNull();
    expect(markers(w)).toEqual([]);

    // Control: the arming is live, and `-c` with the name would not have switched it off.
    // hash-object filters a.txt alone: `add` may also refresh b.dat, whose `process` speaks no protocol.
    writeFiles(w.ws, { 'a.txt': 'control\n' });
    git(w.ws, ['-c', 'filter.c=1.clean=', 'hash-object', '--path=a.txt', 'a.txt']);
    expect(markers(w)).toEqual(['clean']);
  });
});

describe('drivers with an empty name', () => {
  it('`* filter= diff= merge=` names the driver "": none runs through iterate, gate --isolated or cherry-pick', () => {
    const w = workspace({ 'f.e': 'data\n', '.gitattributes': '*.e filter= diff= merge=\n' });
    git(w.ws, ['checkout', '-q', '-b', 'release']);
    writeFiles(w.ws, { 'f.e': 'release edit\n' });
    commitAll(w.ws, 'release');
    git(w.ws, ['checkout', '-q', 'main']);
    appendFileSync(
      join(w.ws, '.git', 'config'),
      `[filter ""]\n\tclean = ${touch(w, 'clean')}\n\tsmudge = ${touch(w, 'smudge')}\n` +
        `[diff ""]\n\tcommand = ${touch(w, 'diff-command')}\n\ttextconv = ${touch(w, 'textconv')}\n` +
        `[merge ""]\n\tdriver = ${touch(w, 'merge')}\n`,
    );

    const res = cli(w, ['iterate', '--run', 'r1', '--iteration', '1', '--', 'sh', '-c', 'echo more >> f.e']);
    expect(res.status, res.stdout + res.stderr).toBe(0);
    const snap = JSON.parse(res.stdout) as Snapshot;
    expect(git(w.ws, ['show', `${snap.afterSha}:f.e`])).toBe('data\nmore');
    ok(w, ['patch', snap.id]);
    ok(w, ['gate', '--run', 'r1', '--name', 'g', '--isolated', '--', 'true']);
    expect(markers(w)).toEqual([]);
    // f.e changed on both sides: the merge needs the driver, which is `false` here, so a conflict.
    expect(cli(w, ['cherry-pick', snap.id, '--onto', 'release']).code).not.toBeNull();
    expect(markers(w)).toEqual([]);

    // Control: the arming is live.
    writeFiles(w.ws, { 'f.e': 'control\n' });
    git(w.ws, ['hash-object', '--path=f.e', 'f.e']);
    expect(markers(w)).toEqual(['clean']);
  });
});

describe('every included config file is read', () => {
  it('a filter in a file included after 70 missing ones stays off', () => {
    const w = workspace({ 'a.txt': 'one\n', '.gitattributes': '*.txt filter=f\n' });
    for (let i = 1; i <= 70; i += 1) git(w.ws, ['config', '--add', 'include.path', `nonexist${i}.cfg`]);
    writeFileSync(join(w.ws, '.git', 'evil.cfg'), `[filter "f"]\n\tclean = ${touch(w, 'clean')}\n`);
    git(w.ws, ['config', '--add', 'include.path', 'evil.cfg']);
    writeFiles(w.ws, { 'a.txt': 'one\nedit\n' });
    ok<BeforeState>(w, ['before', '--run', 'r1']);
    expect(markers(w)).toEqual([]);
  });

  it('a config including more files than we read is UNSAFE_WORKSPACE, not read in part', () => {
    const w = workspace({ 'a.txt': 'one\n', '.gitattributes': '*.txt filter=f\n' });
    const dir = join(w.ws, '.git', 'many');
    mkdirSync(dir);
    // Side by side (git follows any number of them; a chain would stop git itself at depth 10).
    const paths: string[] = [];
    for (let i = 0; i < 300; i += 1) {
      writeFileSync(join(dir, `${i}.cfg`), `[core]\n\tdummy${i} = 1\n`);
      paths.push(`many/${i}.cfg`);
    }
    writeFileSync(join(dir, 'last.cfg'), `[filter "f"]\n\tclean = ${touch(w, 'clean')}\n`);
    paths.push('many/last.cfg');
    appendFileSync(
      join(w.ws, '.git', 'config'),
      `[include]\n${paths.map((p) => `\tpath = ${p}\n`).join('')}`,
    );
    expect(git(w.ws, ['config', '--includes', 'filter.f.clean'])).toBe(touch(w, 'clean'));
    writeFiles(w.ws, { 'a.txt': 'edit\n' });
    expect(cli(w, ['before', '--run', 'r1']).code).toBe('UNSAFE_WORKSPACE');
    expect(markers(w)).toEqual([]);
  });
});

describe('includes are followed by name, as git places them', () => {
  it('a relative include in a file reached through a symlink is read beside the name, not the target', () => {
    const w = workspace({ 'a.s': 'one\n', '.gitattributes': '*.s filter=sym\n' });
    const sl = join(w.markers, '..', 'sl');
    mkdirSync(join(sl, 'A'), { recursive: true });
    mkdirSync(join(sl, 'B'));
    writeFileSync(join(sl, 'B', 'inc'), '[include]\n\tpath = drivers\n');
    symlinkSync('../B/inc', join(sl, 'A', 'inc'));
    writeFileSync(join(sl, 'B', 'drivers'), '[core]\n\tx = 1\n');
    writeFileSync(join(sl, 'A', 'drivers'), `[filter "sym"]\n\tclean = ${touch(w, 'clean')}\n`);
    git(w.ws, ['config', '--add', 'include.path', join(sl, 'B', 'inc')]);
    git(w.ws, ['config', '--add', 'include.path', join(sl, 'A', 'inc')]);
    // git itself finds it: the arming is live.
    expect(git(w.ws, ['config', '--includes', 'filter.sym.clean'])).toBe(touch(w, 'clean'));
    writeFiles(w.ws, { 'a.s': 'edit\n' });
    ok<BeforeState>(w, ['before', '--run', 'r1']);
    writeFiles(w.ws, { 'a.s': 'agent\n' });
    ok<Snapshot>(w, ['after', '--run', 'r1', '--iteration', '1']);
    expect(markers(w)).toEqual([]);
  });

  it('a filter in a file at include depth 10, the deepest git reads, stays off', () => {
    const w = workspace({ 'a.txt': 'one\n', '.gitattributes': '*.txt filter=f\n' });
    for (let i = 1; i < 10; i += 1)
      writeFileSync(join(w.ws, '.git', `c${i}.cfg`), `[include]\n\tpath = c${i + 1}.cfg\n`);
    writeFileSync(join(w.ws, '.git', 'c10.cfg'), `[filter "f"]\n\tclean = ${touch(w, 'clean')}\n`);
    git(w.ws, ['config', 'include.path', 'c1.cfg']);
    expect(git(w.ws, ['config', '--includes', 'filter.f.clean'])).toBe(touch(w, 'clean'));
    writeFiles(w.ws, { 'a.txt': 'edit\n' });
    ok<BeforeState>(w, ['before', '--run', 'r1']);
    expect(markers(w)).toEqual([]);
  });

  it("a file including itself under ever-new names stops at git's depth of 10; a fan-out is UNSAFE_WORKSPACE", () => {
    const w = workspace({ 'a.txt': 'one\n' });
    const loop = join(w.markers, '..', 'loop');
    mkdirSync(loop);
    symlinkSync('.', join(loop, 'x'));
    symlinkSync('.', join(loop, 'y'));
    // Every name is new (loop/./././inc); git, had the condition held, would stop at depth 10.
    writeFileSync(join(loop, 'inc'), '[include]\n\tpath = ./inc\n');
    git(w.ws, ['config', 'includeIf.onbranch:nothing.path', join(loop, 'inc')]);
    writeFiles(w.ws, { 'a.txt': 'edit\n' });
    ok<BeforeState>(w, ['before', '--run', 'r1']);

    // Two includes a level: 2^10 names, past what we read.
    writeFileSync(join(loop, 'inc'), '[include]\n\tpath = x/inc\n\tpath = y/inc\n');
    writeFiles(w.ws, { 'a.txt': 'edit again\n' });
    expect(cli(w, ['before', '--run', 'r2']).code).toBe('UNSAFE_WORKSPACE');
  });
});

describe('include paths in ~user form', () => {
  it('~<current user>/ is followed as git follows it; an unknown user and %(prefix)/ are UNSAFE_WORKSPACE', () => {
    const w = workspace({ 'a.txt': 'one\n', '.gitattributes': '*.txt filter=f\n' });
    writeFileSync(join(w.ws, '.git', 'evil.cfg'), `[filter "f"]\n\tclean = ${touch(w, 'clean')}\n`);
    const me = userInfo();
    const up = me.homedir
      .split('/')
      .filter((p) => p !== '')
      .map(() => '..');
    const evil = `~${me.username}/${[...up, join(w.ws, '.git', 'evil.cfg').slice(1)].join('/')}`;
    git(w.ws, ['config', 'include.path', evil]);
    // git itself finds it: the arming is live.
    expect(git(w.ws, ['config', '--includes', 'filter.f.clean'])).toBe(touch(w, 'clean'));
    writeFiles(w.ws, { 'a.txt': 'edit\n' });
    ok<BeforeState>(w, ['before', '--run', 'r1']);
    expect(markers(w)).toEqual([]);

    for (const path of ['~no-such-user-agentgate/x.cfg', '%(prefix)/x.cfg']) {
      git(w.ws, ['config', 'includeIf.onbranch:nothing.path', path]);
      writeFiles(w.ws, { 'a.txt': `edit ${path}\n` });
      expect(cli(w, ['before', '--run', 'r2']).code, path).toBe('UNSAFE_WORKSPACE');
      git(w.ws, ['config', '--unset', 'includeIf.onbranch:nothing.path']);
    }
    expect(markers(w)).toEqual([]);
  });
});

describe('info/grafts is never read', () => {
  it('a graft that makes a diverged branch seem to contain the run changes nothing for verify, before and export', () => {
    const w = workspace({ 'a.txt': 'one\n' });
    ok<BeforeState>(w, ['before', '--run', 'r1']);
    writeFiles(w.ws, { 'a.txt': 'agent\n' });
    const snap = ok<Snapshot>(w, ['after', '--run', 'r1', '--iteration', '1']);
    git(w.ws, ['reset', '-q', '--hard', 'HEAD~1']);
    writeFiles(w.ws, { 'b.txt': 'someone else\n' });
    const other = commitAll(w.ws, 'other');

    const outcome = () => {
      const verify = cli(w, ['verify', '--run', 'r1']);
      const report = JSON.parse(verify.stdout) as VerifyReport;
      return { verify: [verify.status, report.ok], before: cli(w, ['before', '--run', 'r1']).code };
    };
    const without = outcome();
    expect(without.before).toBe('RUN_DIVERGED');
    const clone = join(tempDir('agentgate-graft-clone-'), 'clone');
    git(w.ws, ['clone', '-q', '--no-local', w.ws, clone]);
    git(clone, ['reset', '-q', '--hard', snap.beforeSha]);
    writeFileSync(join(w.ws, '.git', 'info', 'grafts'), `${other} ${snap.afterSha}\n`);
    // The oracle git does read it: the graft is live.
    expect(git(w.ws, ['rev-list', '--count', 'HEAD'])).toBe('3');
    expect(outcome()).toEqual(without);

    // The bundle holds every object the run needs: it imports into a clone of the base.
    const bundle = join(w.home, '..', 'r1.bundle');
    ok(w, ['export', '--run', 'r1', '-o', bundle]);
    const there: Ws = { ws: clone, home: join(clone, '..', 'home'), markers: w.markers };
    ok(there, ['import', bundle]);
  });
});
