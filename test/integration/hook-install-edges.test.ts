/**
 * `hook install` / `hook uninstall` on config files in shapes a user may well have: our hook inside
 * a group of the user's, values of the wrong type (null too), hooks turned off in the file, the
 * agents' home variables, a file where Cline's hooks directory goes, a Codex file rewritten whole.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import type { HookAgent } from '../../types/hook-agents.js';
import { hookCommand } from '../../src/hooks/install/command.js';
import { installHooks, uninstallHooks } from '../../src/hooks/install/install.js';
import { installTarget } from '../../src/hooks/install/targets.js';
import { resolveHome } from '../../src/store/paths.js';
import { CLI, runCli } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir } from '../helpers/repo.js';
import { OLD_RUNNER, RUNNER, withConfig } from '../helpers/hook-install.js';

/** A JSON settings file whose `event` has one group: the user's lint.sh and our hook, with a comment above. */
function sharedJson(agent: HookAgent, event: string, command: string): string {
  const name = agent === 'gemini' ? ', "name": "agentgate-checkpoints"' : '';
  return [
    '{',
    '  "hooks": {',
    `    "${event}": [`,
    '      // lint what the agent wrote',
    '      {',
    '        "matcher": "write_file",',
    '        "hooks": [',
    '          { "type": "command", "command": "lint.sh" },',
    `          { "type": "command", "command": ${JSON.stringify(command)}${name} }`,
    '        ]',
    '      }',
    '    ]',
    '  }',
    '}',
    '',
  ].join('\n');
}

const SHARED: Array<[HookAgent, string, boolean]> = [
  ['gemini', 'AfterTool', true],
  ['claude-code', 'PostToolUse', false],
  ['qwen', 'PostToolUse', true],
];

describe.each(SHARED)('hook install %s: our hook in a group of the user`s', (agent, event, comments) => {
  const ours = hookCommand(RUNNER, agent);
  const mine = (text: string) => (comments ? text : text.replace('      // lint what the agent wrote\n', ''));

  it('is ours: install adds no second one there, uninstall takes out only our hook and keeps the group', async () => {
    const { opts, file } = withConfig(agent, mine(sharedJson(agent, event, ours)));
    const first = await installHooks(agent, opts);
    expect(first.changes.map((c) => c.event)).not.toContain(event);
    const installed = readFileSync(file, 'utf8');
    const hooks = (parseJsonc(installed) as { hooks: Record<string, unknown[]> }).hooks;
    expect(hooks[event]).toHaveLength(1);
    expect((await installHooks(agent, opts)).written).toBe(false);

    const removed = await uninstallHooks(agent, opts);
    expect(removed.changes).toContainEqual({ event, change: 'removed' });
    const back = readFileSync(file, 'utf8');
    expect(parseJsonc(back)).toEqual({
      hooks: {
        [event]: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'lint.sh' }] }],
      },
    });
    if (comments) expect(back).toContain('      // lint what the agent wrote\n      {\n');
    expect(back).toContain('          { "type": "command", "command": "lint.sh" }\n        ]');
  });

  it('with an old command: install updates that command where it stands, once', async () => {
    const old = hookCommand(OLD_RUNNER, agent);
    const text = mine(sharedJson(agent, event, old));
    const { opts, file } = withConfig(agent, text);
    const result = await installHooks(agent, opts);
    expect(result.changes).toContainEqual({ event, change: 'updated' });
    expect(readFileSync(file, 'utf8').startsWith(text.split(JSON.stringify(old))[0] as string)).toBe(true);
    const hooks = (parseJsonc(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown[]> }).hooks;
    expect(hooks[event]).toEqual([
      {
        matcher: 'write_file',
        hooks: [
          { type: 'command', command: 'lint.sh' },
          {
            type: 'command',
            command: ours,
            ...(agent === 'gemini' ? { name: 'agentgate-checkpoints' } : {}),
          },
        ],
      },
    ]);
  });

  it('beside a whole entry of ours too: one of ours is left (the one in the user`s group)', async () => {
    const text = mine(sharedJson(agent, event, ours)).replace(
      '        ]\n      }\n    ]',
      `        ]\n      },\n      { "hooks": [ { "type": "command", "command": ${JSON.stringify(ours)} } ] }\n    ]`,
    );
    const { opts, file } = withConfig(agent, text);
    expect(parseJsonc(text).hooks[event]).toHaveLength(2);
    const result = await installHooks(agent, opts);
    expect(result.changes).toContainEqual({ event, change: 'updated' });
    const hooks = (parseJsonc(readFileSync(file, 'utf8')) as { hooks: Record<string, unknown[]> }).hooks;
    expect(hooks[event]).toHaveLength(1);
  });
});

describe('hook install codex: our hook in a group of the user`s', () => {
  const ours = hookCommand(RUNNER, 'codex');
  const shared = (command: string) =>
    [
      'model = "o3"',
      '',
      '# lint what the agent wrote',
      '[[hooks.PostToolUse]]',
      'matcher = "apply_patch"',
      '',
      '[[hooks.PostToolUse.hooks]]',
      'type = "command"',
      'command = "lint.sh"',
      '',
      '[[hooks.PostToolUse.hooks]]',
      'type = "command"',
      `command = ${JSON.stringify(command)}`,
      '',
      '# my own stop hook',
      '[[hooks.Stop]]',
      '[[hooks.Stop.hooks]]',
      'type = "command"',
      'command = "notify"',
      '',
    ].join('\n');

  it('install adds none there and keeps every line; uninstall cuts out only our hook`s table', async () => {
    const text = shared(ours);
    const { opts, file } = withConfig('codex', text);
    const first = await installHooks('codex', opts);
    expect(first.changes.map((c) => c.event)).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop']);
    expect(first.notes.join(' ')).not.toMatch(/rewritten/);
    const installed = readFileSync(file, 'utf8');
    expect(installed.startsWith(text)).toBe(true);
    expect((parseToml(installed) as { hooks: Record<string, unknown[]> }).hooks.PostToolUse).toHaveLength(1);
    expect((await installHooks('codex', opts)).written).toBe(false);

    await uninstallHooks('codex', opts);
    const back = readFileSync(file, 'utf8');
    expect(back).toBe(
      text.replace(
        `[[hooks.PostToolUse.hooks]]\ntype = "command"\ncommand = ${JSON.stringify(ours)}\n\n`,
        '',
      ),
    );
  });

  it('an old command of ours there is updated on its line', async () => {
    const old = hookCommand(OLD_RUNNER, 'codex');
    const { opts, file } = withConfig('codex', shared(old));
    const result = await installHooks('codex', opts);
    expect(result.changes).toContainEqual({ event: 'PostToolUse', change: 'updated' });
    expect(result.notes.join(' ')).not.toMatch(/rewritten/);
    expect(readFileSync(file, 'utf8').startsWith(shared(ours))).toBe(true);
  });
});

describe('hook install: values of the wrong type are refused (AGENT_CONFIG_INVALID), the file untouched', () => {
  const cases: Array<[HookAgent, string]> = [
    ['codex', 'hooks = "nope"\n'],
    ['codex', '[hooks]\nSessionStart = 5\n'],
    ['codex', 'hooks = [1, 2]\n'],
    ['codex', 'hooks = 1979-05-27\n'],
    ['codex', '[hooks]\nStop = { hooks = [] }\n'],
    ['claude-code', '{"hooks": null}\n'],
    ['claude-code', '{"hooks": {"Stop": null}}\n'],
    ['cursor', '{"version": 1, "hooks": null}\n'],
    ['gemini', '{"hooks": {"AfterTool": null}}\n'],
    ['qwen', '{"hooks": {"Stop": "nope"}}\n'],
  ];
  it.each(cases)('%s: %j', async (agent, text) => {
    const { opts, file } = withConfig(agent, text);
    await expect(installHooks(agent, opts)).rejects.toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
    await expect(installHooks(agent, { ...opts, dryRun: true })).rejects.toMatchObject({
      code: 'AGENT_CONFIG_INVALID',
    });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('through the CLI: exit 1 with the code, for a Codex hooks that is a string', () => {
    const { ws, file } = withConfig('codex', 'hooks = "nope"\n');
    const run = runCli(['hook', 'install', 'codex', '--json', '-C', ws]);
    expect([run.status, (run.json() as { error: { code: string } }).error.code]).toEqual([
      1,
      'AGENT_CONFIG_INVALID',
    ]);
    expect(readFileSync(file, 'utf8')).toBe('hooks = "nope"\n');
  });
});

describe('hook install: a file that turns hooks off is named in the notes, with what to change', () => {
  const cases: Array<[HookAgent, string, RegExp]> = [
    ['claude-code', '{"disableAllHooks": true}\n', /"disableAllHooks": true/],
    ['qwen', '{"disableAllHooks": true}\n', /"disableAllHooks": true/],
    ['gemini', '{"hooksConfig": {"enabled": false}}\n', /"hooksConfig\.enabled": false/],
    ['gemini', '{"tools": {"enableHooks": false}}\n', /"tools\.enableHooks": false/],
    ['gemini', '{"hooksConfig": {"disabled": ["agentgate-checkpoints"]}}\n', /"hooksConfig\.disabled"/],
    // The releases before hooksConfig kept the switches in `hooks`; Gemini CLI still moves them there.
    ['gemini', '{"hooks": {"enabled": false}}\n', /"hooks\.enabled": false/],
    ['gemini', '{"hooks": {"disabled": ["agentgate-checkpoints"]}}\n', /"hooks\.disabled"/],
    ['codex', '[features]\nhooks = false\n', /\[features\] hooks = false/],
  ];
  it.each(cases)('%s: %j', async (agent, text, note) => {
    const { opts, file } = withConfig(agent, text);
    const first = await installHooks(agent, opts);
    expect(first.notes.join('\n')).toMatch(note);
    expect(first.notes.join('\n')).toContain(file);
    // Already installed: still said.
    expect((await installHooks(agent, opts)).notes.join('\n')).toMatch(note);
    expect((await uninstallHooks(agent, opts)).notes).toEqual([]);
  });

  it('and not when the switch is on', async () => {
    const { opts } = withConfig('qwen', '{"disableAllHooks": false}\n');
    expect((await installHooks('qwen', opts)).notes.join('\n')).not.toMatch(/disableAllHooks/);
  });

  it('Gemini: a hooksConfig switch wins over the older one in hooks, as Gemini CLI merges them', async () => {
    const on = withConfig('gemini', '{"hooksConfig": {"enabled": true}, "hooks": {"enabled": false}}\n');
    expect((await installHooks('gemini', on.opts)).notes.join('\n')).not.toMatch(/enabled": false/);
    const off = withConfig('gemini', '{"hooksConfig": {"enabled": false}, "hooks": {"enabled": true}}\n');
    expect((await installHooks('gemini', off.opts)).notes.join('\n')).toMatch(
      /"hooksConfig\.enabled": false/,
    );
  });

  it('the CLI prints it when nothing else changed', async () => {
    const { ws, opts } = withConfig('qwen', '{"disableAllHooks": true}\n');
    // The CLI's command names the home $AGENTGATE_HOME gives it (the test's own).
    const home = resolveHome();
    await installHooks('qwen', { ...opts, runner: { node: process.execPath, bin: CLI, home } });
    const again = runCli(['hook', 'install', 'qwen', '-C', ws]);
    expect(again.stdout).toMatch(/already installed/);
    expect(again.stdout).toMatch(/Next: .*disableAllHooks/);
  });
});

describe('hook install run from npx`s cache (`npx agentgate-snapshotter ...` without the package installed)', () => {
  it('says the command names a bin npm may delete, and how to keep the hooks working', async () => {
    const npx = {
      node: process.execPath,
      bin: '/u/.npm/_npx/0a1b2c/node_modules/agentgate-snapshotter/dist/bin/agentgate-snapshot.js',
    };
    for (const agent of ['claude-code', 'cline', 'codex'] as const) {
      const opts = {
        scope: 'project' as const,
        workspace: repoWithCommit(),
        homeDir: tempDir(),
        runner: npx,
      };
      const notes = (await installHooks(agent, opts)).notes.join('\n');
      expect(notes).toMatch(/npx.s cache/);
      expect(notes).toMatch(/install the package/);
    }
    // An installed bin: no such note.
    const { opts } = withConfig('claude-code', '{}');
    expect((await installHooks('claude-code', opts)).notes.join('\n')).not.toMatch(/npx/);
  });
});

describe('hook install copilot: the cloud agent`s note', () => {
  it('is for the project`s file only: the cloud agent never reads ~/.copilot/hooks', () => {
    const place = { workspace: '/w', homeDir: '/h' };
    expect(installTarget('copilot', { ...place, scope: 'project' }).notes.join(' ')).toMatch(/cloud agent/);
    expect(installTarget('copilot', { ...place, scope: 'user' }).notes.join(' ')).not.toMatch(/cloud agent/);
  });
});

describe('hook install --user: the agents` home variables', () => {
  it('Codex writes $CODEX_HOME/config.toml, Copilot $COPILOT_HOME/hooks/agentgate.json', async () => {
    const ws = repoWithCommit();
    const homeDir = tempDir();
    const codexHome = tempDir('agentgate-codex-home-');
    const copilotHome = tempDir('agentgate-copilot-home-');
    const env = { CODEX_HOME: codexHome, COPILOT_HOME: copilotHome };
    const opts = { scope: 'user' as const, workspace: ws, homeDir, runner: RUNNER, env };
    expect((await installHooks('codex', opts)).file).toBe(join(codexHome, 'config.toml'));
    expect(existsSync(join(codexHome, 'config.toml'))).toBe(true);
    expect((await installHooks('copilot', opts)).file).toBe(join(copilotHome, 'hooks/agentgate.json'));
    expect(existsSync(join(copilotHome, 'hooks/agentgate.json'))).toBe(true);
    expect(existsSync(join(homeDir, '.codex'))).toBe(false);
    // Unset or empty: the home directory; a project install never reads them.
    const plain = { scope: 'user' as const, workspace: ws, homeDir, env: { CODEX_HOME: '' } };
    expect(installTarget('codex', plain).file).toBe(join(homeDir, '.codex/config.toml'));
    expect(installTarget('copilot', plain).file).toBe(join(homeDir, '.copilot/hooks/agentgate.json'));
    expect(installTarget('codex', { ...opts, scope: 'project' }).file).toBe(join(ws, '.codex/config.toml'));
  });

  it('through the CLI', () => {
    const ws = repoWithCommit();
    const codexHome = tempDir('agentgate-codex-home-');
    const env = { HOME: tempDir(), CODEX_HOME: codexHome };
    const run = runCli(['hook', 'install', 'codex', '--user', '--json', '-C', ws], { env });
    expect((run.json() as { file: string }).file).toBe(join(codexHome, 'config.toml'));
  });

  it('Claude Code writes $CLAUDE_CONFIG_DIR/settings.json, Gemini $GEMINI_CLI_HOME/.gemini/settings.json, Qwen $QWEN_HOME/settings.json', async () => {
    const ws = repoWithCommit();
    const homeDir = tempDir();
    const [claude, gemini, qwen] = [
      tempDir('agentgate-claude-'),
      tempDir('agentgate-gemini-'),
      tempDir('agentgate-qwen-'),
    ];
    const env = { CLAUDE_CONFIG_DIR: claude, GEMINI_CLI_HOME: gemini, QWEN_HOME: qwen };
    const opts = { scope: 'user' as const, workspace: ws, homeDir, runner: RUNNER, env };
    expect((await installHooks('claude-code', opts)).file).toBe(join(claude, 'settings.json'));
    expect(readFileSync(join(claude, 'settings.json'), 'utf8')).toContain('hook claude-code');
    expect((await installHooks('gemini', opts)).file).toBe(join(gemini, '.gemini/settings.json'));
    expect(readFileSync(join(gemini, '.gemini/settings.json'), 'utf8')).toContain('hook gemini');
    expect((await installHooks('qwen', opts)).file).toBe(join(qwen, 'settings.json'));
    expect(readFileSync(join(qwen, 'settings.json'), 'utf8')).toContain('hook qwen');
    for (const dir of ['.claude', '.gemini', '.qwen']) expect(existsSync(join(homeDir, dir))).toBe(false);
    // Qwen reads `~` and `~/x` against the home directory.
    const tilde = { ...opts, env: { QWEN_HOME: '~/qwen-home' } };
    expect(installTarget('qwen', tilde).file).toBe(join(homeDir, 'qwen-home/settings.json'));
    // Unset or empty: the home directory's; a project install never reads them.
    const plain = {
      scope: 'user' as const,
      workspace: ws,
      homeDir,
      env: { CLAUDE_CONFIG_DIR: '', QWEN_HOME: '' },
    };
    expect(installTarget('claude-code', plain).file).toBe(join(homeDir, '.claude/settings.json'));
    expect(installTarget('gemini', plain).file).toBe(join(homeDir, '.gemini/settings.json'));
    expect(installTarget('qwen', plain).file).toBe(join(homeDir, '.qwen/settings.json'));
    for (const agent of ['claude-code', 'gemini', 'qwen'] as const)
      expect(installTarget(agent, { ...opts, scope: 'project' }).file.startsWith(ws)).toBe(true);
    await uninstallHooks('claude-code', opts);
    expect(existsSync(join(claude, 'settings.json'))).toBe(false);
  });

  it('Claude Code through the CLI', () => {
    const ws = repoWithCommit();
    const claude = tempDir('agentgate-claude-');
    const env = { HOME: tempDir(), CLAUDE_CONFIG_DIR: claude };
    const run = runCli(['hook', 'install', 'claude-code', '--user', '--json', '-C', ws], { env });
    expect((run.json() as { file: string }).file).toBe(join(claude, 'settings.json'));
  });
});

describe('hook install cline: what stands where its hooks go', () => {
  it('a file where the hooks directory goes is AGENT_CONFIG_INVALID naming it; nothing is written', async () => {
    const { opts, file } = withConfig('cline', 'x');
    expect(file).toBe(join(opts.workspace, '.clinerules/hooks'));
    await expect(installHooks('cline', opts)).rejects.toMatchObject({
      code: 'AGENT_CONFIG_INVALID',
      details: { file },
    });
    expect(readFileSync(file, 'utf8')).toBe('x');
  });

  it('a directory of the user`s named after an event is left alone and reported', async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    const dir = join(ws, '.clinerules/hooks');
    mkdirSync(join(dir, 'TaskStart'), { recursive: true });
    const result = await installHooks('cline', opts);
    expect(result.leftAlone).toEqual([join(dir, 'TaskStart')]);
    expect(result.changes).toHaveLength(5);
    await uninstallHooks('cline', opts);
    expect(existsSync(join(dir, 'TaskStart'))).toBe(true);
    expect(existsSync(join(dir, 'TaskResume'))).toBe(false);
  });

  it('an unreadable hook file is AGENT_CONFIG_INVALID, not a write failure', async () => {
    if (process.getuid?.() === 0) return; // root reads it anyway
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    const hook = join(ws, '.clinerules/hooks/TaskStart');
    mkdirSync(dirname(hook), { recursive: true });
    writeFileSync(hook, '#!/bin/sh\n');
    chmodSync(hook, 0o000);
    await expect(installHooks('cline', opts)).rejects.toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
  });
});

describe('hook install codex: a file rewritten whole', () => {
  const inline =
    'ratio = 1.0\ncount = 1\nhooks = { Stop = [ { hooks = [ { type = "command", command = "notify" } ] } ] }\n';

  it('--dry-run says it would be rewritten (and writes nothing); floats stay floats', async () => {
    const { opts, file } = withConfig('codex', inline);
    const dry = await installHooks('codex', { ...opts, dryRun: true });
    expect(dry.notes[0]).toMatch(/would be rewritten whole/);
    expect(readFileSync(file, 'utf8')).toBe(inline);
    const real = await installHooks('codex', opts);
    expect(real.notes[0]).toMatch(/was rewritten whole/);
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^ratio = 1\.0$/m);
    expect(text).toMatch(/^count = 1$/m);
    await uninstallHooks('codex', opts);
    expect(parseToml(readFileSync(file, 'utf8'))).toEqual(parseToml(inline));
    expect(readFileSync(file, 'utf8')).toMatch(/^ratio = 1\.0$/m);
  });
});

describe('hook install --project: the project is the repository`s top level', () => {
  it('from a subdirectory, writes the top level`s file; outside git, the directory`s own', async () => {
    const ws = repoWithCommit();
    mkdirSync(join(ws, 'sub', 'deeper'), { recursive: true });
    const opts = { scope: 'project' as const, homeDir: tempDir(), home: tempDir(), runner: RUNNER };
    const r = await installHooks('cursor', { ...opts, workspace: join(ws, 'sub', 'deeper') });
    expect(r.file).toBe(join(ws, '.cursor', 'hooks.json'));
    expect(existsSync(join(ws, 'sub', 'deeper', '.cursor'))).toBe(false);
    expect((await uninstallHooks('cursor', { ...opts, workspace: join(ws, 'sub') })).written).toBe(true);
    expect(existsSync(join(ws, '.cursor'))).toBe(false);
    const plain = tempDir('agentgate-install-plain-');
    mkdirSync(join(plain, 'sub'));
    const p = await installHooks('cursor', { ...opts, workspace: join(plain, 'sub') });
    expect(p.file).toBe(join(plain, 'sub', '.cursor', 'hooks.json'));
  });

  it('from inside its .git, writes the top level`s file; a bare repository is refused (INVALID_ARGUMENT)', async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, homeDir: tempDir(), home: tempDir(), runner: RUNNER };
    for (const inside of [join(ws, '.git'), join(ws, '.git', 'refs')]) {
      const r = await installHooks('claude-code', { ...opts, workspace: inside });
      expect(r.file).toBe(join(ws, '.claude', 'settings.json'));
      expect(existsSync(join(inside, '.claude'))).toBe(false);
    }
    const bare = join(tempDir('agentgate-install-bare-'), 'b.git');
    git(ws, ['init', '-q', '--bare', bare]);
    for (const workspace of [bare, join(bare, 'refs')])
      await expect(installHooks('claude-code', { ...opts, workspace })).rejects.toMatchObject({
        code: 'INVALID_ARGUMENT',
      });
    expect(existsSync(join(bare, '.claude'))).toBe(false);
    const cli = runCli([
      '--json',
      '--home',
      tempDir(),
      'hook',
      'install',
      'cursor',
      '--project',
      '-C',
      join(ws, '.git', 'refs'),
    ]);
    expect(cli.status).toBe(0);
    expect(existsSync(join(ws, '.cursor', 'hooks.json'))).toBe(true);
  });

  it('from inside a linked worktree`s or a submodule`s git dir, writes that work tree`s file; once it is gone, refused', async () => {
    const ws = repoWithCommit();
    const wt = join(tempDir('agentgate-install-wt-'), 'wt');
    git(ws, ['worktree', 'add', '-q', wt, '-b', 'wt']);
    git(ws, ['-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', repoWithCommit(), 'sub']);
    const opts = {
      scope: 'project' as const,
      homeDir: tempDir(),
      home: tempDir(),
      runner: RUNNER,
      dryRun: true,
    };
    const cases = [
      [join(ws, '.git', 'worktrees', 'wt'), wt],
      [join(ws, '.git', 'worktrees', 'wt', 'logs'), wt],
      [join(ws, '.git', 'modules', 'sub'), join(ws, 'sub')],
      [join(ws, '.git', 'modules', 'sub', 'refs'), join(ws, 'sub')],
    ];
    for (const [workspace, top] of cases)
      expect((await installHooks('cursor', { ...opts, workspace: workspace as string })).file).toBe(
        join(top as string, '.cursor', 'hooks.json'),
      );
    git(ws, ['submodule', 'deinit', '-q', '-f', 'sub']);
    rmSync(wt, { recursive: true });
    for (const [workspace] of cases)
      await expect(installHooks('cursor', { ...opts, workspace: workspace as string })).rejects.toMatchObject(
        { code: 'INVALID_ARGUMENT' },
      );
  });

  it('refuses the home directory and / (INVALID_ARGUMENT), writing nothing', async () => {
    const homeDir = tempDir('agentgate-install-userhome-');
    const opts = { scope: 'project' as const, homeDir, home: tempDir(), runner: RUNNER };
    for (const workspace of [homeDir, '/'])
      for (const action of [installHooks, uninstallHooks])
        await expect(action('gemini', { ...opts, workspace })).rejects.toMatchObject({
          code: 'INVALID_ARGUMENT',
        });
    expect(existsSync(join(homeDir, '.gemini'))).toBe(false);
    // The CLI's home directory is $HOME.
    const cli = runCli(['--json', '--home', tempDir(), 'hook', 'install', 'gemini', '--project'], {
      cwd: homeDir,
      env: { HOME: homeDir },
    });
    const error = (cli.json() as { error: { code: string } }).error;
    expect([cli.status, error.code]).toEqual([2, 'INVALID_ARGUMENT']);
    expect(existsSync(join(homeDir, '.gemini'))).toBe(false);
  });
});
