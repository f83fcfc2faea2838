/**
 * `hook uninstall` gives back what install found even when installs came from more than one home,
 * or the user reformatted the file between installs (a file install created is then the user's); a config file that is not UTF-8 is refused
 * (writing it back would replace its bytes); a symbolic link's target is given back byte for byte.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installHooks, uninstallHooks } from '../../src/hooks/install/install.js';
import { runCli } from '../helpers/cli.js';
import { OLD_RUNNER, RUNNER, withConfig } from '../helpers/hook-install.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

describe('a file install created', () => {
  it('installed from two homes, uninstalled from both: ours go; the file, no longer the one install made, stays', () => {
    const ws = repoWithCommit();
    const [hA, hB] = [tempDir(), tempDir()];
    const run = (action: string, home: string) =>
      expect(runCli(['hook', action, 'cursor', '--home', home, '-C', ws]).status).toBe(0);
    run('install', hA);
    run('install', hB);
    run('uninstall', hB);
    run('uninstall', hA);
    expect(JSON.parse(readFileSync(join(ws, '.cursor', 'hooks.json'), 'utf8'))).toEqual({ version: 1 });
  });

  it('reformatted by the user, then installed again with another command: it is the user`s, uninstall keeps it', async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), home: tempDir() };
    const file = join(ws, '.cursor', 'hooks.json');
    await installHooks('cursor', { ...opts, runner: OLD_RUNNER });
    writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(file, 'utf8'))));
    await installHooks('cursor', { ...opts, runner: RUNNER });
    expect((await uninstallHooks('cursor', { ...opts, runner: RUNNER })).written).toBe(true);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ version: 1 });
  });

  it('with a setting of the user added since: the setting stays', async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), home: tempDir() };
    const file = join(ws, '.cursor', 'hooks.json');
    await installHooks('cursor', { ...opts, runner: OLD_RUNNER });
    writeFileSync(file, readFileSync(file, 'utf8').replace('{', '{"model": "x",'));
    await installHooks('cursor', { ...opts, runner: RUNNER });
    await uninstallHooks('cursor', { ...opts, runner: RUNNER });
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'x', version: 1 });
  });
});

describe('the home the installed command names', () => {
  it('is the one $AGENTGATE_HOME names, as --home`s (an agent may not inherit the variable); none without either', () => {
    const ws = repoWithCommit();
    const home = tempDir();
    const install = (env: Record<string, string>, args: string[] = []) =>
      runCli(['hook', 'install', 'cursor', '--json', '-C', ws, ...args], { env }).json() as {
        command: string;
      };
    expect(install({ AGENTGATE_HOME: home }).command).toMatch(/ hook cursor --home \S+$/);
    expect(install({ AGENTGATE_HOME: home }).command).toContain(home);
    expect(install({ AGENTGATE_HOME: '' }).command).toMatch(/ hook cursor$/);
    expect(install({ AGENTGATE_HOME: '' }, ['--home', home]).command).toMatch(/ hook cursor --home \S+$/);
  });
});

describe('a config file that is not UTF-8', () => {
  it('is refused (AGENT_CONFIG_INVALID) and left byte for byte', async () => {
    const bytes = Buffer.from('{"model":"caf\xe9"}\n', 'latin1');
    const { opts, file } = withConfig('claude-code', '');
    writeFileSync(file, bytes);
    await expect(installHooks('claude-code', opts)).rejects.toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
    await expect(uninstallHooks('claude-code', opts)).rejects.toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });
});

describe('a config file that is a symbolic link', () => {
  it.each(['{}', '{"model":"x"}', '{"version":1,"hooks":{}}'])(
    'its target %j is given back byte for byte, the link stays',
    async (text) => {
      const ws = repoWithCommit();
      const real = join(tempDir(), 'hooks.json');
      writeFileSync(real, text);
      mkdirSync(join(ws, '.cursor'));
      symlinkSync(real, join(ws, '.cursor', 'hooks.json'));
      const opts = {
        scope: 'project' as const,
        workspace: ws,
        homeDir: tempDir(),
        home: tempDir(),
        runner: RUNNER,
      };
      await installHooks('cursor', opts);
      expect(readFileSync(real, 'utf8')).toContain('hook cursor');
      await uninstallHooks('cursor', opts);
      expect(readFileSync(real, 'utf8')).toBe(text);
      expect(readFileSync(join(ws, '.cursor', 'hooks.json'), 'utf8')).toBe(text);
    },
  );
});
