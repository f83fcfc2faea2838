/**
 * What a workspace gate must see though `git status` (as we run it) does not: a marked path
 * (assume-unchanged, skip-worktree) whatever lies there, and changes inside a submodule. Either
 * means the workspace is not the after tree: GATE_TREE_MISMATCH before the check, a verdict of
 * `error` (workspaceChanged) when the check itself made it so.
 */
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Gates } from '../../src/gates/gates.js';
import { expectCode } from '../helpers/codes.js';
import { quiet } from '../helpers/gates.js';
import { commitAll, git, repoWithCommit } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

/** Run r1 with one recorded iteration of `dir` (before, one new file, after). */
async function recorded(dir: string): Promise<Gates> {
  const snapshotter = newSnapshotter();
  await snapshotter.captureBeforeState(dir, { runId: 'r1' });
  writeFileSync(join(dir, 'n.txt'), 'n\n');
  await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
  return new Gates(snapshotter);
}

const gate = (command: string[], junit?: string[]) => ({
  runId: 'r1',
  name: 'check',
  command,
  echo: quiet(),
  ...(junit ? { junit } : {}),
});

function addSubmodule(dir: string, source: string, path: string): void {
  git(dir, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'add', source, path]);
  commitAll(dir, `add ${path}`);
}

describe('a workspace gate and the paths git does not compare', () => {
  it("refuses a marked link pointing elsewhere, and a directory put in a marked file's place", async () => {
    const dir = repoWithCommit({ 'good.conf': 'good\n', 'bad.conf': 'bad\n', 'f.txt': 'f\n' });
    symlinkSync('good.conf', join(dir, 'app.conf'));
    commitAll(dir, 'link');
    const gates = await recorded(dir);
    expect((await gates.run(dir, gate(['cat', 'app.conf']))).verdict).toBe('pass');
    git(dir, ['update-index', '--assume-unchanged', 'app.conf']);
    rmSync(join(dir, 'app.conf'));
    symlinkSync('bad.conf', join(dir, 'app.conf'));
    await expectCode(gates.run(dir, gate(['cat', 'app.conf'])), 'GATE_TREE_MISMATCH');
    git(dir, ['update-index', '--no-assume-unchanged', 'app.conf']);
    git(dir, ['checkout', '--', 'app.conf']);
    git(dir, ['update-index', '--skip-worktree', 'f.txt']);
    rmSync(join(dir, 'f.txt'));
    mkdirSync(join(dir, 'f.txt'));
    await expectCode(gates.run(dir, gate(['true'])), 'GATE_TREE_MISMATCH');
  });
});

describe('a workspace gate and submodules', () => {
  it('refuses modified content or an untracked file inside a submodule, nested ones too; an ignored file is fine', async () => {
    const inner = repoWithCommit({ 'i.txt': 'inner\n' });
    const source = repoWithCommit({ 's.txt': 'sub\n', '.gitignore': '*.log\n' });
    addSubmodule(source, inner, 'inner');
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    addSubmodule(dir, source, 'lib');
    git(dir, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'update', '--init', '--recursive']);
    const gates = await recorded(dir);
    const lib = join(dir, 'lib');
    writeFileSync(join(lib, 'build.log'), 'ignored\n');
    expect((await gates.run(dir, gate(['true']))).verdict).toBe('pass');
    writeFileSync(join(lib, 's.txt'), 'edited\n');
    await expectCode(gates.run(dir, gate(['true'])), 'GATE_TREE_MISMATCH');
    git(lib, ['checkout', '--', 's.txt']);
    writeFileSync(join(lib, 'new.txt'), 'untracked\n');
    await expectCode(gates.run(dir, gate(['true'])), 'GATE_TREE_MISMATCH');
    rmSync(join(lib, 'new.txt'));
    writeFileSync(join(lib, 'inner', 'i.txt'), 'edited deep down\n');
    await expectCode(gates.run(dir, gate(['true'])), 'GATE_TREE_MISMATCH');
    git(join(lib, 'inner'), ['checkout', '--', 'i.txt']);
    expect((await gates.run(dir, gate(['true']))).verdict).toBe('pass');
  });

  it('a check that edits a submodule gets an error verdict (workspaceChanged); its own JUnit report there does not count', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    addSubmodule(dir, repoWithCommit({ 's.txt': 'sub\n' }), 'lib');
    const gates = await recorded(dir);
    const dirtied = await gates.run(dir, gate(['sh', '-c', 'echo x >> lib/s.txt']));
    expect(dirtied).toMatchObject({ verdict: 'error', workspaceChanged: true });
    git(join(dir, 'lib'), ['checkout', '--', 's.txt']);
    const xml = '<testsuite name="s"><testcase name="t"/></testsuite>';
    const report = gate(['sh', '-c', `printf '%s' '${xml}' > lib/junit.xml`], ['lib/junit.xml']);
    const reported = await gates.run(dir, report);
    expect(reported.verdict).toBe('pass');
    expect(reported).not.toHaveProperty('workspaceChanged');
  });
});
