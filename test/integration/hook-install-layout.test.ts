/**
 * What `hook install` leaves of the user's layout: a comment at the end of the line of the user's
 * last entry (or event list) stays on that line, before ours; a Codex config.toml without a final
 * line break keeps lacking one, as the JSON files do.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { installHooks, uninstallHooks } from '../../src/hooks/install/install.js';
import { runCli } from '../helpers/cli.js';
import { RUNNER, withConfig } from '../helpers/hook-install.js';
import { hookCommand } from '../../src/hooks/install/command.js';
import { tempDir } from '../helpers/repo.js';

/** JSON with comments as Qwen Code and Gemini CLI read it: no trailing comma. */
function strictJsonc(text: string): unknown {
  const errors: ParseError[] = [];
  const value: unknown = parseJsonc(text, errors, { allowTrailingComma: false });
  expect(errors).toEqual([]);
  return value;
}

const MINE = '{ "hooks": [ { "type": "command", "command": "./before.sh" } ] }';

describe('hook install: a comment at the end of the user`s last entry`s line', () => {
  it.each([
    [
      'a line comment',
      `   ${MINE} // runs my linter\n  ] // stop list\n`,
      ' // runs my linter',
      ' // stop list',
    ],
    [
      'a block comment',
      `   ${MINE} /* runs my linter */\n  ] /* stop list */\n`,
      ' /* runs my linter */',
      ' /* stop list */',
    ],
    [
      'after a trailing comma',
      `   ${MINE}, // runs my linter\n  ], // stop list\n`,
      ' // runs my linter',
      ' // stop list',
    ],
  ])(
    '%s stays on that line, before ours; uninstall gives the file back',
    async (_, list, entryNote, listNote) => {
      const text = `{\n "hooks": {\n  "Stop": [\n${list} }\n}\n`;
      const { opts, file } = withConfig('qwen', text);
      await installHooks('qwen', opts);
      const installed = readFileSync(file, 'utf8');
      expect(installed).toContain(`   ${MINE},${entryNote}\n   {\n`);
      expect(installed).toContain(`  ],${listNote}\n  "SessionStart": [`);
      const { hooks } = strictJsonc(installed) as { hooks: Record<string, unknown[]> };
      expect(hooks.Stop).toHaveLength(2);
      await uninstallHooks('qwen', opts);
      expect(readFileSync(file, 'utf8')).toBe(text);
    },
  );

  it('the file parses without a trailing comma, and an edited one is cut with every comment in place', async () => {
    const text = `{\n "hooks": {\n  "Stop": [\n   ${MINE} // runs my linter\n  ] // stop list\n }\n}\n`;
    const { opts, file } = withConfig('gemini', text);
    await installHooks('gemini', opts);
    strictJsonc(readFileSync(file, 'utf8'));
    writeFileSync(file, `${readFileSync(file, 'utf8')}// mine too\n`);
    await uninstallHooks('gemini', opts);
    expect(readFileSync(file, 'utf8')).toBe(`${text}// mine too\n`);
  });
});

describe('hook install codex: a config.toml without a final line break', () => {
  it.each([
    ['one key', 'model = "o3"'],
    ['a CRLF file', 'model = "o3"\r\n[tui]\r\nnotifications = true'],
  ])('%s: keeps lacking one after install; uninstall gives it back', async (_, text) => {
    const { opts, file } = withConfig('codex', text);
    await installHooks('codex', opts);
    const installed = readFileSync(file, 'utf8');
    expect(installed.endsWith('\n')).toBe(false);
    expect(parseToml(installed)).toMatchObject(parseToml(text));
    expect(installed).toContain('hook codex');
    await uninstallHooks('codex', opts);
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('an edited file is cut back to its text, still without one', async () => {
    const { opts, file } = withConfig('codex', 'model = "o3"');
    await installHooks('codex', opts);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"o3"', '"o4"'));
    await uninstallHooks('codex', opts);
    expect(readFileSync(file, 'utf8')).toBe('model = "o4"');
  });
});

describe('hook install / uninstall: a config nested deeper than the reader can go', () => {
  it('is AGENT_CONFIG_INVALID (not INTERNAL), and the file is left as it was', () => {
    const deep = `{"a": ${'['.repeat(200_000)}${']'.repeat(200_000)}}\n`;
    const { ws, file } = withConfig('claude-code', deep);
    for (const action of ['install', 'uninstall']) {
      const run = runCli(['hook', action, 'claude-code', '--json', '--home', tempDir(), '-C', ws]);
      expect([run.status, (run.json() as { error: { code: string } }).error.code]).toEqual([
        1,
        'AGENT_CONFIG_INVALID',
      ]);
    }
    expect(readFileSync(file, 'utf8')).toBe(deep);
  });
});

describe('hook install / uninstall: a "__proto__" key in a JSON config', () => {
  it('is refused (AGENT_CONFIG_INVALID): what it holds is not read as the file`s own hooks, nothing is written', async () => {
    const ours = JSON.stringify(hookCommand(RUNNER, 'claude-code'));
    const text = `{"__proto__": {"hooks": {"Stop": [{"hooks": [{"type": "command", "command": ${ours}}]}]}}}\n`;
    const { opts, file } = withConfig('claude-code', text);
    await expect(uninstallHooks('claude-code', opts)).rejects.toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
    await expect(installHooks('claude-code', opts)).rejects.toMatchObject({ code: 'AGENT_CONFIG_INVALID' });
    expect(readFileSync(file, 'utf8')).toBe(text);
  });
});

describe('hook install: a settings file indented with tabs or four spaces', () => {
  /** The blanks that begin each line of `text`. */
  const indents = (text: string) => text.split('\n').map((line) => /^[ \t]*/.exec(line)?.[0] ?? '');

  it.each([
    ['tabs', '\t', (i: string) => /^\t*$/.test(i)],
    ['four spaces', '    ', (i: string) => /^( {4})*$/.test(i)],
  ])('keeps its %s on every line install adds, and comes back as it was', async (_name, unit, ok) => {
    const text = [
      '{',
      `${unit}"model": "opus",`,
      `${unit}"hooks": {`,
      `${unit}${unit}"Stop": [`,
      `${unit}${unit}${unit}{ "hooks": [ { "type": "command", "command": "./mine.sh" } ] }`,
      `${unit}${unit}]`,
      `${unit}}`,
      '}',
      '',
    ].join('\n');
    for (const agent of ['claude-code', 'gemini'] as const) {
      const { opts, file } = withConfig(agent, text);
      await installHooks(agent, opts);
      const installed = readFileSync(file, 'utf8');
      expect(installed).toContain(`hook ${agent}`);
      expect(indents(installed).filter((i) => !ok(i))).toEqual([]);
      await uninstallHooks(agent, opts);
      expect(readFileSync(file, 'utf8')).toBe(text);
    }
    // A file install makes, and a file of two spaces, are laid out in two spaces as before.
    const { opts, file } = withConfig('cursor', '{\n  "version": 1\n}\n');
    await installHooks('cursor', opts);
    expect(indents(readFileSync(file, 'utf8')).filter((i) => !/^( {2})*$/.test(i))).toEqual([]);
  });
});
