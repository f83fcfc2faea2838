/**
 * A workspace gate and git's clean conversion: `git status` compares a file as converted by its
 * attributes (`ident`, `text`/`eol`, `working-tree-encoding`) or `core.autocrlf`, so a file whose
 * bytes are not the tree's can look unchanged. An agent that commits `t.js ident` keeps code
 * between `$Id:` and `$` that the after tree lacks: a check run in the workspace would run it.
 * Such a workspace is GATE_TREE_MISMATCH; what an honest checkout writes (CRs of `eol=crlf`, an
 * expanded `$Id$`) is the tree and is judged.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Gates } from '../../src/gates/gates.js';
import { mismatchPaths, quiet } from '../helpers/gates.js';
import { git, repoWithCommit } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

/** Run r1 with one iteration in which the agent writes `files`. */
async function recorded(dir: string, files: Record<string, string>): Promise<Gates> {
  const snapshotter = newSnapshotter();
  await snapshotter.captureBeforeState(dir, { runId: 'r1' });
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
  return new Gates(snapshotter);
}

const gate = (command: string[]) => ({ runId: 'r1', name: 'test', command, echo: quiet() });

// The tree's test fails; the workspace's copy also holds `process.exitCode = 0`, which ident hides.
const HIDDEN = 'process.exitCode = 1; /*$Id: */ process.exitCode = 0; /*$*/\n';

describe('a workspace gate and files git converts before comparing', () => {
  it('refuses code hidden behind ident, and judges the file an honest checkout expands', async () => {
    const dir = repoWithCommit({ 'README.md': 'hello\n' });
    const gates = await recorded(dir, { '.gitattributes': 't.js ident\n', 't.js': HIDDEN });
    expect(git(dir, ['show', 'HEAD:t.js'])).toBe('process.exitCode = 1; /*$Id$*/');
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    expect(await mismatchPaths(gates.run(dir, gate(['node', 't.js'])))).toEqual(['t.js']);
    // What the tree says, in isolation; and in the workspace once it holds the tree's file.
    expect((await gates.run(dir, { ...gate(['node', 't.js']), isolated: true })).verdict).toBe('fail');
    rmSync(join(dir, 't.js'));
    git(dir, ['checkout', '--', 't.js']);
    expect(readFileSync(join(dir, 't.js'), 'utf8')).toMatch(/\$Id: [0-9a-f]{40} \$/);
    expect((await gates.run(dir, gate(['node', 't.js']))).verdict).toBe('fail');
  });

  it('refuses carriage returns that text=auto hides, and judges an eol=crlf checkout', async () => {
    const dir = repoWithCommit({ '.gitattributes': '* text=auto\n*.bat text eol=crlf\n', 'a.bat': 'x\n' });
    rmSync(join(dir, 'a.bat'));
    git(dir, ['checkout', '--', 'a.bat']);
    const gates = await recorded(dir, { 'b.txt': 'b\n' });
    expect(readFileSync(join(dir, 'a.bat'), 'utf8')).toBe('x\r\n');
    expect((await gates.run(dir, gate(['true']))).verdict).toBe('pass');
    writeFileSync(join(dir, 'b.txt'), 'b\r\n');
    git(dir, ['add', 'b.txt']);
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    expect(await mismatchPaths(gates.run(dir, gate(['true'])))).toEqual(['b.txt']);
  });

  it('makes the verdict an error when the check itself hides a change so', async () => {
    const dir = repoWithCommit({ 'README.md': 'hello\n' });
    const gates = await recorded(dir, {
      '.gitattributes': 't.js ident\n',
      't.js': 'process.exitCode = 1; /*$Id$*/\n',
    });
    // It writes the hidden code and refreshes the index's stat data, so that git status sees no change.
    const rewrite = `require('fs').writeFileSync('t.js', ${JSON.stringify(HIDDEN)})`;
    const result = await gates.run(dir, gate(['sh', '-c', `node -e "$0" && git add t.js`, rewrite]));
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    expect(result).toMatchObject({ verdict: 'error', workspaceChanged: true, exitCode: 0 });
    expect(result.reason).toMatch(/^GATE_TREE_MISMATCH: /);
  });

  it("refuses carriage returns the repository's core.autocrlf=input drops, set in its config or an include that applies", async () => {
    for (const where of ['config', 'include'] as const) {
      const dir = repoWithCommit({ 'README.md': 'hello\n' });
      if (where === 'config') git(dir, ['config', 'core.autocrlf', 'input']);
      else {
        writeFileSync(join(dir, '.git', 'crlf.inc'), '[core]\n\tautocrlf = input\n');
        git(dir, ['config', `includeIf.gitdir:${dir}/.path`, 'crlf.inc']);
      }
      expect(git(dir, ['config', '--get', 'core.autocrlf'])).toBe('input');
      const gates = await recorded(dir, { 'b.txt': 'b\n' });
      expect((await gates.run(dir, gate(['true']))).verdict).toBe('pass');
      writeFileSync(join(dir, 'b.txt'), 'b\r\n');
      git(dir, ['add', 'b.txt']);
      expect(git(dir, ['status', '--porcelain'])).toBe('');
      expect(await mismatchPaths(gates.run(dir, gate(['true'])))).toEqual(['b.txt']);
    }
  });
});
