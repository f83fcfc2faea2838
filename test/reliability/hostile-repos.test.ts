/**
 * Hostile repository shapes through the CLI: a `.git` file (linked worktree, separate git dir, and
 * one whose work tree is elsewhere), a repository the agent arms between `before` and `after`, an
 * armed submodule, symlinks leading out of the workspace, and file names that look like options.
 */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckpointEntry, RestoreResult, RevertResult, TrackResult } from '../../types/checkpoint.js';
import type { BeforeState, CommitInfo, DiffStats, Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { runCli } from '../helpers/cli.js';
import { commitAll, git, oracleEnv, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import { blobIds, diskState, readWorkspace, report, STACK_LINE, treeBlobs, treeDigest } from './support.js';

const SCRIPT = new URL('../../fixtures/make-armed-repo.sh', import.meta.url).pathname;
const figures: Record<string, number> = {};
const count = (name: string): void => {
  figures[name] = (figures[name] ?? 0) + 1;
};

interface Call {
  status: number | null;
  stdout: string;
  stderr: string;
  json: <T>() => T;
}

/** The CLI in `ws`, run from inside it, with a home of the test's choosing (global options first, so that `--` may end the command's). */
function cli(ws: string, home: string, args: string[]): Call {
  const res = runCli(['-C', ws, '--json', ...args], { env: { AGENTGATE_HOME: home }, cwd: ws });
  return {
    status: res.status,
    stdout: res.stdout,
    stderr: res.stderr,
    json: <T>() => JSON.parse(res.stdout) as T,
  };
}

function ok<T>(ws: string, home: string, args: string[]): T {
  const res = cli(ws, home, args);
  expect(res.status, `${args.join(' ')}: ${res.stdout}${res.stderr}`).toBe(0);
  return res.json<T>();
}

function codeOf(call: Call): string {
  expect(call.stderr).not.toMatch(STACK_LINE);
  return call.status === 0 ? 'OK' : call.json<{ error: { code: string } }>().error.code;
}

/**
 * Arms a git dir the way an agent could: hooks, hooksPath, fsmonitor, filters (one defined through
 * include.path), diff.external, textconv, a diff command, a merge driver, a pager and gpg. Every
 * program appends to `<markers>/<tag>-<name>`. Returns the attributes line that routes files through them.
 */
function arm(gitDir: string, markers: string, tag: string): string {
  mkdirSync(markers, { recursive: true });
  const bin = join(markers, '..', `bin-${tag}`);
  mkdirSync(join(bin, 'hooks'), { recursive: true });
  mkdirSync(join(gitDir, 'hooks'), { recursive: true });
  const script = (path: string, name: string, body: string): void => {
    writeFileSync(path, `#!/bin/sh\necho "$0 $*" >> '${markers}/${tag}-${name}'\n${body}\n`);
    chmodSync(path, 0o755);
  };
  for (const [name, body] of Object.entries({
    clean: 'cat',
    smudge: 'cat',
    process: 'exit 1',
    fsmonitor: 'exit 1',
    external: 'exit 0',
    textconv: 'cat "$1"',
    diffcmd: 'exit 0',
    merge: 'exit 0',
    pager: 'cat',
    gpg: 'exit 1',
    clean2: 'cat',
  })) {
    script(join(bin, name), name, body);
  }
  for (const hook of [
    'pre-commit',
    'post-commit',
    'commit-msg',
    'prepare-commit-msg',
    'post-checkout',
    'post-merge',
    'reference-transaction',
    'post-index-change',
    'pre-auto-gc',
    'post-rewrite',
  ]) {
    script(join(gitDir, 'hooks', hook), `hook-${hook}`, 'exit 0');
    script(join(bin, 'hooks', hook), `hookspath-${hook}`, 'exit 0');
  }
  writeFileSync(
    join(bin, 'include'),
    `[filter "${tag}2"]\n\tclean = ${bin}/clean2\n\tsmudge = ${bin}/clean2\n\trequired = true\n`,
  );
  const set = (key: string, value: string): void => {
    execFileSync('git', ['config', '--file', join(gitDir, 'config'), key, value], { env: oracleEnv() });
  };
  set('core.hooksPath', join(bin, 'hooks'));
  set('core.fsmonitor', join(bin, 'fsmonitor'));
  set(`filter.${tag}.clean`, `${bin}/clean %f`);
  set(`filter.${tag}.smudge`, `${bin}/smudge %f`);
  set(`filter.${tag}.required`, 'true');
  set(`filter.${tag}p.process`, `${bin}/process`);
  set('diff.external', `${bin}/external`);
  set(`diff.${tag}.textconv`, `${bin}/textconv`);
  set(`diff.${tag}.command`, `${bin}/diffcmd`);
  set(`merge.${tag}.driver`, `${bin}/merge %O %A %B`);
  set('core.pager', `${bin}/pager`);
  set('gpg.program', `${bin}/gpg`);
  set('commit.gpgSign', 'true');
  set('include.path', join(bin, 'include'));
  return `* filter=${tag} diff=${tag} merge=${tag}\n*.md filter=${tag}2\n*.bin filter=${tag}p\n`;
}

const noMarkers = (markers: string, during: string): void => {
  expect(existsSync(markers) ? readdirSync(markers) : [], `armed programs that ran during ${during}`).toEqual(
    [],
  );
};

/** Oracle flags that keep the oracle itself from running what a test armed. */
function quiet(tags: string[]): string[] {
  const flags = [
    'core.hooksPath=/dev/null',
    'core.fsmonitor=false',
    'commit.gpgSign=false',
    'diff.external=',
  ];
  for (const t of tags)
    flags.push(
      `filter.${t}.clean=`,
      `filter.${t}.smudge=`,
      `filter.${t}.process=`,
      `filter.${t}.required=false`,
    );
  return flags.flatMap((f) => ['-c', f]);
}

describe('a .git file pointing elsewhere', () => {
  it('a linked worktree of the armed repository: snapshots and checkpoints stay in their own worktree', () => {
    const root = tempDir('agentgate-wt-');
    const main = join(root, 'main');
    const markers = join(root, 'markers');
    execFileSync('sh', [SCRIPT, main, markers], { env: oracleEnv(), stdio: 'pipe' });
    const wt = join(root, 'wt');
    git(main, [
      ...quiet(['armed', 'armedproc', 'armed2']),
      'worktree',
      'add',
      '-q',
      '-b',
      'wt-branch',
      wt,
      'main',
    ]);
    for (const m of readdirSync(markers)) rmSync(join(markers, m));
    expect(lstatSync(join(wt, '.git')).isFile()).toBe(true);
    const home = join(root, 'home');
    const mainBefore = diskState(join(root, 'nothing'), main);
    const mainFiles = readWorkspace(main);

    const before = ok<BeforeState>(wt, home, ['before', '--run', 'wt']);
    expect(before).toMatchObject({ branch: 'wt-branch', sha: git(main, ['rev-parse', 'main']) });
    writeFileSync(join(wt, 'data.txt'), 'edited in the worktree\n');
    writeFileSync(join(wt, 'wt.txt'), 'new in the worktree\n');
    const snap = ok<Snapshot>(wt, home, ['after', '--run', 'wt', '--iteration', '1']);
    expect(snap.afterSha).toBe(git(main, ['rev-parse', 'wt-branch']));
    expect(snap.files.map((f) => f.path).sort()).toEqual(['data.txt', 'wt.txt']);
    expect(ok<VerifyReport>(wt, home, ['verify', '--all']).ok).toBe(true);
    noMarkers(markers, 'snapshots in the worktree');

    const cpWt = ok<TrackResult>(wt, home, ['checkpoint', 'track']);
    const cpMain = ok<TrackResult>(main, home, ['checkpoint', 'track']);
    expect(cpWt.hash).not.toBe(cpMain.hash);
    const atTrack = readWorkspace(wt);
    writeFileSync(join(wt, 'data.txt'), 'changed after the checkpoint\n');
    rmSync(join(wt, 'wt.txt'));
    ok<RestoreResult>(wt, home, ['checkpoint', 'restore', cpWt.hash]);
    expect(readWorkspace(wt)).toEqual(atTrack);
    expect(ok<CheckpointEntry[]>(main, home, ['checkpoint', 'list']).map((e) => e.hash)).toEqual([
      cpMain.hash,
    ]);
    noMarkers(markers, 'checkpoints in the worktree');

    // The main worktree: same HEAD, same index, same files; only refs the worktree legitimately moved differ.
    const mainAfter = diskState(join(root, 'nothing'), main);
    expect({ ...mainAfter, refs: '', files: '' }).toEqual({ ...mainBefore, refs: '', files: '' });
    expect(readWorkspace(main)).toEqual(mainFiles);
    expect(readFileSync(join(main, 'data.txt'), 'utf8')).toBe(
      'line 1 from main\nline 2\nline 3\nline 4\nline 5\n',
    );
    count('linked worktree');
  });

  it('a separate git dir: the commit lands in that git dir, the .git file stays a file', () => {
    const root = tempDir('agentgate-sep-');
    const ws = join(root, 'ws');
    const gitDir = join(root, 'elsewhere.git');
    execFileSync('git', ['init', '-q', '-b', 'main', `--separate-git-dir=${gitDir}`, ws], {
      env: oracleEnv(),
    });
    writeFiles(ws, { 'a.txt': 'one\n' });
    commitAll(ws, 'initial');
    const home = join(root, 'home');
    ok<BeforeState>(ws, home, ['before', '--run', 'sep']);
    writeFiles(ws, { 'a.txt': 'two\n', 'b.txt': 'bee\n' });
    const snap = ok<Snapshot>(ws, home, ['after', '--run', 'sep', '--iteration', '1']);
    expect(snap.afterSha).toBe(
      execFileSync('git', [`--git-dir=${gitDir}`, 'rev-parse', 'main'], { env: oracleEnv() })
        .toString()
        .trim(),
    );
    expect(lstatSync(join(ws, '.git')).isFile()).toBe(true);
    expect(existsSync(join(gitDir, 'agentgate.lock'))).toBe(false);
    const cp = ok<TrackResult>(ws, home, ['checkpoint', 'track']);
    writeFiles(ws, { 'a.txt': 'three\n' });
    ok<RestoreResult>(ws, home, ['checkpoint', 'restore', cp.hash]);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('two\n');
    expect(ok<VerifyReport>(ws, home, ['verify', '--all']).ok).toBe(true);
    count('separate git dir');
  });

  it('a .git file whose work tree is elsewhere: UNSAFE_WORKSPACE from every writing command, nothing touched', () => {
    const root = tempDir('agentgate-elsewhere-');
    const other = repoWithCommit({ 'other.txt': 'not yours\n' });
    git(other, ['config', 'core.worktree', other]);
    const ws = join(root, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, '.git'), `gitdir: ${join(other, '.git')}\n`);
    writeFileSync(join(ws, 'mine.txt'), 'mine\n');
    const home = join(root, 'home');
    const before = { other: diskState(home, other), ws: treeDigest(ws) };
    for (const args of [
      ['before', '--run', 'x'],
      ['after', '--run', 'x', '--iteration', '1', '--before', 'HEAD'],
      ['checkpoint', 'track'],
      ['checkpoint', 'restore', 'abcdef12'],
    ]) {
      expect(codeOf(cli(ws, home, args)), args.join(' ')).toBe('UNSAFE_WORKSPACE');
    }
    expect({ other: diskState(home, other), ws: treeDigest(ws) }).toEqual(before);
    count('work tree elsewhere');
  });
});

describe('a repository armed by the agent during the iteration', () => {
  it('after (and everything after it) runs nothing the new config names, and records raw content', () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n', 'b.txt': 'bee\n', 'c.md': '# sea\n', 'd.bin': 'dee' });
    const home = tempDir('agentgate-late-home-');
    const markers = join(tempDir('agentgate-late-'), 'markers');
    const before = ok<BeforeState>(ws, home, ['before', '--run', 'late']);

    // The agent arms the repository and leaves racy files behind (same size, new mtime), so that git
    // has to read them through the clean filters to know whether they changed.
    writeFileSync(join(ws, '.gitattributes'), arm(join(ws, '.git'), markers, 'late'));
    writeFileSync(join(ws, 'a.txt'), 'two\n');
    const future = new Date(Date.now() + 5000);
    for (const f of ['b.txt', 'c.md', 'd.bin']) utimesSync(join(ws, f), future, future);
    writeFileSync(join(ws, 'new.txt'), 'new\n');

    const snap = ok<Snapshot>(ws, home, ['after', '--run', 'late', '--iteration', '1']);
    noMarkers(markers, 'after');
    expect(snap.beforeSha).toBe(before.sha);
    expect(snap.files.map((f) => f.path).sort()).toEqual(['.gitattributes', 'a.txt', 'new.txt']);
    const paths = [...readWorkspace(ws).keys()].sort();
    expect(Object.fromEntries(treeBlobs(ws, snap.afterSha))).toEqual(Object.fromEntries(blobIds(ws, paths)));
    expect(git(ws, ['cat-file', '-p', snap.afterSha])).not.toContain('gpgsig');

    expect(ok<DiffStats>(ws, home, ['stats', snap.beforeSha, snap.afterSha]).filesChanged).toBe(3);
    expect(ok<{ diff: string }>(ws, home, ['patch', snap.id]).diff).toContain('+two');
    expect(ok<VerifyReport>(ws, home, ['verify', '--all']).ok).toBe(true);
    ok<BeforeState>(ws, home, ['before', '--run', 'late']);
    const cp = ok<TrackResult>(ws, home, ['checkpoint', 'track']);
    writeFileSync(join(ws, 'a.txt'), 'three\n');
    expect(ok<{ diff: string }>(ws, home, ['checkpoint', 'diff', cp.hash]).diff).toContain('+three');
    ok<RevertResult>(ws, home, ['checkpoint', 'revert', cp.hash]);
    expect(readFileSync(join(ws, 'a.txt'), 'utf8')).toBe('two\n');
    noMarkers(markers, 'the calls after arming');
    count('armed mid-iteration');
  });
});

describe('an armed submodule', () => {
  it('its own config (filters, hooks, fsmonitor) never runs, though git status would recurse into it', () => {
    const root = tempDir('agentgate-submod-');
    const source = repoWithCommit({ 's.txt': 'sub\n' });
    const ws = repoWithCommit({ 'top.txt': 'top\n' });
    git(ws, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', source, 'sub']);
    commitAll(ws, 'add the submodule');
    const markers = join(root, 'markers');
    const subGitDir = git(join(ws, 'sub'), ['rev-parse', '--absolute-git-dir']);
    writeFileSync(join(ws, 'sub', '.gitattributes'), arm(subGitDir, markers, 'subarm'));
    git(ws, ['config', 'submodule.recurse', 'true']);
    // Stat-dirty files inside the submodule: a status that recursed would have to run the clean filter.
    const future = new Date(Date.now() + 5000);
    utimesSync(join(ws, 'sub', 's.txt'), future, future);
    const home = join(root, 'home');

    ok<BeforeState>(ws, home, ['before', '--run', 'sub']);
    noMarkers(markers, 'before');
    writeFileSync(join(ws, 'top.txt'), 'top, edited\n');
    git(join(ws, 'sub'), [
      ...quiet(['subarm', 'subarm2', 'subarmp']),
      'commit',
      '-q',
      '--allow-empty',
      '--no-verify',
      '-m',
      'moved',
    ]);
    for (const m of existsSync(markers) ? readdirSync(markers) : []) rmSync(join(markers, m));
    utimesSync(join(ws, 'sub', 's.txt'), future, future);
    const snap = ok<Snapshot>(ws, home, ['after', '--run', 'sub', '--iteration', '1']);
    noMarkers(markers, 'after');
    expect(snap.files.map((f) => f.path).sort()).toEqual(['sub', 'top.txt']);
    // A workspace gate looks inside the submodule (its planted .gitattributes is untracked content there).
    utimesSync(join(ws, 'sub', 's.txt'), future, future);
    expect(codeOf(cli(ws, home, ['gate', '--run', 'sub', '--name', 't', '--', 'true']))).toBe(
      'GATE_TREE_MISMATCH',
    );
    noMarkers(markers, 'gate');
    expect(ok<DiffStats>(ws, home, ['stats', snap.beforeSha, snap.afterSha]).filesChanged).toBe(2);
    expect(ok<VerifyReport>(ws, home, ['verify', '--all']).ok).toBe(true);
    const cp = ok<TrackResult>(ws, home, ['checkpoint', 'track']);
    expect(cp.skipped.map((s) => s.reason)).toEqual(['nested-repository']);
    writeFileSync(join(ws, 'top.txt'), 'changed\n');
    ok<RestoreResult>(ws, home, ['checkpoint', 'restore', cp.hash]);
    ok<CommitInfo>(ws, home, ['cherry-pick', snap.id]);
    noMarkers(markers, 'stats, verify, checkpoints and cherry-pick');
    count('armed submodule');
  });
});

describe('symlinks leading out of the workspace', () => {
  it('a snapshot records the link, not the target; restore and revert never write through one', () => {
    const root = tempDir('agentgate-links-');
    const outside = join(root, 'outside');
    mkdirSync(join(outside, 'dir'), { recursive: true });
    writeFileSync(join(outside, 'secret.txt'), 'outside secret\n');
    writeFileSync(join(outside, 'dir', 'a.txt'), 'outside a\n');
    const ws = repoWithCommit({ 'dir/a.txt': 'inside a\n', 'victim.txt': 'inside victim\n' });
    const home = join(root, 'home');
    const outsideDigest = treeDigest(outside);

    ok<BeforeState>(ws, home, ['before', '--run', 'links']);
    symlinkSync(join(outside, 'secret.txt'), join(ws, 'file-link'));
    symlinkSync(join(outside, 'dir'), join(ws, 'dir-link'));
    const snap = ok<Snapshot>(ws, home, ['after', '--run', 'links', '--iteration', '1']);
    expect(snap.files.map((f) => f.path).sort()).toEqual(['dir-link', 'file-link']);
    const tree = git(ws, ['ls-tree', snap.afterSha, 'file-link', 'dir-link']);
    expect(tree.split('\n').every((l) => l.startsWith('120000 blob'))).toBe(true);
    expect(git(ws, ['cat-file', '-p', `${snap.afterSha}:file-link`])).toBe(join(outside, 'secret.txt'));

    const cp = ok<TrackResult>(ws, home, ['checkpoint', 'track']);
    const replaceWithLinks = (): void => {
      rmSync(join(ws, 'dir'), { recursive: true, force: true });
      symlinkSync(join(outside, 'dir'), join(ws, 'dir'));
      rmSync(join(ws, 'victim.txt'), { force: true });
      symlinkSync(join(outside, 'secret.txt'), join(ws, 'victim.txt'));
    };
    const insideAgain = (): void => {
      expect(treeDigest(outside)).toBe(outsideDigest);
      expect(lstatSync(join(ws, 'victim.txt')).isSymbolicLink()).toBe(false);
      expect(readFileSync(join(ws, 'victim.txt'), 'utf8')).toBe('inside victim\n');
    };

    // The links are part of the state (the safety checkpoint holds them): restore replaces them
    // with what the checkpoint had, and writes nothing through them.
    replaceWithLinks();
    expect(ok<RestoreResult>(ws, home, ['checkpoint', 'restore', cp.hash]).leftAlone).toEqual([]);
    insideAgain();
    expect(lstatSync(join(ws, 'dir')).isDirectory()).toBe(true);
    expect(readFileSync(join(ws, 'dir', 'a.txt'), 'utf8')).toBe('inside a\n');

    // An ignored link is not part of the state: what lies beyond it is left alone.
    writeFileSync(join(ws, '.git', 'info', 'exclude'), '/dir\n');
    replaceWithLinks();
    expect(ok<RestoreResult>(ws, home, ['checkpoint', 'restore', cp.hash]).leftAlone).toEqual([
      join(ws, 'dir', 'a.txt'),
    ]);
    insideAgain();
    expect(lstatSync(join(ws, 'dir')).isSymbolicLink()).toBe(true);

    // Revert by path: a path through the link, or outside, is refused; revert of everything writes nothing outside.
    replaceWithLinks();
    expect(codeOf(cli(ws, home, ['checkpoint', 'revert', cp.hash, 'dir/a.txt']))).toBe(
      'PATH_OUTSIDE_WORKSPACE',
    );
    expect(codeOf(cli(ws, home, ['checkpoint', 'revert', cp.hash, join(outside, 'secret.txt')]))).toBe(
      'PATH_OUTSIDE_WORKSPACE',
    );
    expect(ok<RevertResult>(ws, home, ['checkpoint', 'revert', cp.hash]).leftAlone).toEqual([
      join(ws, 'dir', 'a.txt'),
    ]);
    insideAgain();
    count('symlinks out of the workspace');
  });
});

describe('file names that look like options', () => {
  const NAMES = ['-rf', '--help', '--output=x', '-C', '--json', '-o'];

  it('go through after, stats, patch and checkpoint revert as names, never as options', () => {
    const ws = repoWithCommit({ 'README.md': 'hi\n' });
    const home = tempDir('agentgate-optnames-home-');
    const before = ok<BeforeState>(ws, home, ['before', '--run', 'opts']);
    for (const name of NAMES) writeFileSync(join(ws, name), `${name} content\n`);
    const snap = ok<Snapshot>(ws, home, ['after', '--run', 'opts', '--iteration', '1']);
    expect(snap.files.map((f) => f.path).sort()).toEqual([...NAMES].sort());
    expect(
      ok<DiffStats>(ws, home, ['stats', before.sha, snap.afterSha])
        .files.map((f) => f.path)
        .sort(),
    ).toEqual([...NAMES].sort());
    const patch = ok<{ diff: string }>(ws, home, ['patch', snap.id]).diff;
    for (const name of NAMES) expect(patch).toContain(`+++ b/${name}\n`);

    const cp = ok<TrackResult>(ws, home, ['checkpoint', 'track']);
    for (const name of NAMES) writeFileSync(join(ws, name), 'changed\n');
    const some = ok<RevertResult>(ws, home, ['checkpoint', 'revert', cp.hash, '--', '-rf', '--help']);
    expect(some.reverted.sort()).toEqual([join(ws, '--help'), join(ws, '-rf')]);
    const dotted = ok<RevertResult>(ws, home, ['checkpoint', 'revert', cp.hash, './--output=x', './-C']);
    expect(dotted.reverted.sort()).toEqual([join(ws, '--output=x'), join(ws, '-C')]);
    for (const name of ['-rf', '--help', '--output=x', '-C'])
      expect(readFileSync(join(ws, name), 'utf8')).toBe(`${name} content\n`);
    expect(readFileSync(join(ws, '--json'), 'utf8')).toBe('changed\n');
    // After `--`, even `--json` is a path: it is reverted, and the output stays for people.
    const human = runCli(['-C', ws, 'checkpoint', 'revert', cp.hash, '--', '--json'], {
      env: { AGENTGATE_HOME: home },
      cwd: ws,
    });
    expect(human.status, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/^Reverted 1 file,/);
    expect(readFileSync(join(ws, '--json'), 'utf8')).toBe('--json content\n');
    // Nothing was written where an option would have pointed.
    expect(existsSync(join(ws, 'x'))).toBe(false);
    expect(readWorkspace(ws).size).toBe(NAMES.length + 1);
    count('option-like names');
    report('hostile', { case: 'repository shapes', ...figures, optionLikeNames: NAMES.length });
  });
});
