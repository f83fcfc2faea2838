/**
 * The README's npx command lines work as written: `npx --no -- agentgate-snapshot ...` (without the
 * `--`, npx reads `--version` and `--help` as its own and prints npm's version), followed by one of
 * our commands or a global option. test/integration/package-install.test.ts runs the `--version`
 * and `--help` lines against the installed package.
 */
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../src/cli/commands/index.js';
import { readmeNpxCommands, readmeNpxLines } from '../helpers/readme.js';

describe('README command lines', () => {
  it('run the installed CLI through npx --no --, with a command we have', () => {
    const commands = readmeNpxCommands();
    expect(commands.length).toBeGreaterThan(5);
    for (const command of commands) {
      expect(command).toMatch(/^npx --no -- agentgate-snapshot (\S+)/);
      const word = /^npx --no -- agentgate-snapshot (\S+)/.exec(command)?.[1] ?? '';
      expect(['--version', '--help', ...COMMAND_NAMES.map((c) => c.split(' ')[0])], command).toContain(word);
    }
  });

  it('include the --version and --help lines the install section promises', () => {
    expect(readmeNpxLines()).toEqual(
      expect.arrayContaining([
        'npx --no -- agentgate-snapshot --version',
        'npx --no -- agentgate-snapshot --help',
      ]),
    );
  });
});
