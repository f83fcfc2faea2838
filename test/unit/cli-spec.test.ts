/**
 * The CLI's command declarations: the parser built from them (typed values, USAGE and
 * INVALID_ARGUMENT naming the option), the --help they generate, the lazy registry, and tables
 * that stay aligned with colour codes in them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  COMMAND_MODULES,
  COMMAND_NAMES,
  loadAllCommands,
  loadCommand,
} from '../../src/cli/commands/index.js';
import { paintCell, printable, table, visibleWidth } from '../../src/cli/output.js';
import {
  commandHelp,
  defineCommand,
  GLOBAL_OPTIONS,
  parseCommandLine,
  type Command,
  type OptionDecl,
} from '../../src/cli/spec.js';
import { packageVersion } from '../../src/cli/version.js';

const sample = defineCommand({
  name: 'sample',
  summary: 'A command for the parser tests.',
  options: {
    run: { type: 'string', valueName: 'ID', description: 'the run', required: true },
    keep: { type: 'integer', valueName: 'N', description: 'how many', default: 7 },
    mode: { type: 'string', choices: ['fast', 'slow'], description: 'the mode' },
    output: { type: 'string', short: 'o', valueName: 'FILE', description: 'where to write' },
    all: { type: 'boolean', description: 'everything' },
  },
  positionals: { required: ['ID'], optional: ['TO'] },
  examples: ['sample --run r x'],
  async run() {
    return { json: null, human: () => '' };
  },
});

function codeOfParse(args: string[], command: Command = sample): string | undefined {
  try {
    parseCommandLine(command, args);
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe('parseCommandLine', () => {
  it('a repeatable option collects every value in order; none gives []', () => {
    const many = defineCommand({
      name: 'many',
      summary: 'Repeatable options.',
      options: { junit: { type: 'string', valueName: 'FILE', multiple: true, description: 'a report' } },
      positionals: { required: [], rest: 'CMD' },
      examples: [],
      async run() {
        return { json: null, human: () => '' };
      },
    });
    expect(
      parseCommandLine(many, ['--junit', 'a.xml', '--junit=b.xml', '--', '--junit', 'c']).values.junit,
    ).toEqual(['a.xml', 'b.xml']);
    expect(parseCommandLine(many, []).values.junit).toEqual([]);
    expect(many.usage).toBe('many [--junit FILE]... [CMD...]');
    expect(commandHelp(many)).toContain('(repeatable)');
  });

  it('gives typed values: defaults, integers, booleans, short options, attached values and `--`', () => {
    const parsed = parseCommandLine(sample, [
      'x',
      '--run',
      'r',
      '-o',
      'f.diff',
      '--keep=3',
      '--all',
      '--mode',
      'slow',
      '-C',
      'ws',
      '--',
      '--json',
    ]);
    expect(parsed.positionals).toEqual(['x', '--json']);
    expect(parsed.values).toMatchObject({
      run: 'r',
      output: 'f.diff',
      keep: 3,
      all: true,
      mode: 'slow',
      workspace: 'ws',
      json: false,
      help: false,
    });
    const defaults = parseCommandLine(sample, ['--run=r', 'x', '-ofile']);
    expect(defaults.values).toMatchObject({
      run: 'r',
      keep: 7,
      output: 'file',
      all: false,
      mode: undefined,
      workspace: undefined,
    });
    expect(parseCommandLine(sample, ['--run', 'r', 'x', '--keep=0']).values.keep).toBe(0);
  });

  it('reports an unknown option, a missing value or a missing required option as USAGE', () => {
    expect(codeOfParse(['--run', 'r', 'x', '--bogus'])).toBe('USAGE');
    expect(codeOfParse(['--run', 'r', 'x', '-z'])).toBe('USAGE');
    expect(codeOfParse(['x', '--run'])).toBe('USAGE');
    expect(codeOfParse(['x', '--run', '--all'])).toBe('USAGE');
    expect(codeOfParse(['x', '--run', 'r', '--keep', '-1'])).toBe('USAGE');
    expect(codeOfParse(['x'])).toBe('USAGE');
    expect(codeOfParse(['x', '--run', 'r', '--all=yes'])).toBe('USAGE');
    expect(codeOfParse(['--run', 'r'])).toBe('USAGE');
    expect(codeOfParse(['--run', 'r', 'x', 'y', 'z'])).toBe('USAGE');
  });

  it('reports a value of the wrong form as INVALID_ARGUMENT', () => {
    expect(codeOfParse(['x', '--run', 'r', '--keep=-1'])).toBe('INVALID_ARGUMENT');
    expect(codeOfParse(['x', '--run', 'r', '--keep', '1.5'])).toBe('INVALID_ARGUMENT');
    expect(codeOfParse(['x', '--run', 'r', '--mode', 'medium'])).toBe('INVALID_ARGUMENT');
    expect(codeOfParse(['x', '--run='])).toBe('INVALID_ARGUMENT');
  });

  it('checks neither positionals nor required options when --help or --version is given', () => {
    expect(parseCommandLine(sample, ['--help']).values.help).toBe(true);
    expect(parseCommandLine(sample, ['-V']).values.version).toBe(true);
  });
});

describe('generated help', () => {
  it('describes every option of every command, with its value, default and an example', async () => {
    const commands = await loadAllCommands();
    expect(commands.map((c) => c.name)).toEqual(COMMAND_NAMES);
    for (const command of commands) {
      const help = commandHelp(command);
      expect(help.startsWith(`Usage: agentgate-snapshot ${command.name}`), command.name).toBe(true);
      expect(help, command.name).toMatch(/\nExamples?:\n {2}agentgate-snapshot \S/);
      const declared: Record<string, OptionDecl> = { ...command.options, ...GLOBAL_OPTIONS };
      for (const [name, decl] of Object.entries(declared)) {
        const line = help.split('\n').find((l) => l.includes(`--${name}`) && l.includes(decl.description));
        expect(line, `${command.name} --${name}`).toBeDefined();
        if ('default' in decl && decl.default !== undefined)
          expect(line).toContain(`default: ${String(decl.default)}`);
        if (decl.defaultText !== undefined) expect(line).toContain(`default: ${decl.defaultText}`);
      }
    }
    const gc = commandHelp((await loadCommand('checkpoint gc')) as Command);
    expect(gc).toMatch(/--keep N .*default: .*100/);
    expect(gc).toMatch(/--prune AGE .*2\.weeks\.ago/);
    expect(commandHelp((await loadCommand('patch')) as Command)).toMatch(/^ {2}-o, --output FILE /m);
  });

  it('generates a usage line from the declarations when none is given', () => {
    expect(sample.usage).toBe(
      'sample --run ID [--keep N] [--mode fast|slow] [--output FILE] [--all] ID [TO]',
    );
  });
});

describe('command registry', () => {
  it('lists exactly the commands each module exports', async () => {
    for (const module of COMMAND_MODULES)
      expect((await module.load()).map((c) => c.name)).toEqual(module.names);
    expect(new Set(COMMAND_NAMES).size).toBe(COMMAND_NAMES.length);
  });
});

describe('tables', () => {
  it('align coloured cells as they align plain ones', () => {
    const rows = (on: boolean) => [
      [paintCell('ok', 'green', on), 'snap-1', '12'],
      [paintCell('FAIL', 'red', on), 'snap-22', '3'],
    ];
    const plain = table(['', 'SNAPSHOT', 'N'], rows(false)).split('\n');
    const coloured = table(['', 'SNAPSHOT', 'N'], rows(true)).split('\n');
    expect(coloured.map(visibleWidth)).toEqual(plain.map((l) => l.length));
    // eslint-disable-next-line no-control-regex -- the escape codes are what we strip
    expect(coloured.map((l) => l.replace(/\u001b\[[0-9;]*m/g, ''))).toEqual(plain);
  });

  it("show data's own colour codes escaped, in cells and in printable text, with colour on or off", () => {
    const name = 'g\u001b[33mh\u001b[8mhidden\u001b[0m';
    const shown = 'g\\x1b[33mh\\x1b[8mhidden\\x1b[0m';
    expect(printable(name)).toBe(shown);
    for (const on of [true, false]) {
      const out = table(['', 'FILE'], [[paintCell('ok', 'green', on), name]]);
      expect(out).toContain(shown);
      expect(out.includes('\u001b[33m')).toBe(false);
      expect(out.includes('\u001b[32mok')).toBe(on);
    }
  });
});

describe('version and library messages', () => {
  it('reads the package version', () => {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(packageVersion()).toBe(pkg.version);
  });

  it('no error message outside the CLI tells library users to "pass -C"', () => {
    const root = new URL('../../src/', import.meta.url).pathname;
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const path = join(dir, name);
        return statSync(path).isDirectory() ? (name === 'cli' ? [] : files(path)) : [path];
      });
    for (const file of files(root)) expect(readFileSync(file, 'utf8'), file).not.toMatch(/pass -C|-C with/);
  });
});
