/**
 * What a workspace gate must see though `git status` (as we run it) does not: a marked path
 * (assume-unchanged, skip-worktree) whatever lies there, and changes inside a submodule. Either
 * means the workspace is not the after tree: GATE_TREE_MISMATCH before the check, a verdict of
 * `error` (workspaceChanged) when the check itself made it so. Also what the repository's own
 * config or our settings would hide: a same-size edit under cached stat data the repository
 * trusts too far, and tracked files in an artifacts directory inside the workspace.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Gates } from '../../src/gates/gates.js';
import { expectCode } from '../helpers/codes.js';
import { mismatchPaths, quiet } from '../helpers/gates.js';
import { commitAll, git, repoWithCommit, tempDir } from '../helpers/repo.js';
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

const initSubmodules = (dir: string) =>
  git(dir, ['-c', 'protocol.file.allow=always', 'submodule', '--quiet', 'update', '--init', '--recursive']);

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

  it('refuses a marked file that is gone: a test suite without its failing test is not the after tree', async () => {
    const dir = repoWithCommit({ 'tests/ok.sh': 'exit 0\n', 'tests/broken.sh': 'exit 1\n' });
    const gates = await recorded(dir);
    const suite = ['sh', '-c', 'for t in tests/*.sh; do sh $t || exit 1; done'];
    expect((await gates.run(dir, gate(suite))).verdict).toBe('fail');
    for (const mark of ['--assume-unchanged', '--skip-worktree']) {
      git(dir, ['update-index', mark, 'tests/broken.sh']);
      rmSync(join(dir, 'tests/broken.sh'));
      expect(await mismatchPaths(gates.run(dir, gate(suite)))).toEqual(['tests/broken.sh']);
      git(dir, ['update-index', mark.replace('--', '--no-'), 'tests/broken.sh']);
      git(dir, ['checkout', '--', 'tests/broken.sh']);
    }
    // A check that hides a deletion so changed what it judged.
    const hiding = ['sh', '-c', 'git update-index --assume-unchanged tests/ok.sh && rm tests/ok.sh'];
    expect(await gates.run(dir, gate(hiding))).toMatchObject({ verdict: 'error', workspaceChanged: true });
  });

  it('in a sparse checkout, a skip-worktree file left out is fine, an assume-unchanged one gone is not', async () => {
    const dir = repoWithCommit({ 'a/x.txt': 'x\n', 'b/y.txt': 'y\n' });
    const gates = await recorded(dir);
    git(dir, ['sparse-checkout', 'set', 'a']);
    expect((await gates.run(dir, gate(['true']))).verdict).toBe('pass');
    git(dir, ['update-index', '--assume-unchanged', 'a/x.txt']);
    rmSync(join(dir, 'a/x.txt'));
    expect(await mismatchPaths(gates.run(dir, gate(['true'])))).toEqual(['a/x.txt']);
  });
});

describe('config the check itself writes', () => {
  it('a filter the check plants in the repository runs no program when the workspace is looked at again', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    const gates = await recorded(dir);
    const marker = join(tempDir('agentgate-marker-'), 'ran');
    const program = join(tempDir('agentgate-program-'), 'clean.sh');
    writeFileSync(program, `#!/bin/sh\ntouch '${marker}'\ncat\n`, { mode: 0o755 });
    const plant = `git config filter.planted.clean '${program}' && echo '* filter=planted' > .git/info/attributes && echo b >> a.txt`;
    expect(await gates.run(dir, gate(['sh', '-c', plant]))).toMatchObject({
      verdict: 'error',
      workspaceChanged: true,
    });
    expect(existsSync(marker)).toBe(false);
  });
});

describe('a workspace gate and submodules', () => {
  it('refuses modified content or an untracked file inside a submodule, nested ones too; an ignored file is fine', async () => {
    const inner = repoWithCommit({ 'i.txt': 'inner\n' });
    const source = repoWithCommit({ 's.txt': 'sub\n', '.gitignore': '*.log\n' });
    addSubmodule(source, inner, 'inner');
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    addSubmodule(dir, source, 'lib');
    initSubmodules(dir);
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

  it('refuses an edit hidden by a mark inside a submodule, and a marked file deleted in a nested one', async () => {
    const source = repoWithCommit({ 's.txt': 'sub\n' });
    addSubmodule(source, repoWithCommit({ 'n.txt': 'nested\n' }), 'nest');
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    addSubmodule(dir, source, 'lib');
    initSubmodules(dir);
    const gates = await recorded(dir);
    const lib = join(dir, 'lib');
    git(lib, ['update-index', '--assume-unchanged', 's.txt']);
    writeFileSync(join(lib, 's.txt'), 'hidden\n', { flag: 'a' });
    expect(await mismatchPaths(gates.run(dir, gate(['true'])))).toEqual(['lib/s.txt']);
    git(lib, ['update-index', '--no-assume-unchanged', 's.txt']);
    git(lib, ['checkout', '--', 's.txt']);
    expect((await gates.run(dir, gate(['true']))).verdict).toBe('pass');
    git(join(lib, 'nest'), ['update-index', '--skip-worktree', 'n.txt']);
    rmSync(join(lib, 'nest', 'n.txt'));
    expect(await mismatchPaths(gates.run(dir, gate(['true'])))).toEqual(['lib/nest/n.txt']);
  });

  it('a submodule sparse checked out by git sparse-checkout (its core.worktree moved to config.worktree) passes', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    addSubmodule(dir, repoWithCommit({ 'top.txt': 't\n', 'd/in.txt': 'i\n', 'e/out.txt': 'o\n' }), 'lib');
    initSubmodules(dir);
    const gates = await recorded(dir);
    git(join(dir, 'lib'), ['sparse-checkout', 'set', 'd']);
    expect((await gates.run(dir, gate(['true']))).verdict).toBe('pass');
  });

  it('refuses anything lying in a submodule that is not checked out; an empty one is fine', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    addSubmodule(dir, repoWithCommit({ 's.txt': 'sub\n' }), 'lib');
    git(dir, ['submodule', '--quiet', 'deinit', '-f', 'lib']);
    const gates = await recorded(dir);
    expect((await gates.run(dir, gate(['true']))).verdict).toBe('pass');
    writeFileSync(join(dir, 'lib', 'evil.txt'), 'planted\n');
    expect(await mismatchPaths(gates.run(dir, gate(['cat', 'lib/evil.txt'])))).toEqual(['lib']);
    rmSync(join(dir, 'lib', 'evil.txt'));
    const planting = gate(['sh', '-c', 'echo planted > lib/evil.txt']);
    expect(await gates.run(dir, planting)).toMatchObject({ verdict: 'error', workspaceChanged: true });
  });
});

/**
 * Moves the ctime every entry of the index recorded back by 10 s, as if the index had been
 * refreshed that long ago: git compares ctimes to the second, and a test must not wait for one to
 * pass. Index version 2 (what git writes by default), whose checksum is written again.
 */
function ageIndexCtimes(dir: string): void {
  const path = join(dir, '.git', 'index');
  const index = readFileSync(path);
  expect(index.readUInt32BE(4)).toBe(2);
  let offset = 12;
  for (let i = 0; i < index.readUInt32BE(8); i += 1) {
    index.writeUInt32BE(index.readUInt32BE(offset) - 10, offset);
    offset += (62 + (index.readUInt16BE(offset + 60) & 0xfff) + 8) & ~7;
  }
  createHash('sha1')
    .update(index.subarray(0, index.length - 20))
    .digest()
    .copy(index, index.length - 20);
  writeFileSync(path, index);
}

/**
 * Rewrites `file` in place with content of the same size and gives it back the old mtime the index
 * recorded: only its ctime tells. That mtime predates the index, so git sees no racy entry.
 */
function sameSizeEdit(dir: string, file: string, content: string): void {
  const path = join(dir, file);
  const old = new Date('2020-01-01T00:00:00Z');
  utimesSync(path, old, old);
  git(dir, ['update-index', '-q', '--refresh']);
  ageIndexCtimes(dir);
  writeFileSync(path, content);
  utimesSync(path, old, old);
}

describe('a repository that trusts cached stat data too far', () => {
  it('core.trustctime=false and core.checkStat=minimal hide no same-size edit from after or a gate', async () => {
    const dir = repoWithCommit({ 'a.txt': 'hello\n' });
    git(dir, ['config', 'core.trustctime', 'false']);
    git(dir, ['config', 'core.checkStat', 'minimal']);
    const snapshotter = newSnapshotter();
    await snapshotter.captureBeforeState(dir, { runId: 'r1' });
    sameSizeEdit(dir, 'a.txt', 'hellX\n');
    // The repository's own git sees nothing: the edit is hidden from anything that trusts it.
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    const snap = await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
    expect(snap.files.map((f) => f.path)).toEqual(['a.txt']);
    const gates = new Gates(snapshotter);
    expect((await gates.run(dir, gate(['cat', 'a.txt']))).verdict).toBe('pass');
    sameSizeEdit(dir, 'a.txt', 'hellY\n');
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    expect(await mismatchPaths(gates.run(dir, gate(['cat', 'a.txt'])))).toEqual(['a.txt']);
  });
});

describe('a repository that claims a filesystem without executable bits or symbolic links', () => {
  it('core.fileMode=false hides no mode change from a workspace gate, in a submodule neither', async () => {
    const dir = repoWithCommit({ 't.sh': '#!/bin/sh\necho ran\n' });
    addSubmodule(dir, repoWithCommit({ 's.sh': '#!/bin/sh\n' }), 'lib');
    const gates = await recorded(dir);
    chmodSync(join(dir, 't.sh'), 0o755);
    git(dir, ['config', 'core.fileMode', 'false']);
    // The repository's own git sees nothing: the tree says t.sh cannot be run.
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    expect(await mismatchPaths(gates.run(dir, gate(['./t.sh'])))).toEqual(['t.sh']);
    expect((await gates.list({ runId: 'r1' })).results).toEqual([]);
    // Isolated, the tree's own mode: the script cannot start.
    const isolated = await gates.run(dir, { ...gate(['./t.sh']), isolated: true });
    expect(isolated.reason).toMatch(/^GATE_COMMAND_NOT_FOUND/);
    chmodSync(join(dir, 't.sh'), 0o644);
    const lib = join(dir, 'lib');
    git(lib, ['config', 'core.fileMode', 'false']);
    chmodSync(join(lib, 's.sh'), 0o755);
    expect(await mismatchPaths(gates.run(dir, gate(['true'])))).toEqual(['lib/s.sh']);
    chmodSync(join(lib, 's.sh'), 0o644);
    // A check that makes a file executable changed what it judged.
    const chmodded = await gates.run(dir, gate(['chmod', '+x', 't.sh']));
    expect(chmodded).toMatchObject({ verdict: 'error', workspaceChanged: true });
  });

  it('core.symlinks=false hides no link replaced by a file, and an isolated checkout writes links as links', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n' });
    symlinkSync('a.txt', join(dir, 'link'));
    commitAll(dir, 'link');
    const gates = await recorded(dir);
    git(dir, ['config', 'core.symlinks', 'false']);
    rmSync(join(dir, 'link'));
    writeFileSync(join(dir, 'link'), 'a.txt');
    expect(git(dir, ['status', '--porcelain'])).toBe('');
    const isLink = gate(['sh', '-c', 'test -L link']);
    expect(await mismatchPaths(gates.run(dir, isLink))).toEqual(['link']);
    expect((await gates.run(dir, { ...isLink, isolated: true })).verdict).toBe('pass');
  });
});

describe('a workspace gate and an artifacts directory inside the workspace', () => {
  it('one that holds tracked files is UNSAFE_WORKSPACE before the check runs, and nothing is recorded', async () => {
    const dir = repoWithCommit({ 'src/b.txt': 'ok\n' });
    const recordedBy = newSnapshotter();
    await recordedBy.captureBeforeState(dir, { runId: 'r1' });
    writeFileSync(join(dir, 'a.txt'), 'x\n');
    await recordedBy.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
    const { home } = recordedBy.options;
    const gates = new Gates(newSnapshotter({ home, artifactsDir: join(dir, 'src') }));
    const ran = join(tempDir('agentgate-ran-'), 'ran');
    const check = gate(['sh', '-c', `touch '${ran}' && echo X >> src/b.txt`]);
    await expectCode(gates.run(dir, check), 'UNSAFE_WORKSPACE');
    writeFileSync(join(dir, 'src/b.txt'), 'HACK\n', { flag: 'a' });
    await expectCode(gates.run(dir, check), 'UNSAFE_WORKSPACE');
    expect(existsSync(ran)).toBe(false);
    expect((await gates.list({ runId: 'r1' })).results).toEqual([]);
    // With --isolated the check runs on the after tree alone: our directories play no part.
    git(dir, ['checkout', '--', 'src/b.txt']);
    expect((await gates.run(dir, { ...gate(['cat', 'src/b.txt']), isolated: true })).verdict).toBe('pass');
  });
});
