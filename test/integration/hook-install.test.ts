/**
 * `hook install` / `hook uninstall` on each agent's real config format, with the user's own entries
 * (and comments, where the format has them) already there: merged, idempotent, removed cleanly,
 * and the command written actually runs our hook.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import type { HookAgent } from '../../types/hook-agents.js';
import { hookCommand } from '../../src/hooks/install/command.js';
import { installHooks, uninstallHooks } from '../../src/hooks/install/install.js';
import { installTarget } from '../../src/hooks/install/targets.js';
import { AGENT_FIXTURES, agentEvent } from '../helpers/agent-hooks.js';
import { CLI, runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

const CONFIGS: Array<[HookAgent, string, string | null]> = [
  ['claude-code', 'claude-code.settings.json', null],
  ['codex', 'codex.config.toml', '# notify me when a turn ends'],
  ['gemini', 'gemini.settings.json', '// Gemini CLI allows comments here'],
  ['qwen', 'qwen.settings.json', '// project settings'],
  ['cursor', 'cursor.hooks.json', null],
  ['copilot', 'copilot.agentgate.json', null],
  ['windsurf', 'windsurf.hooks.json', null],
];

const RUNNER = { node: process.execPath, bin: CLI };

function setup(agent: HookAgent, fixture: string | null) {
  const ws = repoWithCommit();
  const homeDir = tempDir('agentgate-install-user-');
  const opts = { scope: 'project' as const, workspace: ws, homeDir, runner: RUNNER };
  const file = installTarget(agent, opts).file;
  if (fixture !== null) {
    mkdirSync(dirname(file), { recursive: true });
    copyFileSync(join(AGENT_FIXTURES, 'config', fixture), file);
  }
  return { ws, opts, file };
}

function parsed(agent: HookAgent, text: string): Record<string, unknown> {
  return (agent === 'codex' ? parseToml(text) : parseJsonc(text)) as Record<string, unknown>;
}

describe.each(CONFIGS)('hook install %s', (agent, fixture, comment) => {
  it('merges ours beside the user`s entries, a second install changes nothing, uninstall leaves the user`s file as it was', async () => {
    const { opts, file } = setup(agent, fixture);
    const original = readFileSync(file, 'utf8');
    const target = installTarget(agent, opts);

    const dry = await installHooks(agent, { ...opts, dryRun: true });
    expect([dry.written, dry.changes.length]).toEqual([false, target.events.length]);
    expect(readFileSync(file, 'utf8')).toBe(original);

    const first = await installHooks(agent, opts);
    expect(first.written).toBe(true);
    expect(first.changes.map((c) => c.change)).toEqual(target.events.map(() => 'added'));
    const text = readFileSync(file, 'utf8');
    if (comment !== null) expect(text).toContain(comment);
    const after = parsed(agent, text);
    const before = parsed(agent, original);
    // Every key and every entry of the user's is still there, unchanged.
    for (const [key, value] of Object.entries(before))
      if (key !== 'hooks') expect(after[key], key).toEqual(value);
    const hooksBefore = before.hooks as Record<string, unknown[]>;
    const hooksAfter = after.hooks as Record<string, unknown[]>;
    for (const [event, list] of Object.entries(hooksBefore))
      expect(hooksAfter[event]?.slice(0, list.length), event).toEqual(list);
    for (const event of target.events) expect(JSON.stringify(hooksAfter[event])).toContain(`hook ${agent}`);

    const second = await installHooks(agent, opts);
    expect([second.written, second.changes]).toEqual([false, []]);
    expect(readFileSync(file, 'utf8')).toBe(text);

    const removed = await uninstallHooks(agent, opts);
    expect(removed.changes.map((c) => c.change)).toEqual(target.events.map(() => 'removed'));
    const back = readFileSync(file, 'utf8');
    expect(parsed(agent, back)).toEqual(before);
    if (agent === 'codex') expect(back).toBe(original);
    if (comment !== null) expect(back).toContain(comment);
    expect((await uninstallHooks(agent, opts)).changes).toEqual([]);
  });

  it('the command it writes runs our hook: exit 0, a checkpoint of the workspace', async () => {
    const { ws, opts } = setup(agent, null);
    const result = await installHooks(agent, opts);
    const command = result.command as string;
    const home = tempDir('agentgate-install-home-');
    const run = spawnSync('sh', ['-c', command], {
      input: agentEvent(agent, promptOf(agent), ws),
      cwd: ws,
      env: { ...process.env, AGENTGATE_HOME: home },
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    const list = runCli(['checkpoint', 'list', '--json', '-C', ws], { env: { AGENTGATE_HOME: home } });
    expect(list.json()).toEqual([expect.objectContaining({ session: expect.any(String) })]);
  });
});

/** The fixture of the first event each agent's install hooks (Claude Code's live in fixtures/claude-code). */
function promptOf(agent: HookAgent): string {
  const names: Record<HookAgent, string> = {
    codex: 'UserPromptSubmit',
    gemini: 'BeforeAgent',
    qwen: 'UserPromptSubmit',
    cursor: 'beforeSubmitPrompt',
    copilot: 'sessionStart',
    windsurf: 'pre_user_prompt',
    'claude-code': 'UserPromptSubmit',
    cline: 'UserPromptSubmit',
  };
  return names[agent];
}

describe('hook install codex: a config.toml whose hooks table is inline', () => {
  it('cannot take an appended block: the file is rewritten through smol-toml, the plan says its comments were not kept, the user`s hooks stay', async () => {
    const { opts, file } = setup('codex', null);
    mkdirSync(dirname(file), { recursive: true });
    const inline =
      '# mine\nmodel = "o3"\nhooks = { Stop = [ { hooks = [ { type = "command", command = "notify" } ] } ] }\n';
    writeFileSync(file, inline);
    const result = await installHooks('codex', opts);
    expect(result.notes[0]).toMatch(/rewritten whole .*comments were not kept/);
    const after = parseToml(readFileSync(file, 'utf8')) as {
      model: string;
      hooks: Record<string, unknown[]>;
    };
    expect(after.model).toBe('o3');
    expect(after.hooks.Stop?.[0]).toEqual({ hooks: [{ type: 'command', command: 'notify' }] });
    expect(after.hooks.Stop).toHaveLength(2);
    expect((await installHooks('codex', opts)).changes).toEqual([]);
    await uninstallHooks('codex', opts);
    expect(parseToml(readFileSync(file, 'utf8'))).toEqual(parseToml(inline));
  });
});

describe('hook install codex: the trust state Codex keeps under [hooks.state]', () => {
  it('is kept when the file is rewritten whole (an inline hooks table), and by uninstall', async () => {
    // codex-rs config: `hooks.state."<key>" = { enabled, trusted_hash }` sits beside the event lists.
    const { opts, file } = setup('codex', null);
    mkdirSync(dirname(file), { recursive: true });
    const inline =
      'hooks = { Stop = [ { hooks = [ { type = "command", command = "notify" } ] } ], ' +
      'state = { "config.toml:stop:0:0" = { enabled = true, trusted_hash = "sha256:ab12" } } }\n';
    writeFileSync(file, inline);
    await installHooks('codex', opts);
    const state = { 'config.toml:stop:0:0': { enabled: true, trusted_hash: 'sha256:ab12' } };
    expect((parseToml(readFileSync(file, 'utf8')) as { hooks: { state: unknown } }).hooks.state).toEqual(
      state,
    );
    await uninstallHooks('codex', opts);
    expect(parseToml(readFileSync(file, 'utf8'))).toEqual(parseToml(inline));
  });
});

describe('hook install: what the user still has to do', () => {
  it('names the switches the agents have today (Gemini: hooksConfig.enabled, on by default; Cline: on by default)', () => {
    const place = { scope: 'project' as const, workspace: '/w', homeDir: '/h' };
    // google-gemini/gemini-cli #17867 removed tools.enableHooks; hooksConfig.enabled defaults to true.
    const gemini = installTarget('gemini', place).notes.join(' ');
    expect(gemini).toMatch(/hooksConfig\.enabled/);
    expect(gemini).not.toMatch(/tools\.enableHooks/);
    // cline/cline: getHooksEnabledSafe(setting ?? true); the SDK CLI has no hooks-enabled switch.
    expect(installTarget('cline', place).notes.join(' ')).not.toMatch(/hooks-enabled=true/);
  });
});

describe('hook install copilot: our own file', () => {
  it('is created by install and removed by uninstall when nothing of the user`s is in it', async () => {
    const { opts, file } = setup('copilot', null);
    await installHooks('copilot', opts);
    expect(parseJsonc(readFileSync(file, 'utf8'))).toMatchObject({ version: 1 });
    await uninstallHooks('copilot', opts);
    expect(existsSync(file)).toBe(false);
  });
});

describe('hook install cline', () => {
  it('writes one executable per event, leaves a hook file of the user`s alone and says so, uninstall removes only ours', async () => {
    const { ws, opts } = setup('cline', null);
    const dir = join(ws, '.clinerules/hooks');
    mkdirSync(dir, { recursive: true });
    copyFileSync(join(AGENT_FIXTURES, 'config/cline.TaskStart'), join(dir, 'TaskStart'));
    chmodSync(join(dir, 'TaskStart'), 0o755);
    const theirs = readFileSync(join(dir, 'TaskStart'), 'utf8');
    const first = await installHooks('cline', opts);
    expect(first.leftAlone).toEqual([join(dir, 'TaskStart')]);
    expect(first.changes.map((c) => c.event)).toEqual([
      'TaskResume',
      'UserPromptSubmit',
      'PostToolUse',
      'TaskComplete',
      'TaskCancel',
    ]);
    expect(statSync(join(dir, 'UserPromptSubmit')).mode & 0o111).toBe(0o111);
    expect((await installHooks('cline', opts)).changes).toEqual([]);
    // The script itself, as Cline runs it: exit 0, {"cancel": false} on stdout, a checkpoint.
    const home = tempDir('agentgate-install-home-');
    const out = execFileSync(join(dir, 'UserPromptSubmit'), {
      input: agentEvent('cline', 'UserPromptSubmit', ws),
      env: { ...process.env, AGENTGATE_HOME: home },
      encoding: 'utf8',
    });
    expect(out).toBe('{"cancel": false}\n');
    await uninstallHooks('cline', opts);
    expect(readFileSync(join(dir, 'TaskStart'), 'utf8')).toBe(theirs);
    expect(existsSync(join(dir, 'UserPromptSubmit'))).toBe(false);
  });
});

describe('hook install (CLI)', () => {
  it('--user writes the user`s file, prints what changed and the trust step; --dry-run writes nothing; a broken file is refused with a code', () => {
    const ws = repoWithCommit();
    const homeDir = tempDir('agentgate-install-user-');
    // CODEX_HOME unset: the file goes under HOME.
    const env = { HOME: homeDir, CODEX_HOME: '' };
    const dry = runCli(['hook', 'install', 'codex', '--user', '--dry-run', '-C', ws], { env });
    expect(dry.status).toBe(0);
    expect(dry.stdout).toMatch(/would change .*\.codex\/config\.toml \(dry run: nothing written\)/);
    expect(existsSync(join(homeDir, '.codex/config.toml'))).toBe(false);
    const real = runCli(['hook', 'install', 'codex', '--user', '-C', ws], { env });
    expect(real.stdout).toMatch(/\+ UserPromptSubmit \(added\)/);
    expect(real.stdout).toMatch(/Next: Codex skips hooks it has not trusted: .*\/hooks/);
    expect(real.stdout).toMatch(
      new RegExp(`runs: ${process.execPath.replaceAll('/', '\\/')} \\S+agentgate-snapshot\\.js hook codex`),
    );
    expect(runCli(['hook', 'install', 'codex', '--user', '-C', ws], { env }).stdout).toMatch(
      /already installed/,
    );
    expect(runCli(['hook', 'install', 'codex', '--user', '--project', '-C', ws], { env }).status).toBe(2);
    const unknown = runCli(['hook', 'install', 'emacs', '--json', '-C', ws], { env });
    expect([unknown.status, (unknown.json() as { error: { code: string } }).error.code]).toEqual([
      2,
      'INVALID_ARGUMENT',
    ]);
    mkdirSync(join(ws, '.cursor'));
    const broken = join(ws, '.cursor/hooks.json');
    copyFileSync(join(AGENT_FIXTURES, 'config/gemini.settings.json'), broken); // comments: not JSON
    const refused = runCli(['hook', 'install', 'cursor', '--json', '-C', ws], { env });
    expect((refused.json() as { error: { code: string } }).error.code).toBe('AGENT_CONFIG_INVALID');
    expect(readFileSync(broken, 'utf8')).toBe(
      readFileSync(join(AGENT_FIXTURES, 'config/gemini.settings.json'), 'utf8'),
    );
  });
});

describe('hook install keeps a settings file as its owner keeps it', () => {
  it('through a symbolic link (the file it names is edited) and with its mode (0600 stays 0600)', async () => {
    const ws = repoWithCommit();
    const homeDir = tempDir('agentgate-install-user-');
    const dotfiles = join(homeDir, 'dotfiles', 'claude.json');
    mkdirSync(dirname(dotfiles), { recursive: true });
    writeFileSync(dotfiles, '{"env":{"ANTHROPIC_API_KEY":"sk-secret"}}\n', { mode: 0o600 });
    chmodSync(dotfiles, 0o600);
    const opts = { scope: 'user' as const, workspace: ws, homeDir, runner: RUNNER };
    const link = installTarget('claude-code', opts).file;
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync('../dotfiles/claude.json', link);
    await installHooks('claude-code', opts);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(statSync(dotfiles).mode & 0o777).toBe(0o600);
    const settings = parseJsonc(readFileSync(dotfiles, 'utf8')) as { env: unknown; hooks: unknown };
    expect(settings.env).toEqual({ ANTHROPIC_API_KEY: 'sk-secret' });
    expect(Object.keys(settings.hooks as object).length).toBeGreaterThan(0);
  });

  it('a directory where the settings file goes, or a file where its directory goes, is AGENT_CONFIG_INVALID', async () => {
    for (const make of [
      (ws: string) => mkdirSync(join(ws, '.claude', 'settings.json'), { recursive: true }),
      (ws: string) => writeFileSync(join(ws, '.claude'), ''),
    ]) {
      const ws = repoWithCommit();
      make(ws);
      const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
      await expect(installHooks('claude-code', opts)).rejects.toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
    }
  });

  it('a project install into a workspace that does not exist is WORKSPACE_NOT_FOUND and creates nothing', async () => {
    const missing = join(tempDir('agentgate-install-'), 'no', 'such');
    const opts = { scope: 'project' as const, workspace: missing, homeDir: tempDir(), runner: RUNNER };
    await expect(installHooks('claude-code', opts)).rejects.toMatchObject({ code: 'WORKSPACE_NOT_FOUND' });
    expect(existsSync(dirname(missing))).toBe(false);
  });
});

describe('hook install edits an event list entry by entry', () => {
  it("keeps a comment and the layout inside a list that holds the user's own entry, through install and uninstall", async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    const file = installTarget('gemini', opts).file;
    mkdirSync(dirname(file), { recursive: true });
    const mine = [
      '{',
      '  "hooks": {',
      '    "AfterTool": [',
      '      // my formatter',
      '      { "hooks": [ { "type": "command", "command": "./mine.sh" } ] }',
      '    ]',
      '  }',
      '}',
      '',
    ].join('\n');
    writeFileSync(file, mine);
    await installHooks('gemini', opts);
    const installed = readFileSync(file, 'utf8');
    expect(installed).toContain(
      '      // my formatter\n      { "hooks": [ { "type": "command", "command": "./mine.sh" } ] },',
    );
    const hooks = (parseJsonc(installed) as { hooks: Record<string, unknown[]> }).hooks;
    expect(hooks.AfterTool).toHaveLength(2);
    await uninstallHooks('gemini', opts);
    expect(readFileSync(file, 'utf8')).toContain(
      '// my formatter\n      { "hooks": [ { "type": "command", "command": "./mine.sh" } ] }',
    );
  });

  it("updates our entry where it came first, in place; uninstall cuts it and the comment above the user's entry stays, on its line", async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    const file = installTarget('qwen', opts).file;
    mkdirSync(dirname(file), { recursive: true });
    const old = `${process.execPath} /old/place/agentgate-snapshot.js hook qwen`;
    const user = [
      '      // my linter hook: keep me!',
      '      {"hooks": [{"type": "command", "command": "echo user"}]}',
      '] } }',
      '',
    ];
    writeFileSync(
      file,
      [
        '{ "hooks": { "Stop": [',
        `      {"hooks": [{"type": "command", "command": "${old}"}]},`,
        ...user,
      ].join('\n'),
    );
    const result = await installHooks('qwen', opts);
    expect(result.changes).toContainEqual({ event: 'Stop', change: 'updated' });
    const text = readFileSync(file, 'utf8');
    const ours = JSON.stringify(hookCommand(RUNNER, 'qwen'));
    expect(text).toContain(
      `{ "hooks": { "Stop": [\n      {"hooks": [{"type": "command", "command": ${ours}}]},\n${user.slice(0, 2).join('\n')}\n`,
    );
    expect(text).not.toContain('/old/place');
    await uninstallHooks('qwen', opts);
    expect(readFileSync(file, 'utf8')).toBe(['{ "hooks": { "Stop": [', ...user].join('\n'));
  });

  it('with --home the command it writes names that home, and it is still ours: a second install changes nothing, uninstall removes it', async () => {
    const ws = repoWithCommit();
    const home = tempDir('agentgate-install-home-');
    const opts = {
      scope: 'project' as const,
      workspace: ws,
      homeDir: tempDir(),
      runner: { ...RUNNER, home },
    };
    const first = await installHooks('claude-code', opts);
    expect(first.command).toContain(` hook claude-code --home ${home}`);
    expect((await installHooks('claude-code', opts)).written).toBe(false);
    await uninstallHooks('claude-code', opts);
    // The file install created held only ours: uninstall removes it.
    expect(existsSync(installTarget('claude-code', opts).file)).toBe(false);
  });

  it("adds a new event after a one-line event list of the user's without reformatting it", async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    const file = installTarget('claude-code', opts).file;
    mkdirSync(dirname(file), { recursive: true });
    const mine =
      '{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "./guard.sh"}]}]}}';
    writeFileSync(file, `${mine}\n`);
    await installHooks('claude-code', opts);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(mine.slice(0, -2))).toBe(true);
    const hooks = (parseJsonc(text) as { hooks: Record<string, unknown[]> }).hooks;
    expect(Object.keys(hooks)).toEqual(['PreToolUse', ...installTarget('claude-code', opts).events]);
    await uninstallHooks('claude-code', opts);
    expect(readFileSync(file, 'utf8')).toBe(`${mine}\n`);

    // Laid out on lines, the new events follow the user's with its indent.
    const lines = ['{', '  "hooks": {', '    "PreToolUse": [{"matcher": "Bash"}]', '  }', '}', ''].join('\n');
    writeFileSync(file, lines);
    await installHooks('claude-code', opts);
    expect(readFileSync(file, 'utf8')).toMatch(
      /^\{\n {2}"hooks": \{\n {4}"PreToolUse": \[\{"matcher": "Bash"\}\],\n {4}"SessionStart": \[\n/,
    );
  });

  it('uninstall removes the file install created, and keeps one the user had (even `{}`), as it was', async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    const file = installTarget('gemini', opts).file;
    await installHooks('gemini', opts);
    await uninstallHooks('gemini', opts);
    expect(existsSync(file)).toBe(false);
    mkdirSync(dirname(file));
    for (const kept of ['// mine\n{}\n', '{"model": {"name": "x"}}\n', '{}\n', '{"hooks": {}}']) {
      writeFileSync(file, kept);
      await installHooks('gemini', opts);
      await uninstallHooks('gemini', opts);
      expect(readFileSync(file, 'utf8')).toBe(kept);
    }
  });
});
