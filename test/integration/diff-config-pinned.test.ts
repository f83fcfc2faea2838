/**
 * Repository config that an agent can write during its turn must not change what a diff counts as
 * binary: core.bigFileThreshold and a diff driver's `binary` are pinned on every diff (after's
 * stats and patch, verify's recomputation, stats, patch), so the snapshot's stats agree with its
 * own patch, and `verify` still passes once the setting is gone.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { neutraliseDrivers } from '../../src/git/hardening.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyReport } from '../../types/verify.js';
import { cliIn, iterateShell, okIn } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir } from '../helpers/repo.js';

function gitAtLeast(major: number, minor: number): boolean {
  const [, a, b] = /(\d+)\.(\d+)/.exec(git(tempDir(), ['--version'])) ?? [];
  return Number(a) > major || (Number(a) === major && Number(b) >= minor);
}

const numbers = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => `${from + i}\n`).join('');

/** iterate whose agent appends 30 lines to `a` and then runs `git config <config>`. */
function iterateSetting(files: Record<string, string>, config: string[]) {
  const ws = repoWithCommit({ a: numbers(1, 50), ...files });
  const home = tempDir('agentgate-home-');
  const script = `seq 1 80 > a; git config ${config.map((c) => `'${c}'`).join(' ')}`;
  const snap = iterateShell<Snapshot>(ws, home, script);
  return { ws, home, snap };
}

function expectText(snap: Snapshot): void {
  expect(snap.files).toEqual([
    expect.objectContaining({ path: 'a', status: 'modified', insertions: 30, deletions: 0, binary: false }),
  ]);
  expect([snap.insertions, snap.deletions]).toEqual([30, 0]);
  const patch = readFileSync(snap.patchPath as string, 'utf8');
  expect(patch).toContain('@@ -48,3 +48,33 @@');
  expect(patch).not.toContain('GIT binary patch');
}

/** verify of the run: exit 0 and every check passed. */
function expectVerified(ws: string, home: string): void {
  const res = cliIn(ws, home, ['verify', '--run', 'r']);
  expect(res.status, res.stdout).toBe(0);
  expect((res.json() as VerifyReport).ok).toBe(true);
}

describe('diff config an agent writes', () => {
  it('core.bigFileThreshold: a text file stays text in the stats, which match the patch, before and after the setting goes', () => {
    const { ws, home, snap } = iterateSetting({}, ['core.bigFileThreshold', '1']);
    expectText(snap);
    // While the setting is there, every later diff counts the same.
    expectVerified(ws, home);
    const stats = okIn<Snapshot>(ws, home, ['stats', snap.beforeSha, snap.afterSha]);
    expect(stats.files).toEqual(snap.files);
    git(ws, ['config', '--unset', 'core.bigFileThreshold']);
    expectVerified(ws, home);
  });

  it("a diff driver's binary=true neither makes a text file binary nor hides a binary file's NUL bytes", () => {
    const { ws, home, snap } = iterateSetting({ '.gitattributes': 'a diff=x\n' }, ['diff.x.binary', 'true']);
    expectText(snap);
    expectVerified(ws, home);
    // `auto`, not `false`: content with NUL bytes is still binary under the driver.
    const agent = `const fs = require('fs'); fs.writeFileSync('b', 'a\\0b\\n'); fs.appendFileSync('.gitattributes', 'b diff=x\\n')`;
    const second = okIn<Snapshot>(ws, home, [
      'iterate',
      '--run',
      'r',
      '--iteration',
      '2',
      '--',
      process.execPath,
      '-e',
      agent,
    ]);
    expect(second.files.find((f) => f.path === 'b')).toMatchObject({ binary: true, insertions: 0 });
    git(ws, ['config', '--unset', 'diff.x.binary']);
    expectVerified(ws, home);
  });

  // git 2.42 reads a diff driver's algorithm; on this pair myers counts +5 -5, patience +8 -8.
  it.skipIf(!gitAtLeast(2, 42))("a diff driver's algorithm does not change the line counts", () => {
    const before = '{\n}\n}\nb\na\nc\n{\nc\nc\n}\nc\n{\n';
    const after = 'a\n}\na\na\nc\nc\n{\nc\n}\n}\nc\nb\n';
    const ws = repoWithCommit({ a: before, '.gitattributes': 'a diff=x\n' });
    const home = tempDir('agentgate-home-');
    const agent = `require('fs').writeFileSync('a', ${JSON.stringify(after)})`;
    git(ws, ['config', 'diff.x.algorithm', 'patience']);
    const snap = okIn<Snapshot>(ws, home, [
      'iterate',
      '--run',
      'r',
      '--iteration',
      '1',
      '--',
      process.execPath,
      '-e',
      agent,
    ]);
    expect([snap.insertions, snap.deletions]).toEqual([5, 5]);
    git(ws, ['config', '--unset', 'diff.x.algorithm']);
    expectVerified(ws, home);
  });

  it('a .gitattributes that a later iteration commits (or leaves untracked) changes no earlier snapshot', () => {
    const ws = repoWithCommit({ 'package-lock.json': '{"v":1}\n' });
    const home = tempDir('agentgate-home-');
    const iterate = (n: number, script: string) => iterateShell<Snapshot>(ws, home, script, { iteration: n });
    const first = iterate(1, `printf '{"v":2}\\n' > package-lock.json`);
    expect(first.files).toEqual([expect.objectContaining({ insertions: 1, deletions: 1, binary: false })]);
    const artifact = readFileSync(first.patchPath as string);
    // A common line: lock files hidden from diffs.
    iterate(2, `echo 'package-lock.json -diff' > .gitattributes`);
    expectVerified(ws, home);
    rmSync(first.patchPath as string);
    const regenerated = cliIn(ws, home, ['patch', first.id, '-o', join(home, 'again.diff')]);
    expect(regenerated.status, regenerated.stdout).toBe(0);
    expect(readFileSync(join(home, 'again.diff'))).toEqual(artifact);
    // Nor one that is not committed, nor the one the index holds.
    git(ws, ['rm', '-q', '--cached', '.gitattributes']);
    writeFileSync(join(ws, '.gitattributes'), '* binary\n');
    const stats = okIn<Snapshot>(ws, home, ['stats', first.id]);
    expect(stats.files).toEqual(first.files);
    // Nor the repository's own info/attributes, in a linked worktree too.
    writeFileSync(join(ws, '.git', 'info', 'attributes'), '* binary\n');
    expect(okIn<Snapshot>(ws, home, ['stats', first.id]).files).toEqual(first.files);
    expect(cliIn(ws, home, ['patch', first.id, '-o', join(home, 'third.diff')]).status).toBe(0);
    expect(readFileSync(join(home, 'third.diff'))).toEqual(artifact);
    const linked = join(tempDir(), 'linked');
    git(ws, ['worktree', 'add', '-q', '--detach', linked]);
    expect(okIn<Snapshot>(linked, home, ['stats', first.id]).files).toEqual(first.files);
  });

  it("switches off a diff driver's binary and algorithm (git 2.42+) settings alongside its programs", () => {
    expect(neutraliseDrivers(['diff.x.binary', 'diff.x=y.algorithm'])).toEqual([
      ['diff.x.command', ''],
      ['diff.x.textconv', ''],
      ['diff.x.binary', 'auto'],
      ['diff.x.algorithm', 'myers'],
      ['diff.x=y.command', ''],
      ['diff.x=y.textconv', ''],
      ['diff.x=y.binary', 'auto'],
      ['diff.x=y.algorithm', 'myers'],
    ]);
  });
});

describe('commit config an agent writes', () => {
  it('i18n.commitEncoding: our commits still say UTF-8, and verify reads back the message and task it recorded', () => {
    const ws = repoWithCommit({ a: 'one\n' });
    const home = tempDir('agentgate-home-');
    const agent = 'echo two > a; git config i18n.commitEncoding ISO-8859-1';
    const snap = iterateShell<Snapshot>(ws, home, agent, { options: ['--task', 'tâche ünïcode'] });
    expect(git(ws, ['cat-file', 'commit', snap.afterSha])).not.toMatch(/^encoding /m);
    expectVerified(ws, home);
  });

  it('core.safecrlf=true set by the agent does not make the capture fail: the file is recorded as git converts it', () => {
    const ws = repoWithCommit({ a: 'one\n' });
    const home = tempDir('agentgate-home-');
    const agent = "git config core.autocrlf true; git config core.safecrlf true; printf 'two\\n' > b";
    const snap = iterateShell<Snapshot>(ws, home, agent);
    expect(snap.files.map((f) => f.path)).toEqual(['b']);
    expect(git(ws, ['cat-file', 'blob', `${snap.afterSha}:b`])).toBe('two');
    expectVerified(ws, home);
  });
});
