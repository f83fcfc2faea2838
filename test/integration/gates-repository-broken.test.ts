/**
 * Without --isolated, a check that leaves no repository we can open in the workspace (its `.git`
 * moved or removed, HEAD garbled, the repository made bare or its work tree moved) changed what it
 * judged: its verdict is recorded as the `error` it is (GATE_TREE_MISMATCH, `workspaceChanged`),
 * with its log, rather than the call failing as if the workspace had never been a repository.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatedRun, quiet } from '../helpers/gates.js';

describe('a check that breaks the repository it judged', () => {
  it.each([
    ['moves .git away', 'mv .git .git-moved'],
    ['removes .git', 'rm -rf .git'],
    ['garbles HEAD', 'echo garbage > .git/HEAD'],
    ['makes the repository bare', 'git config core.bare true'],
    ['moves the work tree', 'git config core.worktree /'],
  ])('%s: an error verdict, recorded with its log', async (_label, script) => {
    const { dir, gates } = await gatedRun([{ 'a.txt': 'a\n' }]);
    const result = await gates.run(dir, {
      runId: 'r1',
      name: 'breaks',
      command: ['sh', '-c', `echo checking; ${script}`],
      echo: quiet(),
    });
    expect(result).toMatchObject({ verdict: 'error', exitCode: 0, workspaceChanged: true });
    expect(result.reason).toMatch(/^GATE_TREE_MISMATCH: after the check /);
    expect(readFileSync(result.log?.path as string, 'utf8')).toBe('checking\n');
    expect((await gates.list({ runId: 'r1' })).results.map((r) => r.id)).toEqual([result.id]);
  });
});
