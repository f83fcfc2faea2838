/**
 * `hook install` / `hook uninstall` on what a user did to the files we write into: an empty event
 * list, an entry of ours they decorated (a matcher, a timeout, a comment), a symbolic link, comments
 * beside our entries, a command of theirs that runs ours and more, Cline hook files changed by hand.
 */
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import type { HookAgent } from '../../types/hook-agents.js';
import { hookCommand } from '../../src/hooks/install/command.js';
import { installHooks, uninstallHooks } from '../../src/hooks/install/install.js';
import { installTarget } from '../../src/hooks/install/targets.js';
import { runCli } from '../helpers/cli.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';
import { OLD_RUNNER, RUNNER, withConfig } from '../helpers/hook-install.js';

function hooksOf(text: string): Record<string, unknown[]> {
  return (parseJsonc(text) as { hooks: Record<string, unknown[]> }).hooks;
}

/** JSON with comments as Gemini CLI reads it: comments stripped, then JSON.parse (no trailing comma). */
function strictJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: false });
  expect(errors).toEqual([]);
  return value;
}

describe('hook install: an event list that is there but empty', () => {
  const cases: Array<[HookAgent, string, string]> = [
    ['claude-code', 'Stop', '{\n  "hooks": {\n    "Stop": []\n  }\n}\n'],
    ['cursor', 'stop', '{\n  "version": 1,\n  "hooks": {\n    "stop": []\n  }\n}\n'],
    ['gemini', 'AfterAgent', '{\n  "hooks": {\n    // mine\n    "AfterAgent": [ /* none yet */ ]\n  }\n}\n'],
    ['windsurf', 'post_cascade_response', '{"hooks": {"post_cascade_response": []}}\n'],
  ];
  it.each(cases)(
    '%s: ours goes into it (no second key); uninstall takes it out',
    async (agent, event, text) => {
      const { opts, file } = withConfig(agent, text);
      await installHooks(agent, opts);
      const installed = readFileSync(file, 'utf8');
      expect(installed.split(`"${event}"`)).toHaveLength(2);
      expect(JSON.stringify(hooksOf(installed)[event])).toContain(`hook ${agent}`);
      expect((await installHooks(agent, opts)).written).toBe(false);
      const removed = await uninstallHooks(agent, opts);
      expect(removed.changes).toContainEqual({ event, change: 'removed' });
      const back = existsSync(file) ? readFileSync(file, 'utf8') : '{}';
      expect(back).not.toContain(`hook ${agent}`);
      if (agent === 'gemini') expect(back).toContain('// mine');
    },
  );

  it('a file an earlier install left with the key twice ("Stop": [] then ours): uninstall removes ours', async () => {
    const ours = JSON.stringify(hookCommand(RUNNER, 'claude-code'));
    const text = `{"hooks": {"Stop": [], "Stop": [{"hooks": [{"type": "command", "command": ${ours}}]}]}, "model": "x"}\n`;
    const { opts, file } = withConfig('claude-code', text);
    expect((await uninstallHooks('claude-code', opts)).changes).toEqual([
      { event: 'Stop', change: 'removed' },
    ]);
    expect(parseJsonc(readFileSync(file, 'utf8'))).toEqual({ model: 'x' });
  });

  it('the same key twice with entries in both is AGENT_CONFIG_INVALID (which one counts is not ours to guess)', async () => {
    const text = '{"hooks": {"Stop": [{"hooks": []}], "Stop": []}}\n';
    const { opts, file } = withConfig('claude-code', text);
    await expect(installHooks('claude-code', opts)).rejects.toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('through the CLI', () => {
    const text = '{\n  "hooks": {\n    "Stop": []\n  }\n}\n';
    const { ws, file } = withConfig('claude-code', text);
    const home = tempDir();
    const env = { HOME: home, CODEX_HOME: join(home, 'codex'), COPILOT_HOME: join(home, 'copilot') };
    expect(runCli(['hook', 'install', 'claude-code', '-C', ws], { env }).status).toBe(0);
    expect(readFileSync(file, 'utf8').split('"Stop"')).toHaveLength(2);
    expect(runCli(['hook', 'uninstall', 'claude-code', '-C', ws], { env }).status).toBe(0);
    expect(existsSync(file) ? readFileSync(file, 'utf8') : '').not.toContain('hook claude-code');
  });
});

describe('hook install: an entry of ours the user decorated keeps what they added, where it is', () => {
  const ours = hookCommand(RUNNER, 'claude-code');
  const old = hookCommand(OLD_RUNNER, 'claude-code');
  const claude = (command: string) =>
    [
      '{',
      '  "hooks": {',
      '    "PostToolUse": [',
      '      {',
      '        "matcher": "Write|Edit",',
      '        "hooks": [',
      `          { "type": "command", "command": ${JSON.stringify(command)}, "timeout": 30 }`,
      '        ]',
      '      }',
      '    ]',
      '  }',
      '}',
      '',
    ].join('\n');

  it('Claude Code: the same command is left as it is; installing twice changes nothing', async () => {
    const { opts, file } = withConfig('claude-code', claude(ours));
    const first = await installHooks('claude-code', opts);
    expect(first.changes.map((c) => c.event)).not.toContain('PostToolUse');
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith(claude(ours).split('\n').slice(0, 10).join('\n'))).toBe(true);
    expect((await installHooks('claude-code', opts)).written).toBe(false);
    await uninstallHooks('claude-code', opts);
    // The file was there before install: it stays, without ours.
    expect(readFileSync(file, 'utf8')).not.toContain('hook claude-code');
  });

  it('Claude Code: another command of ours is updated on its line, matcher and timeout kept', async () => {
    const { opts, file } = withConfig('claude-code', claude(old));
    const result = await installHooks('claude-code', opts);
    expect(result.changes).toContainEqual({ event: 'PostToolUse', change: 'updated' });
    expect(readFileSync(file, 'utf8').startsWith(claude(ours).split('\n').slice(0, 10).join('\n'))).toBe(
      true,
    );
  });

  it('Gemini CLI (JSONC): the comment on the entry stays and the list keeps its lines', async () => {
    const command = JSON.stringify(hookCommand(RUNNER, 'gemini'));
    const text = [
      '{',
      '  "hooks": {',
      '    "AfterTool": [',
      '      // checkpoints after each write',
      `      { "matcher": "write_file", "hooks": [ { "type": "command", "command": ${command}, "timeout": 9000 } ] }`,
      '    ]',
      '  }',
      '}',
      '',
    ].join('\n');
    const { opts, file } = withConfig('gemini', text);
    const result = await installHooks('gemini', opts);
    expect(result.changes.map((c) => c.event)).not.toContain('AfterTool');
    expect(readFileSync(file, 'utf8').startsWith(text.split('\n').slice(0, 6).join('\n'))).toBe(true);
  });

  it('Codex: a group of the user`s holding only our hook stays there, outside our block', async () => {
    const text = (command: string) =>
      [
        'model = "o3"',
        '',
        '[[hooks.PostToolUse]]',
        'matcher = "apply_patch" # only patches',
        '',
        '[[hooks.PostToolUse.hooks]]',
        'type = "command"',
        `command = ${JSON.stringify(command)}`,
        'timeout = 30',
        '',
      ].join('\n');
    const { opts, file } = withConfig('codex', text(hookCommand(RUNNER, 'codex')));
    const first = await installHooks('codex', opts);
    expect(first.changes.map((c) => c.event)).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop']);
    expect(readFileSync(file, 'utf8').startsWith(text(hookCommand(RUNNER, 'codex')))).toBe(true);
    expect((await installHooks('codex', opts)).written).toBe(false);

    writeFileSync(file, text(hookCommand(OLD_RUNNER, 'codex')));
    const again = await installHooks('codex', opts);
    expect(again.changes).toContainEqual({ event: 'PostToolUse', change: 'updated' });
    expect(again.notes.join(' ')).not.toMatch(/rewritten/);
    const installed = readFileSync(file, 'utf8');
    expect(installed.startsWith(text(hookCommand(RUNNER, 'codex')))).toBe(true);
    const post = (parseToml(installed) as { hooks: Record<string, unknown[]> }).hooks.PostToolUse;
    expect(post).toEqual([
      {
        matcher: 'apply_patch',
        hooks: [{ type: 'command', command: hookCommand(RUNNER, 'codex'), timeout: 30 }],
      },
    ]);
  });

  it('Cursor and Copilot: the user`s timeout and failClosed on our entry are kept', async () => {
    const cursor = hookCommand(RUNNER, 'cursor');
    const entry = { command: cursor, timeout: 10, failClosed: false };
    const text = `{"version": 1, "hooks": {"afterFileEdit": [{"command": "./format.sh"}, ${JSON.stringify(entry)}]}}\n`;
    const { opts, file } = withConfig('cursor', text);
    const result = await installHooks('cursor', opts);
    expect(result.changes.map((c) => c.event)).not.toContain('afterFileEdit');
    expect(hooksOf(readFileSync(file, 'utf8')).afterFileEdit).toEqual([{ command: './format.sh' }, entry]);

    writeFileSync(
      file,
      text.replace(JSON.stringify(cursor), JSON.stringify(hookCommand(OLD_RUNNER, 'cursor'))),
    );
    expect((await installHooks('cursor', opts)).changes).toContainEqual({
      event: 'afterFileEdit',
      change: 'updated',
    });
    expect(hooksOf(readFileSync(file, 'utf8')).afterFileEdit).toEqual([{ command: './format.sh' }, entry]);

    const bash = hookCommand(OLD_RUNNER, 'copilot', 'agentStop');
    const copilot = withConfig(
      'copilot',
      `{"version": 1, "hooks": {"agentStop": [{"type": "command", "bash": ${JSON.stringify(bash)}, "timeoutSec": 5}]}}\n`,
    );
    await installHooks('copilot', copilot.opts);
    expect(hooksOf(readFileSync(copilot.file, 'utf8')).agentStop).toEqual([
      { type: 'command', bash: hookCommand(RUNNER, 'copilot', 'agentStop'), timeoutSec: 5 },
    ]);
  });

  it('Copilot: an entry with a powershell command of the user`s beside ours is theirs: uninstall gives it back', async () => {
    const bash = hookCommand(RUNNER, 'copilot', 'postToolUse');
    const entry = { type: 'command', bash, powershell: '& ./scripts/audit.ps1', env: { AUDIT: '1' } };
    const text = `${JSON.stringify({ version: 1, hooks: { postToolUse: [entry] } })}\n`;
    const { opts, file } = withConfig('copilot', text);
    await installHooks('copilot', opts);
    await uninstallHooks('copilot', opts);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('hook uninstall: a settings file that is a symbolic link', () => {
  it('keeps the link and leaves what is left in the file it names', async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    const link = installTarget('claude-code', opts).file;
    const dot = join(ws, 'dot.json');
    writeFileSync(dot, '{}\n');
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync('../dot.json', link);
    await installHooks('claude-code', opts);
    expect(readFileSync(dot, 'utf8')).toContain('hook claude-code');
    await uninstallHooks('claude-code', opts);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(parseJsonc(readFileSync(dot, 'utf8'))).toEqual({});
  });
});

describe('hook uninstall keeps the comments of a JSONC file', () => {
  it('a comment inside an otherwise empty hooks object: the file comes back as it was', async () => {
    const text = '{ "hooks": { // inline\n} }\n';
    const { opts, file } = withConfig('gemini', text);
    await installHooks('gemini', opts);
    await uninstallHooks('gemini', opts);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('a comment on the line of the entry before ours stays there, and no comma is left trailing', async () => {
    const ours = JSON.stringify(hookCommand(RUNNER, 'gemini'));
    const text = [
      '{',
      '  "hooks": {',
      '    "AfterAgent": [',
      '      { "hooks": [ { "type": "command", "command": "./notify.sh" } ] }, // my notifier, keep!',
      `      { "hooks": [ { "type": "command", "command": ${ours} } ] }`,
      '    ]',
      '  }',
      '}',
      '',
    ].join('\n');
    const { opts, file } = withConfig('gemini', text);
    await uninstallHooks('gemini', opts);
    const back = readFileSync(file, 'utf8');
    expect(back).toContain(
      '      { "hooks": [ { "type": "command", "command": "./notify.sh" } ] } // my notifier, keep!\n    ]',
    );
    expect(strictJsonc(back)).toEqual({
      hooks: { AfterAgent: [{ hooks: [{ type: 'command', command: './notify.sh' }] }] },
    });
  });

  it('a hook of ours in a group, after one of the user`s with a comment on its line', async () => {
    const ours = JSON.stringify(hookCommand(RUNNER, 'qwen'));
    const text = [
      '{ "hooks": { "PostToolUse": [ {',
      '  "matcher": "write_file", // mine',
      '  "hooks": [',
      '    { "type": "command", "command": "lint" }, // lint',
      `    { "type": "command", "command": ${ours}, "timeout": 9000 } // ours`,
      '  ]',
      '} ] } }',
      '',
    ].join('\n');
    const { opts, file } = withConfig('qwen', text);
    await uninstallHooks('qwen', opts);
    const back = readFileSync(file, 'utf8');
    expect(back).toContain('"matcher": "write_file", // mine\n');
    expect(back).toContain('    { "type": "command", "command": "lint" } // lint\n');
    expect(strictJsonc(back)).toEqual({
      hooks: { PostToolUse: [{ matcher: 'write_file', hooks: [{ type: 'command', command: 'lint' }] }] },
    });
  });

  it('a comma inside a comment after our entry: ours is still cut in place, every comment kept', async () => {
    const ours = JSON.stringify(hookCommand(RUNNER, 'gemini'));
    const text = [
      '{',
      '  "hooks": {',
      '    "AfterTool": [',
      `      { "hooks": [ { "type": "command", "command": ${ours} } ] } /* ours, first */,`,
      '      // my formatter',
      '      { "hooks": [ { "type": "command", "command": "./fmt.sh" } ] } // formats, then exits',
      '    ]',
      '  }',
      '}',
      '',
    ].join('\n');
    const { opts, file } = withConfig('gemini', text);
    await uninstallHooks('gemini', opts);
    const lines = text.split('\n');
    expect(readFileSync(file, 'utf8')).toBe([...lines.slice(0, 3), ...lines.slice(4)].join('\n'));
  });
});

describe('hook uninstall codex: a config.toml left with nothing', () => {
  it('is removed; one with a comment of the user`s is kept as it was', async () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    const file = installTarget('codex', opts).file;
    await installHooks('codex', opts);
    await uninstallHooks('codex', opts);
    expect(existsSync(file)).toBe(false);
    mkdirSync(dirname(file));
    writeFileSync(file, '# mine\n');
    await installHooks('codex', opts);
    await uninstallHooks('codex', opts);
    expect(readFileSync(file, 'utf8')).toBe('# mine\n');
  });
});

describe('hook install: a command of the user`s that runs ours and more is theirs', () => {
  it('uninstall leaves it; install adds ours beside it', async () => {
    const chained = 'npx agentgate-snapshot hook claude-code && ./scripts/notify-slack.sh';
    const text = `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": ${JSON.stringify(chained)}}]}]}}\n`;
    const { opts, file } = withConfig('claude-code', text);
    expect((await uninstallHooks('claude-code', opts)).changes).toEqual([]);
    expect(readFileSync(file, 'utf8')).toBe(text);
    await installHooks('claude-code', opts);
    expect(hooksOf(readFileSync(file, 'utf8')).Stop).toHaveLength(2);
    await uninstallHooks('claude-code', opts);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('hook install: a settings file that begins with a byte order mark', () => {
  it('is read, and written back with it', async () => {
    const { opts, file } = withConfig('claude-code', '\uFEFF{"model": "x"}\n');
    await installHooks('claude-code', opts);
    const text = readFileSync(file, 'utf8');
    expect(text.startsWith('\uFEFF{')).toBe(true);
    await uninstallHooks('claude-code', opts);
    expect(readFileSync(file, 'utf8')).toBe('\uFEFF{"model": "x"}\n');
  });
});

describe('hook install cline: hook files changed by hand', () => {
  const setup = () => {
    const ws = repoWithCommit();
    const opts = { scope: 'project' as const, workspace: ws, homeDir: tempDir(), runner: RUNNER };
    return { ws, opts, dir: join(ws, '.clinerules/hooks') };
  };

  it('ours without its exec bit is written again (updated), executable', async () => {
    const { opts, dir } = setup();
    await installHooks('cline', opts);
    chmodSync(join(dir, 'TaskStart'), 0o644);
    const again = await installHooks('cline', opts);
    expect(again.changes).toEqual([{ event: 'TaskStart', change: 'updated' }]);
    expect(statSync(join(dir, 'TaskStart')).mode & 0o111).toBe(0o111);
    // Executable for its owner only (chmod 700) is the user's choice: nothing to write.
    chmodSync(join(dir, 'TaskStart'), 0o700);
    expect((await installHooks('cline', opts)).changes).toEqual([]);
    expect(statSync(join(dir, 'TaskStart')).mode & 0o777).toBe(0o700);
  });

  it('ours for a home whose path holds a line break is still ours: installing twice changes nothing', async () => {
    const { opts, dir } = setup();
    const runner = { ...RUNNER, home: '/tmp/x h\nline' };
    await installHooks('cline', { ...opts, runner });
    expect((await installHooks('cline', { ...opts, runner })).changes).toEqual([]);
    expect((await uninstallHooks('cline', opts)).changes).toHaveLength(6);
    // The directory install made goes too.
    expect(() => readdirSync(dir)).toThrow();
  });

  it('ours with its line endings changed to CRLF is reported by uninstall, and left', async () => {
    const { opts, dir } = setup();
    await installHooks('cline', opts);
    const file = join(dir, 'TaskStart');
    writeFileSync(file, readFileSync(file, 'utf8').replaceAll('\n', '\r\n'));
    expect((await uninstallHooks('cline', opts)).leftAlone).toEqual([file]);
  });

  it('ours changed by hand (a line added, exec taken off) is the user`s: install and uninstall leave it, and say so', async () => {
    const { opts, dir } = setup();
    await installHooks('cline', opts);
    const file = join(dir, 'TaskComplete');
    const edited = readFileSync(file, 'utf8').replace('\nexec ', '\n') + './my-notify.sh\n';
    writeFileSync(file, edited);
    const again = await installHooks('cline', opts);
    expect(again.changes).toEqual([]);
    expect(again.leftAlone).toEqual([file]);
    // Another home's install writes another command into each of ours, never into the user's.
    const other = await installHooks('cline', { ...opts, runner: { ...RUNNER, home: tempDir() } });
    expect(other.changes.map((c) => c.event)).not.toContain('TaskComplete');
    expect(readFileSync(file, 'utf8')).toBe(edited);
    const removed = await uninstallHooks('cline', opts);
    expect(removed.changes.map((c) => c.event)).not.toContain('TaskComplete');
    expect(removed.leftAlone).toEqual([file]);
    expect(readdirSync(dir)).toEqual(['TaskComplete']);
    expect(readFileSync(file, 'utf8')).toBe(edited);
  });

  it('ours from any home or config file is ours; the same command written otherwise is not', async () => {
    const { opts, dir } = setup();
    const runner = { ...RUNNER, home: '/some where/home', config: '/etc/agentgate.yaml' };
    await installHooks('cline', { ...opts, runner });
    expect((await uninstallHooks('cline', opts)).changes).toHaveLength(6);
    await installHooks('cline', { ...opts, runner });
    const file = join(dir, 'TaskStart');
    writeFileSync(file, readFileSync(file, 'utf8').replace("'/some where/home'", '"/some where/home"'));
    expect((await uninstallHooks('cline', opts)).leftAlone).toEqual([file]);
  });

  it('a symbolic link of the user`s (even a dangling one) is left alone and reported', async () => {
    const { opts, dir } = setup();
    mkdirSync(dir, { recursive: true });
    symlinkSync('/nonexistent/agentgate-test', join(dir, 'TaskCancel'));
    const result = await installHooks('cline', opts);
    expect(result.leftAlone).toEqual([join(dir, 'TaskCancel')]);
    expect(lstatSync(join(dir, 'TaskCancel')).isSymbolicLink()).toBe(true);
    await uninstallHooks('cline', opts);
    expect(lstatSync(join(dir, 'TaskCancel')).isSymbolicLink()).toBe(true);
  });

  it('uninstall removes the directories install created once they are empty, and only those', async () => {
    const { ws, opts, dir } = setup();
    await installHooks('cline', opts);
    await uninstallHooks('cline', opts);
    expect(existsSync(join(ws, '.clinerules'))).toBe(false);
    mkdirSync(join(ws, '.clinerules'));
    writeFileSync(join(ws, '.clinerules/style.md'), 'be terse\n');
    await installHooks('cline', opts);
    await uninstallHooks('cline', opts);
    expect(existsSync(dir)).toBe(false);
    expect(readFileSync(join(ws, '.clinerules/style.md'), 'utf8')).toBe('be terse\n');
    // A hooks directory that was there before install stays, even empty.
    mkdirSync(dir);
    await installHooks('cline', opts);
    await uninstallHooks('cline', opts);
    expect(readdirSync(dir)).toEqual([]);
  });
});
