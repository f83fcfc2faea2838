/**
 * `hook install` / `hook uninstall` and hooks of ours the user placed more than once in one event,
 * each decorated (under a `matcher` of theirs, with a `timeout`): every one stays where it is with
 * what they added, for every agent whose config can hold ours twice; a second one as install
 * writes it still goes. And what uninstall does when install found such a hook already there.
 */
import { readFileSync } from 'node:fs';
import { parse as parseJsonc } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import type { HookAgent } from '../../types/hook-agents.js';
import { hookCommand } from '../../src/hooks/install/command.js';
import { ourEntry } from '../../src/hooks/install/entries.js';
import { installHooks, uninstallHooks } from '../../src/hooks/install/install.js';
import { installTarget } from '../../src/hooks/install/targets.js';
import { OLD_RUNNER, RUNNER, withConfig } from '../helpers/hook-install.js';

type Entry = Record<string, unknown>;
const NAME = { name: 'agentgate-checkpoints' };

/** Per agent: the event, and two entries of ours the user decorated, running `c`. */
const TWICE: Array<[HookAgent, string, (c: string) => Entry[]]> = [
  [
    'claude-code',
    'PostToolUse',
    (c) => [
      { matcher: 'Bash', hooks: [{ type: 'command', command: c }] },
      { matcher: 'Write|Edit', hooks: [{ type: 'command', command: c, timeout: 7 }] },
    ],
  ],
  [
    'qwen',
    'PostToolUse',
    (c) => [
      { matcher: 'run_shell_command', hooks: [{ type: 'command', command: c }] },
      { hooks: [{ type: 'command', command: c, timeout: 7 }] },
    ],
  ],
  [
    'gemini',
    'AfterTool',
    (c) => [
      { matcher: 'run_shell_command', hooks: [{ type: 'command', command: c, ...NAME }] },
      { matcher: 'write_file', hooks: [{ type: 'command', command: c, ...NAME, timeout: 7000 }] },
    ],
  ],
  [
    'cursor',
    'afterFileEdit',
    (c) => [
      { command: c, matcher: 'src/.*' },
      { command: c, matcher: 'test/.*' },
    ],
  ],
  [
    'copilot',
    'postToolUse',
    (c) => [
      { type: 'command', bash: c, timeoutSec: 5 },
      { type: 'command', bash: c, cwd: 'sub' },
    ],
  ],
  [
    'windsurf',
    'post_write_code',
    (c) => [
      { command: c, show_output: true },
      { command: c, show_output: false, working_directory: 'sub' },
    ],
  ],
];

const commandOf = (agent: HookAgent, event: string, runner = RUNNER) =>
  hookCommand(runner, agent, agent === 'copilot' ? event : undefined);
const listOf = (file: string, event: string) =>
  (parseJsonc(readFileSync(file, 'utf8')) as { hooks?: Record<string, unknown[]> }).hooks?.[event];
const fileWith = (agent: HookAgent, list: Entry[], event: string) =>
  `${JSON.stringify({ ...(agent === 'cursor' || agent === 'copilot' ? { version: 1 } : {}), hooks: { [event]: list } }, null, 2)}\n`;

describe.each(TWICE)(
  'hook install %s: ours in two entries of one event, each decorated',
  (agent, event, two) => {
    it('both stay as they are; installing twice changes nothing; uninstall takes both out', async () => {
      const list = two(commandOf(agent, event));
      const { opts, file } = withConfig(agent, fileWith(agent, list, event));
      const result = await installHooks(agent, opts);
      expect(result.changes.map((c) => c.event)).not.toContain(event);
      expect(listOf(file, event)).toEqual(list);
      expect((await installHooks(agent, opts)).written).toBe(false);

      const removed = await uninstallHooks(agent, opts);
      expect(removed.changes).toContainEqual({ event, change: 'removed' });
      expect(listOf(file, event)).toBeUndefined();
    });

    it('with an old command: each is updated where it stands, with what the user added', async () => {
      const { opts, file } = withConfig(
        agent,
        fileWith(agent, two(commandOf(agent, event, OLD_RUNNER)), event),
      );
      expect((await installHooks(agent, opts)).changes).toContainEqual({ event, change: 'updated' });
      expect(listOf(file, event)).toEqual(two(commandOf(agent, event)));
    });

    it('a second one of ours as install writes it goes; the decorated ones stay', async () => {
      const command = commandOf(agent, event);
      const plain = ourEntry(
        installTarget(agent, { scope: 'project', workspace: '/', homeDir: '/' }),
        command,
      );
      const { opts, file } = withConfig(agent, fileWith(agent, [plain, ...two(command)], event));
      expect((await installHooks(agent, opts)).changes).toContainEqual({ event, change: 'updated' });
      expect(listOf(file, event)).toEqual(two(command));
    });
  },
);

describe('hook install codex: ours in two groups of one event, each under a matcher of the user`s', () => {
  const ours = hookCommand(RUNNER, 'codex');
  const text = (command: string) =>
    [
      'model = "o3"',
      '',
      '[[hooks.PostToolUse]]',
      'matcher = "shell"',
      '[[hooks.PostToolUse.hooks]]',
      'type = "command"',
      `command = ${JSON.stringify(command)}`,
      '',
      '[[hooks.PostToolUse]]',
      'matcher = "apply_patch"',
      '[[hooks.PostToolUse.hooks]]',
      'type = "command"',
      `command = ${JSON.stringify(command)}`,
      'timeout = 7',
      '',
    ].join('\n');
  const groups = (file: string) =>
    (parseToml(readFileSync(file, 'utf8')) as { hooks?: Record<string, unknown[]> }).hooks?.PostToolUse;

  it('both stay, every line kept; uninstall takes both out', async () => {
    const { opts, file } = withConfig('codex', text(ours));
    const result = await installHooks('codex', opts);
    expect(result.changes.map((c) => c.event)).not.toContain('PostToolUse');
    expect(readFileSync(file, 'utf8').startsWith(text(ours))).toBe(true);
    expect((await installHooks('codex', opts)).written).toBe(false);
    await uninstallHooks('codex', opts);
    expect(groups(file)).toBeUndefined();
  });

  it('with an old command: both updated on their lines', async () => {
    const { opts, file } = withConfig('codex', text(hookCommand(OLD_RUNNER, 'codex')));
    await installHooks('codex', opts);
    expect(readFileSync(file, 'utf8').startsWith(text(ours))).toBe(true);
  });
});

describe('hook uninstall when install found a decorated hook of ours already there', () => {
  it('cuts every hook of ours out, the decorations on it and a group of only ours too; the rest stays', async () => {
    const ours = hookCommand(RUNNER, 'claude-code');
    const found = `${JSON.stringify({
      model: 'x',
      hooks: {
        Stop: [{ matcher: '', hooks: [{ type: 'command', command: ours, timeout: 9 }] }],
        PostToolUse: [
          {
            matcher: 'Bash',
            hooks: [
              { type: 'command', command: 'lint.sh' },
              { type: 'command', command: ours },
            ],
          },
        ],
      },
    })}\n`;
    const { opts, file } = withConfig('claude-code', found);
    await installHooks('claude-code', opts);
    expect((await installHooks('claude-code', opts)).written).toBe(false);
    await uninstallHooks('claude-code', opts);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      model: 'x',
      hooks: { PostToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'lint.sh' }] }] },
    });
  });
});
