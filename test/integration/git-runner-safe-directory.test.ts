/**
 * The user's `safe.directory` values are read once per process, and git is asked to parse only a
 * config file that names the key: a global config without it (the usual case) costs no process.
 * One scenario per file: the values are cached for the life of the module.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitCallCount, runGit } from '../../src/git/runner.js';
import { tempDir } from '../helpers/repo.js';

describe("the user's safe.directory", () => {
  it('starts no git process for a global config that does not name it', async () => {
    // test/setup.ts gives this file a HOME of its own; no system config, so the machine's does not count.
    process.env.GIT_CONFIG_NOSYSTEM = '1';
    writeFileSync(join(process.env.HOME as string, '.gitconfig'), '[user]\n\tname = someone\n');
    const before = gitCallCount();
    await runGit({ cwd: tempDir() }, ['--version']);
    expect(gitCallCount() - before).toBe(1);
  });
});
