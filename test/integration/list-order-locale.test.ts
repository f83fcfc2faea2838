/**
 * `list` ("by run then iteration") and `runs` (a tie) ordered run ids with `localeCompare`, so the order
 * of one store's JSON depended on the caller's locale: under LC_ALL=da_DK.UTF-8 run `aa` came after
 * `z` (Danish sorts "aa" as "å"), elsewhere first. Ids are compared as git compares ref names now,
 * by code unit, whatever the locale.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { remove, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

describe('list order', () => {
  it('is the same in every locale', () => {
    const dir = repoWithCommit({ 'README.md': 'hello\n' });
    const home = tempDir('agentgate-home-');
    try {
      const cli = (args: string[], env: NodeJS.ProcessEnv = {}) =>
        runCli(['-C', dir, '--home', home, '--json', ...args], { cwd: dir, env });
      for (const run of ['z', 'aa', 'B']) {
        expect(cli(['before', '--run', run]).status).toBe(0);
        writeFiles(dir, { [`${run}.txt`]: `${run}\n` });
        expect(cli(['after', '--run', run, '--iteration', '1']).status).toBe(0);
      }
      for (const locale of ['C', 'en_US.UTF-8', 'da_DK.UTF-8']) {
        const env = { LC_ALL: locale, LANG: locale };
        const listed = cli(['list'], env).json() as Array<{ runId: string }>;
        expect(
          listed.map((s) => s.runId),
          locale,
        ).toEqual(['B', 'aa', 'z']);
      }
    } finally {
      remove(dir);
      remove(home);
    }
  });
});
