/**
 * `hook install codex` / `hook uninstall codex` and what stands between our block's markers in
 * config.toml besides our hooks: the trust state Codex writes there (`[hooks.state."…"]`, appended
 * after our last table), a hook of the user's, the user's `timeout` on a hook of ours.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { hookCommand } from '../../src/hooks/install/command.js';
import { installHooks, uninstallHooks } from '../../src/hooks/install/install.js';
import { tempDir } from '../helpers/repo.js';
import { OLD_RUNNER, RUNNER, withConfig } from '../helpers/hook-install.js';

const END = '# <<< agentgate-snapshotter checkpoints <<<';
const USERS = [
  '',
  '[[hooks.Stop]]',
  '[[hooks.Stop.hooks]]',
  'type = "command"',
  'command = "echo USER-OWN"',
  '',
  '[hooks.state."config.toml:stop:1:0"]',
  'enabled = true',
  'trusted_hash = "sha256:ab12"',
];

type Hooks = Record<string, Array<{ hooks: Array<Record<string, unknown>> }>>;
const hooksOf = (text: string) => (parseToml(text) as { hooks?: Hooks }).hooks;

/** A config.toml installed into, with the user's lines put in just before our block's end marker. */
async function withUsersLinesInBlock() {
  const { opts, file } = withConfig('codex', 'model = "o3"\n');
  await installHooks('codex', opts);
  writeFileSync(file, readFileSync(file, 'utf8').replace(END, [...USERS, END].join('\n')));
  return { opts, file };
}

describe('hook uninstall codex: what is not ours between our markers', () => {
  it('stays where it is (a hook and trust state of the user`s); only our hooks and the markers go', async () => {
    const { opts, file } = await withUsersLinesInBlock();
    const result = await uninstallHooks('codex', opts);
    expect(result.changes.map((c) => c.change)).toEqual(['removed', 'removed', 'removed', 'removed']);
    expect(readFileSync(file, 'utf8')).toBe(['model = "o3"', ...USERS, ''].join('\n'));
  });

  it('and uninstall from another home (no record of the install)', async () => {
    const { opts, file } = await withUsersLinesInBlock();
    await uninstallHooks('codex', { ...opts, home: tempDir() });
    expect(readFileSync(file, 'utf8')).toBe(['model = "o3"', ...USERS, ''].join('\n'));
  });
});

describe('hook install codex again, with another command', () => {
  it('keeps what is not ours between the markers, and sets the command of ours where it stands', async () => {
    const { opts, file } = await withUsersLinesInBlock();
    const other = { ...RUNNER, home: tempDir() };
    const result = await installHooks('codex', { ...opts, runner: other });
    expect(result.changes.map((c) => c.change)).toEqual(['updated', 'updated', 'updated', 'updated']);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain([...USERS, END].join('\n'));
    const stop = hooksOf(text)?.Stop ?? [];
    expect(stop.map((g) => g.hooks[0]?.command)).toEqual([hookCommand(other, 'codex'), 'echo USER-OWN']);
    await uninstallHooks('codex', opts);
    expect(readFileSync(file, 'utf8')).toBe(['model = "o3"', ...USERS, ''].join('\n'));
  });

  it('keeps the user`s timeout and comment on our hooks (only the command changes)', async () => {
    const { opts, file } = withConfig('codex', 'model = "o3"\n');
    await installHooks('codex', opts);
    const ours = JSON.stringify(hookCommand(RUNNER, 'codex'));
    const decorated = readFileSync(file, 'utf8').replaceAll(
      `command = ${ours}`,
      `command = ${ours}  # reviewed # twice\ntimeout = 600`,
    );
    writeFileSync(file, decorated);
    const other = { ...RUNNER, home: tempDir() };
    const result = await installHooks('codex', { ...opts, runner: other });
    expect(result.notes.join(' ')).not.toMatch(/rewritten/);
    const text = readFileSync(file, 'utf8');
    expect(text).toBe(decorated.replaceAll(ours, JSON.stringify(hookCommand(other, 'codex'))));
    for (const groups of Object.values(hooksOf(text) ?? {}))
      expect(groups[0]?.hooks[0]).toMatchObject({ timeout: 600 });
  });

  it('puts an entry of ours the user took out back at the end of our block, or after a hook of theirs that follows it', async () => {
    const { opts, file } = withConfig('codex', 'model = "o3"\n');
    await installHooks('codex', opts);
    const installed = readFileSync(file, 'utf8');
    const withoutStop = installed.replace(/\n\[\[hooks\.Stop\]\][^#]*/, '\n');
    writeFileSync(file, withoutStop);
    await installHooks('codex', opts);
    expect(readFileSync(file, 'utf8')).toBe(installed);

    const after = `${withoutStop}\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "mine"\n`;
    writeFileSync(file, after);
    expect((await installHooks('codex', opts)).notes.join(' ')).not.toMatch(/rewritten/);
    const stop = hooksOf(readFileSync(file, 'utf8'))?.Stop ?? [];
    expect(stop.map((g) => g.hooks[0]?.command)).toEqual(['mine', hookCommand(RUNNER, 'codex')]);
    expect(readFileSync(file, 'utf8').startsWith(after)).toBe(true);
    await uninstallHooks('codex', opts);
    expect(readFileSync(file, 'utf8')).toBe(
      'model = "o3"\n\n[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "mine"\n',
    );
  });
});

describe('hook install codex: a [hooks] table whose event list is an inline array', () => {
  it('is rewritten whole, and the note names the inline list (the hooks table is not inline)', async () => {
    const text = '[hooks]\nStop = [ { hooks = [ { type = "command", command = "notify" } ] } ]\n';
    const { opts } = withConfig('codex', text);
    const note = (await installHooks('codex', opts)).notes[0] ?? '';
    expect(note).toMatch(/rewritten whole \("hooks\.Stop" written as an inline array\)/);
    expect(note).not.toMatch(/table is inline/);
  });
});

describe('hook install / uninstall codex: a multi-line value whose lines read like tables', () => {
  // A prompt kept in config.toml may quote a table header; an array may hold a list on a line of its own.
  const USER = [
    '# my settings',
    'developer_instructions = """',
    'Never touch:',
    '[[hooks.Stop]]',
    'command = "x"',
    '"""',
    "notes = '''",
    '[hooks]',
    "'''",
    'args = [',
    '  ["a"],',
    ']',
    '',
  ].join('\n');

  it('is left as it is: our hooks are edited line by line and every comment stays', async () => {
    const { opts, file } = withConfig('codex', USER);
    expect((await installHooks('codex', opts)).notes.join(' ')).not.toMatch(/rewritten/);
    writeFileSync(file, `${readFileSync(file, 'utf8')}# added later\n`);
    const result = await uninstallHooks('codex', opts);
    expect(result.notes.join(' ')).not.toMatch(/rewritten/);
    expect(readFileSync(file, 'utf8')).toBe(`${USER}# added later\n`);
  });

  it('in a hook of the user`s group that holds ours: only our command line changes', async () => {
    const group = [
      '[[hooks.Stop]]',
      'matcher = "X"',
      '[[hooks.Stop.hooks]]',
      'type = "command"',
      `command = ${JSON.stringify(hookCommand(OLD_RUNNER, 'codex'))}`,
      'statusMessage = """',
      '[[hooks.Stop.hooks]]',
      '"""',
      '[[hooks.Stop.hooks]]',
      'type = "command"',
      'command = "mine" # my hook',
      '',
    ].join('\n');
    const { opts, file } = withConfig('codex', `${USER}${group}`);
    const result = await installHooks('codex', opts);
    expect(result.notes.join(' ')).not.toMatch(/rewritten/);
    expect(readFileSync(file, 'utf8')).toContain(
      `${USER}${group.replace(JSON.stringify(hookCommand(OLD_RUNNER, 'codex')), JSON.stringify(hookCommand(RUNNER, 'codex')))}`,
    );
  });
});
