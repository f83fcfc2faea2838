/**
 * docs/cli.md is generated from the command declarations (scripts/cli-reference.ts, `npm run
 * docs:cli`): it must be exactly what the script renders now, so a new command or option that is
 * not in the reference fails here.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cliReference, CLI_REFERENCE_PATH, commandAnchor } from '../../scripts/cli-reference.js';
import { COMMAND_NAMES } from '../../src/cli/commands/index.js';
import { GLOBAL_OPTIONS } from '../../src/cli/spec.js';

describe('docs/cli.md', () => {
  it('is what "npm run docs:cli" writes from the declarations as they are (run it when this fails)', async () => {
    const rendered = await cliReference();
    expect(
      readFileSync(CLI_REFERENCE_PATH, 'utf8') === rendered,
      'docs/cli.md is stale: run "npm run docs:cli"',
    ).toBe(true);
  });

  it('has a section for every command and a row for every global option', async () => {
    const page = await cliReference();
    for (const name of COMMAND_NAMES) {
      expect(page).toContain(`\n## \`${name}\`\n`);
      expect(page).toContain(`](#${commandAnchor(name)})`);
    }
    for (const name of Object.keys(GLOBAL_OPTIONS))
      expect(page).toMatch(new RegExp(`\\| \`(-\\w, )?--${name}\\b`));
  });
});
