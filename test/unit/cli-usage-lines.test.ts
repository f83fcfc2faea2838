/**
 * Every command's usage line (the first line of its --help and of docs/cli.md's section) names
 * every option the command declares, with its placeholder, and marks a repeatable one with "...":
 * a usage line written by hand drifted from the options the same help lists.
 */
import { describe, expect, it } from 'vitest';
import { loadAllCommands } from '../../src/cli/commands/index.js';
import { placeholder, type OptionDecl } from '../../src/cli/spec.js';

function escaped(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * What the usage line must show of one option: `--name` or its short `-x`, then its placeholder (or
 * its choices, `--ci github|none`) unless it is a flag, then `...` when it is repeatable.
 */
function shown(name: string, decl: OptionDecl): RegExp {
  const flag =
    decl.short === undefined ? `--${escaped(name)}` : `(--${escaped(name)}|-${escaped(decl.short)})`;
  const values =
    decl.type === 'boolean'
      ? []
      : [placeholder(decl), ...(decl.type === 'string' && decl.choices ? [decl.choices.join('|')] : [])];
  const value = values.length === 0 ? '' : ` (${values.map(escaped).join('|')})`;
  const many = decl.type === 'string' && decl.multiple === true ? '\\]?\\.\\.\\.' : '';
  return new RegExp(`(^|[\\s\\[(|,])${flag}${value}${many}(?=$|[\\s\\])|])`);
}

describe('usage lines', () => {
  it("name every option of their command, with its placeholder, repeatable ones with '...'", async () => {
    const missing: string[] = [];
    for (const command of await loadAllCommands())
      for (const [name, decl] of Object.entries(command.options))
        if (!shown(name, decl).test(command.usage))
          missing.push(`${command.name}: --${name} (${command.usage})`);
    expect(missing).toEqual([]);
  });
});
