/**
 * A file `hook install` created is removed by `hook uninstall` only while it is the very file
 * install made: one removed and made again (a re-clone, a teammate's committed file), even with
 * the same bytes, is the user's; a failed install leaves no record; a file its owner made
 * read-only is never written.
 */
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installHooks, uninstallHooks } from '../../src/hooks/install/install.js';
import { OLD_RUNNER, RUNNER, withConfig } from '../helpers/hook-install.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

/** A project with no cursor file yet, and the options of an install there with a home of its own. */
function project() {
  const ws = repoWithCommit();
  const opts = {
    scope: 'project' as const,
    workspace: ws,
    homeDir: tempDir(),
    home: tempDir(),
    runner: RUNNER,
  };
  return { ws, opts, dir: join(ws, '.cursor'), file: join(ws, '.cursor', 'hooks.json') };
}

/** The install records a home holds. */
function records(home: string): string[] {
  const dir = join(home, 'hooks', 'installs');
  return existsSync(dir) ? readdirSync(dir) : [];
}

const TEAM = '{\n  "version": 1,\n  "hooks": {}\n}\n';

describe('a file install created, removed and made again by someone else', () => {
  it('installed again, then uninstalled: given back byte for byte, never removed', async () => {
    const { opts, dir, file } = project();
    await installHooks('cursor', opts);
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    writeFileSync(file, TEAM);
    await installHooks('cursor', opts);
    await uninstallHooks('cursor', opts);
    expect(readFileSync(file, 'utf8')).toBe(TEAM);
  });

  it('uninstalled without a second install: kept, even when it holds no more than install writes', async () => {
    const { opts, dir, file } = project();
    await installHooks('cursor', opts);
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    writeFileSync(file, '{"version": 1}');
    await uninstallHooks('cursor', opts);
    expect(readFileSync(file, 'utf8')).toBe('{"version": 1}');
  });

  it('with the very bytes install wrote (a re-clone of a committed install): kept, ours cut out', async () => {
    const { opts, dir, file } = project();
    await installHooks('cursor', opts);
    const bytes = readFileSync(file);
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    writeFileSync(file, bytes);
    await uninstallHooks('cursor', opts);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1 });
  });

  it('left alone, it is still the one install made: uninstall removes it and its directory', async () => {
    const { ws, opts } = project();
    await installHooks('cursor', { ...opts, runner: OLD_RUNNER });
    expect((await installHooks('cursor', opts)).written).toBe(true);
    await uninstallHooks('cursor', opts);
    expect(readdirSync(ws).sort()).toEqual(['.git', 'README.md']);
  });
});

describe('an install that fails to write', () => {
  it('leaves no record: a file made there later is the user`s, kept by uninstall', async () => {
    const { opts, dir, file } = project();
    symlinkSync(join(tempDir(), 'gone', 'nowhere'), dir);
    await expect(installHooks('cursor', opts)).rejects.toMatchObject({ code: 'WRITE_FAILED' });
    expect(records(opts.home)).toEqual([]);
    rmSync(dir);
    mkdirSync(dir);
    writeFileSync(file, '{"version": 1}\n');
    await uninstallHooks('cursor', opts);
    expect(readFileSync(file, 'utf8')).toBe('{"version": 1}\n');
  });
});

describe('a config file its owner made read-only', () => {
  it('is refused by install and uninstall (WRITE_FAILED), left as it is, whoever runs them', async () => {
    const { opts, file } = withConfig('qwen', '{}\n');
    chmodSync(file, 0o444);
    const home = { ...opts, home: tempDir() };
    await expect(installHooks('qwen', home)).rejects.toMatchObject({ code: 'WRITE_FAILED' });
    expect(readFileSync(file, 'utf8')).toBe('{}\n');
    expect(records(home.home)).toEqual([]);
    chmodSync(file, 0o644);
    await installHooks('qwen', home);
    const installed = readFileSync(file, 'utf8');
    chmodSync(file, 0o444);
    await expect(uninstallHooks('qwen', home)).rejects.toMatchObject({ code: 'WRITE_FAILED' });
    expect(readFileSync(file, 'utf8')).toBe(installed);
  });
});
