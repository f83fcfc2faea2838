/**
 * An index rewritten by hand: an agent gives the entry of a file it edited that file's real stat
 * data and the old blob id. git then takes the file as unchanged, in `add -A` and in `status`.
 * `before` and `after` keep a seal of the index they leave (RunRecord.indexSeal); an index that no
 * longer matches it has its stat data dropped, so the edit is hashed and seen.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Gates } from '../../src/gates/gates.js';
import { readIndexState, sealOf, trustIndex } from '../../src/git/index-seal.js';
import { openRepo } from '../../src/git/repo.js';
import { expectCode } from '../helpers/codes.js';
import { quiet } from '../helpers/gates.js';
import { git, repoWithCommit, tempDir } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';
import { okIn } from '../helpers/cli.js';

/**
 * Writes `content` to `path` and forges its index entry: the file's own stat data (an mtime in the
 * past, so git does not take it as racily clean) with the blob the index held before.
 */
function forge(dir: string, path: string, content: string): void {
  execFileSync(process.execPath, [forgeScript(path, content)], { cwd: dir });
  // The forgery works on git itself: no change to see.
  expect(git(dir, ['status', '--porcelain'])).toBe('');
}

const blobAt = (dir: string, rev: string) => git(dir, ['cat-file', 'blob', rev]).trim();

describe('an index rewritten by hand', () => {
  it('does not hide an edit from after, and the run keeps the seal of the index it left', async () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n', 'b.txt': 'keep\n' });
    const snapshotter = newSnapshotter();
    await snapshotter.captureBeforeState(dir, { runId: 'r1' });
    forge(dir, 'a.txt', 'two\n');
    const snap = await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
    expect(snap.files.map((f) => f.path)).toEqual(['a.txt']);
    expect(blobAt(dir, `${snap.afterSha}:a.txt`)).toBe('two');
    const state = await readIndexState(await openRepo(dir));
    expect(state.digest).toMatch(/^[0-9a-f]{64}$/);
    expect((await snapshotter.store.loadRun('r1'))?.indexSeal).toEqual(sealOf(state, snap.afterSha));
    expect(git(dir, ['status', '--porcelain'])).toBe('');
  });

  it('does not hide an edit made between an after and the next before', async () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n' });
    const snapshotter = newSnapshotter();
    await snapshotter.captureBeforeState(dir, { runId: 'r1' });
    writeFileSync(join(dir, 'n.txt'), 'n\n');
    await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
    forge(dir, 'a.txt', 'two\n');
    const before = await snapshotter.captureBeforeState(dir, { runId: 'r1' });
    expect(before.isDirty).toBe(true);
    expect(blobAt(dir, `${before.wipSha}:a.txt`)).toBe('two');
  });

  it('makes a workspace gate refuse, before the check and when the check forges it', async () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n' });
    const snapshotter = newSnapshotter();
    await snapshotter.captureBeforeState(dir, { runId: 'r1' });
    writeFileSync(join(dir, 'n.txt'), 'n\n');
    await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
    const gates = new Gates(snapshotter);
    const gate = (name: string, command: string[]) => ({ runId: 'r1', name, command, echo: quiet() });
    expect((await gates.run(dir, gate('first', ['true']))).verdict).toBe('pass');
    forge(dir, 'a.txt', 'two\n');
    await expectCode(gates.run(dir, gate('check', ['true'])), 'GATE_TREE_MISMATCH');
    git(dir, ['checkout', 'HEAD', '--', 'a.txt']);
    git(dir, ['reset', '-q']);
    expect((await gates.run(dir, gate('check', ['true']))).verdict).toBe('pass');
    // The check itself edits a file and forges the index behind it.
    const script = forgeScript('a.txt', 'three\n');
    const result = await gates.run(dir, gate('third', [process.execPath, script]));
    expect(result.verdict).toBe('error');
    expect(result.workspaceChanged).toBe(true);
  });

  it('does not hide an edit from iterate when the agent forges the index', async () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n' });
    const script = forgeScript('a.txt', 'two\n');
    const snap = okIn<{ afterSha: string; files: Array<{ path: string }> }>(dir, tempDir('agentgate-home-'), [
      'iterate',
      '--run',
      'r1',
      '--iteration',
      '1',
      '--',
      process.execPath,
      script,
    ]);
    expect(snap.files.map((f) => f.path)).toEqual(['a.txt']);
    expect(blobAt(dir, `${snap.afterSha}:a.txt`)).toBe('two');
  });

  it('drops the stat data of the entries changed since the seal or not as its commit has them, and no others', async () => {
    const dir = repoWithCommit({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
    const repo = await openRepo(dir);
    const sealed = sealOf(await readIndexState(repo), git(dir, ['rev-parse', 'HEAD']).trim());
    expect(await trustIndex(repo, sealed)).toEqual(await readIndexState(repo));
    // Stat data is kept in whole seconds: what changes from here on is newer than the seal.
    const later = sealed.writtenAt + 1;
    // File times come from the kernel's coarse clock, which may lag Date.now() by a tick.
    while (Date.now() < later * 1000 + 50) await new Promise((resolve) => setTimeout(resolve, 50));
    // b refreshed with new stat data (same content); c's entry names another blob, its stat data kept.
    writeFileSync(join(dir, 'b.txt'), 'b\n');
    git(dir, ['update-index', '--refresh']);
    const other = git(dir, ['hash-object', '-w', '--stdin'], { input: 'other\n' }).trim();
    const index = readFileSync(join(dir, '.git', 'index'));
    Buffer.from(other, 'hex').copy(
      index,
      index.indexOf(Buffer.from(git(dir, ['rev-parse', ':c.txt']).trim(), 'hex')),
    );
    writeFileSync(join(dir, '.git', 'index'), index);
    const forgotten = async () =>
      git(dir, ['ls-files', '--debug', '-z'])
        .split('\0')
        .slice(1)
        .map((block) => /ctime: (\d+):/.exec(block)?.[1] === '0');
    expect(await forgotten()).toEqual([false, false, false]);
    await trustIndex(repo, { ...sealed, writtenAt: later });
    expect(await forgotten()).toEqual([false, true, true]);
    // Nothing sealed: every entry.
    await trustIndex(repo, undefined);
    expect(await forgotten()).toEqual([true, true, true]);
    // c is hashed again: its file is not the blob its entry names.
    expect(git(dir, ['status', '--porcelain'])).toBe('MM c.txt');
  });

  it.each([
    ['out of order', (entries: Buffer[]) => [entries[1], entries[0], ...entries.slice(2)]],
    ['with an entry twice', (entries: Buffer[]) => [entries[0], ...entries]],
    // Marked assume-unchanged, so that add keeps them as they are.
    ['with an entry .git/x', (entries: Buffer[]) => [renamed(entries[0], '.git/x'), ...entries]],
    ['with an entry ../x', (entries: Buffer[]) => [renamed(entries[0], '../x'), ...entries]],
    ['with an entry d//x', (entries: Buffer[]) => [...entries, renamed(entries[0], 'd//x')]],
  ] as const)(
    'refuses an index %s, which git would write as a broken tree: UNSAFE_WORKSPACE, nothing committed',
    async (_, rewrite) => {
      const dir = repoWithCommit({ 'a.txt': 'a\n', 'b.txt': 'b\n', 'c.txt': 'c\n' });
      const snapshotter = newSnapshotter();
      await snapshotter.captureBeforeState(dir, { runId: 'r1' });
      writeFileSync(join(dir, 'b.txt'), 'b2\n');
      rewriteEntries(dir, rewrite);
      const head = git(dir, ['rev-parse', 'HEAD']);
      await expectCode(
        snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 }),
        'UNSAFE_WORKSPACE',
      );
      expect(git(dir, ['rev-parse', 'HEAD'])).toBe(head);
    },
  );

  it('leaves no untracked cache or split index behind for git to trust later', async () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n', 'sub/b.txt': 'b\n' });
    git(dir, ['config', 'core.untrackedCache', 'true']);
    git(dir, ['config', 'core.splitIndex', 'true']);
    git(dir, ['status', '--porcelain']);
    git(dir, ['update-index', '--split-index']);
    const hasExtension = (name: string) =>
      readFileSync(join(dir, '.git', 'index')).includes(Buffer.from(name));
    expect(hasExtension('UNTR') && hasExtension('link')).toBe(true);
    const snapshotter = newSnapshotter();
    await snapshotter.captureBeforeState(dir, { runId: 'r1' });
    writeFileSync(join(dir, 'sub', 'c.txt'), 'c\n');
    await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
    expect([hasExtension('UNTR'), hasExtension('link')]).toEqual([false, false]);
  });
});

/** A script (its path) that forges `path` as forge() says, for a child process: the agent, a gate's check. */
function forgeScript(path: string, content: string): string {
  const script = join(tempDir(), 'forge.mjs');
  writeFileSync(
    script,
    `import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, utimesSync, writeFileSync } from 'node:fs';
const path = ${JSON.stringify(path)};
const git = (...args) => execFileSync('git', args, { encoding: 'utf8' }).trim();
const old = git('rev-parse', ':' + path);
writeFileSync(path, ${JSON.stringify(content)});
const past = new Date(Date.now() - 60000);
utimesSync(path, past, past);
git('add', '--', path);
const index = readFileSync('.git/index');
Buffer.from(old, 'hex').copy(index, index.indexOf(Buffer.from(git('rev-parse', ':' + path), 'hex')));
writeFileSync('.git/index', index);
`,
  );
  return script;
}

/** A copy of a version 2 entry of 72 bytes named `name` (up to 9 bytes), marked assume-unchanged. */
function renamed(entry: Buffer | undefined, name: string): Buffer {
  const copy = Buffer.alloc(72);
  (entry as Buffer).copy(copy, 0, 0, 62);
  copy.writeUInt16BE(0x8000 | name.length, 60);
  copy.write(name, 62, 'latin1');
  return copy;
}

/** Rewrites a version 2 index of short names (one 8-byte block of name each) with its entries as `rewrite` lists them. */
function rewriteEntries(dir: string, rewrite: (entries: Buffer[]) => readonly (Buffer | undefined)[]): void {
  const file = join(dir, '.git', 'index');
  git(dir, ['update-index', '--index-version', '2']);
  const index = readFileSync(file);
  const count = index.readUInt32BE(8);
  const entries = Array.from({ length: count }, (_, i) => index.subarray(12 + i * 72, 12 + (i + 1) * 72));
  const listed = rewrite(entries) as Buffer[];
  const header = Buffer.from(index.subarray(0, 12));
  header.writeUInt32BE(listed.length, 8);
  const body = Buffer.concat([header, ...listed]);
  writeFileSync(file, Buffer.concat([body, createHash('sha1').update(body).digest()]));
}
