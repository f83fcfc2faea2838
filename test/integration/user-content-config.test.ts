/**
 * Run snapshots take a file's content as the user's own git does: the user's global (or system)
 * `core.autocrlf`, `core.eol` and `core.excludesFile` count, unless the repository sets its own
 * (runner.ts, userContentConfig). Without them a workspace `git status` calls clean was dirty to
 * `before`, and a secret the user's global ignore file keeps out was committed.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { git, initRepo, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

/** A HOME of its own with this global config, for the CLI and for the oracle `git status`. */
function userHome(gitconfig: string, files: Record<string, string> = {}): string {
  const home = tempDir('agentgate-user-home-');
  writeFileSync(join(home, '.gitconfig'), gitconfig);
  writeFiles(home, files);
  return home;
}

function before(ws: string, env: NodeJS.ProcessEnv): { isDirty: boolean; wipSha: string | null } {
  const res = runCli(['before', '--run', 'r1', '-C', ws, '--json'], {
    env: { ...env, AGENTGATE_HOME: join(tempDir(), 'home') },
  });
  expect(res.status, res.stderr).toBe(0);
  return res.json() as { isDirty: boolean; wipSha: string | null };
}

describe("the user's own content settings", () => {
  it("a file the user's global ignore file names (core.excludesFile) is never committed", () => {
    const HOME = userHome('[core]\n\texcludesFile = ~/.gitignore_global\n', {
      '.gitignore_global': '.env\n',
    });
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    writeFiles(ws, { '.env': 'TOKEN=hunter2\n' });
    expect(before(ws, { HOME })).toMatchObject({ isDirty: false, wipSha: null });
    // A file only git's default ignore file would name is no longer left out: the user named another.
    mkdirSync(join(HOME, '.config', 'git'), { recursive: true });
    writeFileSync(join(HOME, '.config', 'git', 'ignore'), 'notes.txt\n');
    writeFiles(ws, { 'notes.txt': 'mine\n' });
    const dirty = before(ws, { HOME });
    expect(dirty.isDirty).toBe(true);
    expect(git(ws, ['show', '--name-only', '--format=', dirty.wipSha as string])).toBe('notes.txt');
  });

  it('a setting in a file the global config includes counts, as in git', () => {
    const HOME = userHome('[include]\n\tpath = ~/.config/extra.gitconfig\n', {
      '.config/extra.gitconfig': '[core]\n\texcludesFile = ~/.ignore-these\n',
      '.ignore-these': '.env\n',
    });
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    writeFiles(ws, { '.env': 'TOKEN=hunter2\n' });
    expect(before(ws, { HOME })).toMatchObject({ isDirty: false });
  });

  it("a setting in the repository's config that git does not apply (an include on a branch not checked out) leaves the user's", () => {
    const HOME = userHome('[core]\n\texcludesFile = ~/.gitignore_global\n', {
      '.gitignore_global': '.env\n',
    });
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const release = join(tempDir('agentgate-include-'), 'release.gitconfig');
    writeFileSync(release, '[core]\n\texcludesFile = /nonexistent\n');
    git(ws, ['config', 'includeIf.onbranch:release.path', release]);
    writeFiles(ws, { '.env': 'TOKEN=hunter2\n' });
    expect(before(ws, { HOME })).toMatchObject({ isDirty: false });
  });

  it('the global core.attributesFile and $GIT_CONFIG_SYSTEM count, as in git', () => {
    const HOME = userHome('[core]\n\tattributesFile = ~/attrs\n', { attrs: '*.txt text\n' });
    const ws = repoWithCommit({ 'a.txt': 'l1\nl2\n' });
    writeFiles(ws, { 'a.txt': 'l1\r\nl2\r\n' });
    // text: a CRLF work tree file is LF in the index, so nothing changed.
    expect(before(ws, { HOME })).toMatchObject({ isDirty: false });
    const system = join(tempDir('agentgate-system-'), 'gitconfig');
    writeFileSync(system, '[core]\n\texcludesFile = ~/sys-ignore\n');
    writeFiles(HOME, { 'sys-ignore': '.env\n' });
    writeFiles(ws, { '.env': 'TOKEN=hunter2\n' });
    expect(before(ws, { HOME, GIT_CONFIG_SYSTEM: system })).toMatchObject({ isDirty: false });
  });

  it('$XDG_CONFIG_HOME/git/ignore is the default ignore file, as in git', () => {
    const HOME = userHome('[user]\n\tname = u\n');
    const xdg = tempDir('agentgate-xdg-');
    writeFiles(xdg, { 'git/ignore': '.env\n' });
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    writeFiles(ws, { '.env': 'TOKEN=hunter2\n' });
    expect(before(ws, { HOME, XDG_CONFIG_HOME: xdg })).toMatchObject({ isDirty: false });
  });

  it('a global core.autocrlf=true: CRLF files stored as LF are clean, and a new one is stored as LF', () => {
    const HOME = userHome('[core]\n\tautocrlf = true\n');
    const ws = initRepo();
    writeFiles(ws, { 'w.txt': 'one\r\ntwo\r\n' });
    git(ws, ['-c', 'core.autocrlf=true', 'add', '-A']);
    git(ws, ['commit', '-qm', 'base']);
    // Written again: git must read the file, not trust the index's stat data.
    writeFiles(ws, { 'w.txt': 'one\r\ntwo\r\n' });
    expect(before(ws, { HOME })).toMatchObject({ isDirty: false, wipSha: null });
    writeFiles(ws, { 'n.txt': 'new\r\n' });
    const dirty = before(ws, { HOME });
    expect(git(ws, ['cat-file', 'blob', `${dirty.wipSha}:n.txt`])).toBe('new');
    expect(git(ws, ['ls-files', '--eol', 'n.txt'])).toMatch(/^i\/lf/);
  });

  it("the repository's own core.autocrlf wins over the user's", () => {
    const HOME = userHome('[core]\n\tautocrlf = true\n');
    const ws = initRepo();
    git(ws, ['config', 'core.autocrlf', 'false']);
    writeFiles(ws, { 'w.txt': 'one\r\n' });
    git(ws, ['-c', 'core.autocrlf=true', 'add', '-A']);
    git(ws, ['commit', '-qm', 'base']);
    writeFiles(ws, { 'w.txt': 'one\r\n' });
    // The user's own git says modified here too: the repository turned the conversion off.
    expect(before(ws, { HOME })).toMatchObject({ isDirty: true });
  });

  it("a gate refuses carriage returns the user's global core.autocrlf=input hides from status", () => {
    const HOME = userHome('[core]\n\tautocrlf = input\n');
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const env = { HOME, AGENTGATE_HOME: join(tempDir(), 'home') };
    expect(runCli(['before', '--run', 'r1', '-C', ws], { env }).status).toBe(0);
    writeFiles(ws, { 'b.txt': 'b\n' });
    expect(runCli(['after', '--run', 'r1', '--iteration', '1', '-C', ws], { env }).status).toBe(0);
    const gate = ['gate', '--run', 'r1', '--name', 't', '-C', ws, '--json', '--', 'true'];
    expect(runCli(gate, { env }).status).toBe(0);
    writeFiles(ws, { 'b.txt': 'b\r\n' });
    git(ws, ['-c', 'core.autocrlf=input', 'add', 'b.txt']);
    expect(git(ws, ['-c', 'core.autocrlf=input', 'status', '--porcelain'])).toBe('');
    const res = runCli(gate, { env });
    expect(res.status).toBe(1);
    expect(res.json()).toMatchObject({
      error: { code: 'GATE_TREE_MISMATCH', details: { paths: ['b.txt'] } },
    });
  });
});
