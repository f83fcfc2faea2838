/**
 * `hook uninstall` gives back what `hook install` found: a file the user had, byte for byte (even
 * one that holds as little as `{}`), never deleted; a file and the directories install created,
 * removed. What install found is kept in its record in the home (install-record.ts); without it,
 * or once the file changed since, our entries are cut out and nothing that was there is removed.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { HookAgent } from '../../types/hook-agents.js';
import { installHooks, uninstallHooks } from '../../src/hooks/install/install.js';
import { installTarget } from '../../src/hooks/install/targets.js';
import { runCli } from '../helpers/cli.js';
import { OLD_RUNNER, RUNNER, withConfig } from '../helpers/hook-install.js';
import { git, repoWithCommit, tempDir } from '../helpers/repo.js';

/** A user's own file, for each agent: as little as an agent's file can hold, and the shapes install used to lose. */
const KEPT: Array<[HookAgent, string]> = [
  ['claude-code', '{"hooks":{}}\n'],
  ['claude-code', '{}'],
  ['cursor', '{"version":1}\n'],
  ['cursor', '{}\n'],
  ['gemini', '{}\n'],
  ['gemini', '{\n  "hooks": {\n    "BeforeAgent": [\n    ]\n  }\n}\n'],
  ['qwen', '{"hooks":{}}\n'],
  ['qwen', '{\n  "hooks": {"Stop": []}\n}\n'],
  ['copilot', '{}\n'],
  ['copilot', '{"version": 1, "hooks": {}}'],
  ['windsurf', '{"hooks":{}}\n'],
  ['codex', ''],
  ['codex', 'model = "o3"'],
  ['claude-code', '{\r\n  "model": "x",\r\n  "hooks": {\r\n    "Stop": []\r\n  }\r\n}\r\n'],
  ['codex', '# mine\r\nmodel = "o3"\r\n'],
  ['gemini', '\uFEFF{\n  // mine\n}'],
];

describe('hook uninstall after hook install', () => {
  it.each(KEPT)('%s: the user`s file %j is given back byte for byte', async (agent, text) => {
    const { opts, file } = withConfig(agent, text);
    const installed = await installHooks(agent, opts);
    expect(installed.written).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain(`hook ${agent}`);
    await uninstallHooks(agent, opts);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it.each(KEPT.slice(0, 3))(
    '%s: through the CLI, a tracked file %j stays tracked and unchanged',
    (agent, text) => {
      const { ws, file } = withConfig(agent, text);
      git(ws, ['add', '-A']);
      git(ws, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'settings']);
      const home = tempDir();
      for (const action of ['install', 'uninstall'])
        expect(runCli(['hook', action, agent, '-C', ws, '--home', home]).status).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(text);
      expect(git(ws, ['status', '--porcelain'])).toBe('');
    },
  );

  it('a command moved by a second install (another bin): the file still comes back as it was', async () => {
    const text = '{\n  "model": "x"\n}';
    const { opts, file } = withConfig('cursor', text);
    await installHooks('cursor', { ...opts, runner: OLD_RUNNER });
    expect((await installHooks('cursor', opts)).changes.every((c) => c.change === 'updated')).toBe(true);
    await uninstallHooks('cursor', opts);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it.each<[HookAgent, string[]]>([
    ['claude-code', ['.claude']],
    ['copilot', ['.github']],
    ['codex', ['.codex']],
    ['cline', ['.clinerules']],
  ])('%s: the file install created goes, and so do the directories it created', async (agent, dirs) => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    await installHooks(agent, opts);
    for (const dir of dirs) expect(existsSync(join(ws, dir))).toBe(true);
    await uninstallHooks(agent, opts);
    expect(readdirSync(ws).sort()).toEqual(['.git', 'README.md']);
  });

  it('a file install created and the user removed: uninstall still removes the directory install made for it', async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    await installHooks('gemini', opts);
    rmSync(installTarget('gemini', opts).file);
    await uninstallHooks('gemini', opts);
    expect(existsSync(join(ws, '.gemini'))).toBe(false);
  });

  it('a directory that was there before install stays, empty or not', async () => {
    const ws = repoWithCommit();
    mkdirSync(join(ws, '.github'));
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    await installHooks('copilot', opts);
    await uninstallHooks('copilot', opts);
    expect(readdirSync(join(ws, '.github'))).toEqual([]);
  });

  it('--user: ~/Documents/Cline/Hooks and ~/.copilot/hooks go with what install put there', async () => {
    const homeDir = tempDir();
    mkdirSync(join(homeDir, 'Documents'));
    const opts = { scope: 'user' as const, workspace: repoWithCommit(), homeDir, runner: RUNNER, env: {} };
    for (const agent of ['cline', 'copilot'] as const) {
      await installHooks(agent, opts);
      await uninstallHooks(agent, opts);
    }
    expect(readdirSync(homeDir)).toEqual(['Documents']);
    expect(readdirSync(join(homeDir, 'Documents'))).toEqual([]);
  });
});

describe('hook uninstall of a file changed since install', () => {
  it('cuts ours out and keeps what the user added; a file they had is never removed, nor one install created that they edited since', async () => {
    const { opts, file } = withConfig('claude-code', '{}\n');
    await installHooks('claude-code', opts);
    writeFileSync(file, readFileSync(file, 'utf8').replace('{\n', '{\n  "model": "x",\n'));
    await uninstallHooks('claude-code', opts);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ model: 'x' });
    writeFileSync(file, '{}\n');
    await installHooks('claude-code', opts);
    writeFileSync(file, `${readFileSync(file, 'utf8').trimEnd()}  \n`);
    await uninstallHooks('claude-code', opts);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({});

    const ws = repoWithCommit();
    const created = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    const ours = installTarget('claude-code', created).file;
    await installHooks('claude-code', created);
    writeFileSync(ours, `${readFileSync(ours, 'utf8').trimEnd()}  \n`);
    await uninstallHooks('claude-code', created);
    expect(JSON.parse(readFileSync(ours, 'utf8'))).toEqual({});
  });

  it('keeps a CRLF file in CRLF and one without a final line break without one', async () => {
    const text = '{\r\n  "model": "x"\r\n}';
    const { opts, file } = withConfig('claude-code', text);
    await installHooks('claude-code', opts);
    const installed = readFileSync(file, 'utf8');
    expect(installed.replaceAll('\r\n', '')).not.toContain('\n');
    expect(installed.endsWith('}')).toBe(true);
    writeFileSync(file, installed.replace('"model": "x"', '"model": "y"'));
    await uninstallHooks('claude-code', opts);
    expect(readFileSync(file, 'utf8')).toBe(text.replace('"x"', '"y"'));
  });

  it('with another home (no record of the install): ours cut out, the file kept', async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    const file = installTarget('cursor', opts).file;
    await installHooks('cursor', { ...opts, home: tempDir() });
    await uninstallHooks('cursor', { ...opts, home: tempDir() });
    expect(readFileSync(file, 'utf8')).not.toContain('hook cursor');
  });
});

describe('hook install --config FILE', () => {
  it('the command it writes names that config file (absolute); installing with another one updates it', () => {
    const ws = repoWithCommit();
    const home = tempDir();
    const dir = tempDir();
    for (const name of ['a.yaml', 'b.yaml']) writeFileSync(join(dir, name), 'hooks:\n  timeoutMs: 4000\n');
    const install = (config: string) =>
      runCli(['hook', 'install', 'cursor', '-C', ws, '--home', home, '--config', config, '--json'], {
        cwd: dir,
      }).json() as { command: string; changes: Array<{ change: string }> };
    const first = install('a.yaml');
    expect(first.command).toContain(`--config ${join(dir, 'a.yaml')}`);
    const again = install('b.yaml');
    expect(again.command).toContain(`--config ${join(dir, 'b.yaml')}`);
    expect(again.changes.map((c) => c.change)).toEqual(Array(5).fill('updated'));
    expect(readFileSync(join(ws, '.cursor/hooks.json'), 'utf8')).not.toContain('a.yaml');
  });
});

describe('hook install --user with HOME empty', () => {
  it.each<[HookAgent, string]>([
    ['claude-code', '.claude/settings.json'],
    ['codex', '.codex/config.toml'],
    ['cline', 'Documents/Cline/Hooks'],
  ])('%s: the account`s home directory, absolute, not the current directory', (agent, path) => {
    const cwd = tempDir();
    const res = runCli(['hook', 'install', agent, '--user', '--dry-run', '--json'], {
      cwd,
      env: { HOME: '', CODEX_HOME: '', AGENTGATE_HOME: tempDir() },
    });
    expect(res.status, res.stderr).toBe(0);
    const file = (res.json() as { file: string }).file;
    expect(isAbsolute(file)).toBe(true);
    expect(file).toBe(join(userInfo().homedir, path));
    expect(readdirSync(cwd)).toEqual([]);
  });
});
