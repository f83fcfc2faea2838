// Round trip on real repositories: for a before and an after commit that differ by one kind of
// change, our patch applied to the before commit (`git apply --index`, separate worktree) must give
// exactly the after commit's tree, and our stats must match git's own --name-status/--numstat.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getDiffStats } from '../../src/git/diff-stats.js';
import { openRepo } from '../../src/git/repo.js';
import { unifiedDiff, writeUnifiedDiffToFile } from '../../src/git/unified-diff.js';
import { commitAll, initRepo, tempDir } from '../helpers/repo.js';
import { fsx, lines, oracleChanges, treeAfterApply, treeOf } from '../helpers/diff-oracle.js';

type Build = (dir: string) => void;
interface Case {
  name: string;
  before: Build;
  after: Build;
  /** [path, status, oldPath] of every file we expect to be reported, in git's order. */
  expect: [string, string, string?][];
}

const bin = (...bytes: number[]): Buffer => Buffer.from([0, ...bytes, 0, 255, 254]);
const noop: Build = () => undefined;

const CASES: Case[] = [
  {
    name: 'text edit',
    before: (d) => fsx.write(d, 'a.txt', lines('a', 5)),
    after: (d) => fsx.write(d, 'a.txt', lines('a', 5).replace('a line 3', 'A LINE 3')),
    expect: [['a.txt', 'modified']],
  },
  {
    name: 'add',
    before: noop,
    after: (d) => fsx.write(d, 'dir/new.txt', lines('new', 3)),
    expect: [['dir/new.txt', 'added']],
  },
  {
    name: 'delete',
    before: (d) => fsx.write(d, 'gone.txt', lines('gone', 3)),
    after: (d) => fsx.rm(d, 'gone.txt'),
    expect: [['gone.txt', 'deleted']],
  },
  {
    name: 'rename',
    before: (d) => fsx.write(d, 'old.txt', lines('mv', 10)),
    after: (d) => fsx.mv(d, 'old.txt', 'sub/new.txt'),
    expect: [['sub/new.txt', 'renamed', 'old.txt']],
  },
  {
    name: 'rename with edit',
    before: (d) => fsx.write(d, 'old.txt', lines('mv', 20)),
    after: (d) => (
      fsx.mv(d, 'old.txt', 'new.txt'),
      fsx.write(d, 'new.txt', lines('mv', 20).replace('mv line 7', 'moved 7') + 'extra\n')
    ),
    expect: [['new.txt', 'renamed', 'old.txt']],
  },
  {
    name: 'copy',
    before: (d) => fsx.write(d, 'src.txt', lines('src', 20)),
    after: (d) => (
      fsx.write(d, 'copy.txt', lines('src', 20)),
      fsx.write(d, 'src.txt', lines('src', 20) + 'more\n')
    ),
    expect: [
      ['copy.txt', 'copied', 'src.txt'],
      ['src.txt', 'modified'],
    ],
  },
  {
    name: 'binary add',
    before: noop,
    after: (d) => fsx.write(d, 'b.bin', bin(1, 2, 3)),
    expect: [['b.bin', 'added']],
  },
  {
    name: 'binary modify',
    before: (d) => fsx.write(d, 'b.bin', bin(1, 2, 3)),
    after: (d) => fsx.write(d, 'b.bin', bin(9, 8, 7, 6)),
    expect: [['b.bin', 'modified']],
  },
  {
    name: 'binary delete',
    before: (d) => fsx.write(d, 'b.bin', bin(1, 2, 3)),
    after: (d) => fsx.rm(d, 'b.bin'),
    expect: [['b.bin', 'deleted']],
  },
  {
    name: 'binary rename',
    before: (d) => fsx.write(d, 'b.bin', Buffer.concat([bin(1), Buffer.alloc(4000, 7)])),
    after: (d) => fsx.mv(d, 'b.bin', 'c.bin'),
    expect: [['c.bin', 'renamed', 'b.bin']],
  },
  {
    name: 'mode change',
    before: (d) => fsx.write(d, 'run.sh', '#!/bin/sh\necho hi\n'),
    after: (d) => fsx.chmod(d, 'run.sh', 0o755),
    expect: [['run.sh', 'modified']],
  },
  {
    name: 'mode change with edit',
    before: (d) => (fsx.write(d, 'run.sh', '#!/bin/sh\necho hi\n'), fsx.chmod(d, 'run.sh', 0o755)),
    after: (d) => (fsx.write(d, 'run.sh', '#!/bin/sh\necho bye\n'), fsx.chmod(d, 'run.sh', 0o644)),
    expect: [['run.sh', 'modified']],
  },
  {
    name: 'symlink add',
    before: (d) => fsx.write(d, 't.txt', 'x\n'),
    after: (d) => fsx.link(d, 'l', 't.txt'),
    expect: [['l', 'added']],
  },
  {
    name: 'symlink retarget',
    before: (d) => (fsx.write(d, 't.txt', 'x\n'), fsx.link(d, 'l', 't.txt')),
    after: (d) => (fsx.rm(d, 'l'), fsx.link(d, 'l', 'elsewhere/missing target')),
    expect: [['l', 'modified']],
  },
  {
    name: 'file to symlink',
    before: (d) => fsx.write(d, 'f', 'plain\n'),
    after: (d) => (fsx.rm(d, 'f'), fsx.link(d, 'f', 'plain')),
    expect: [['f', 'typechange']],
  },
  {
    name: 'symlink to file',
    before: (d) => fsx.link(d, 'f', 'target'),
    after: (d) => (fsx.rm(d, 'f'), fsx.write(d, 'f', 'target\n')),
    expect: [['f', 'typechange']],
  },
  {
    name: 'empty file add',
    before: noop,
    after: (d) => fsx.write(d, 'empty', ''),
    expect: [['empty', 'added']],
  },
  {
    name: 'empty file delete',
    before: (d) => fsx.write(d, 'empty', ''),
    after: (d) => fsx.rm(d, 'empty'),
    expect: [['empty', 'deleted']],
  },
  {
    name: 'file emptied',
    before: (d) => fsx.write(d, 'e.txt', lines('e', 3)),
    after: (d) => fsx.write(d, 'e.txt', ''),
    expect: [['e.txt', 'modified']],
  },
  {
    name: 'no trailing newline',
    before: (d) => fsx.write(d, 'n.txt', 'one\ntwo\n'),
    after: (d) => (fsx.write(d, 'n.txt', 'one\ntwo'), fsx.write(d, 'm.txt', 'no newline at all')),
    expect: [
      ['m.txt', 'added'],
      ['n.txt', 'modified'],
    ],
  },
  {
    name: 'CRLF content',
    before: (d) => fsx.write(d, 'w.txt', lines('w', 4, '\r\n')),
    after: (d) => (
      fsx.write(d, 'w.txt', lines('w', 4, '\r\n').replace('w line 2', 'W2')),
      fsx.write(d, 'mixed.txt', 'lf\ncrlf\r\nlone cr\rend')
    ),
    expect: [
      ['mixed.txt', 'added'],
      ['w.txt', 'modified'],
    ],
  },
  {
    name: 'names with spaces',
    before: (d) => fsx.write(d, 'my dir/old name.txt', lines('s', 10)),
    after: (d) => (
      fsx.mv(d, 'my dir/old name.txt', 'my dir/new name.txt'),
      fsx.write(d, ' leading and trailing ', 'x\n')
    ),
    expect: [
      [' leading and trailing ', 'added'],
      ['my dir/new name.txt', 'renamed', 'my dir/old name.txt'],
    ],
  },
  {
    name: 'names with quotes, backslashes, tabs and newlines',
    before: (d) => fsx.write(d, 'say "hi".txt', lines('q', 10)),
    after: (d) => (
      fsx.mv(d, 'say "hi".txt', 'it\'s "quoted"\\.txt'),
      fsx.write(d, 'tab\there\nnewline.txt', 'x\n')
    ),
    expect: [
      ['it\'s "quoted"\\.txt', 'renamed', 'say "hi".txt'],
      ['tab\there\nnewline.txt', 'added'],
    ],
  },
  {
    name: 'non-ASCII names',
    before: (d) => fsx.write(d, 'café/naïve.txt', lines('u', 10)),
    after: (d) => (
      fsx.mv(d, 'café/naïve.txt', '日本/データ.txt'),
      fsx.write(d, 'emoji 🎉.bin', bin(4)),
      fsx.write(d, 'café/ß.txt', 'x\n')
    ),
    expect: [
      ['café/ß.txt', 'added'],
      ['emoji 🎉.bin', 'added'],
      ['日本/データ.txt', 'renamed', 'café/naïve.txt'],
    ],
  },
  {
    name: 'directory replaced by a file',
    before: (d) => fsx.write(d, 'node/inner.txt', 'x\n'),
    after: (d) => (fsx.rm(d, 'node'), fsx.write(d, 'node', 'now a file\n')),
    expect: [
      ['node', 'added'],
      ['node/inner.txt', 'deleted'],
    ],
  },
];

/** Commits `before` then `after` states in a fresh repository; returns the directory and both SHAs. */
function commitPair(c: Pick<Case, 'before' | 'after'>): { dir: string; before: string; after: string } {
  const dir = initRepo();
  fsx.write(dir, 'base.txt', 'unchanged\n');
  c.before(dir);
  const before = commitAll(dir, 'before');
  c.after(dir);
  return { dir, before, after: commitAll(dir, 'after') };
}

describe('getDiffStats and the patch, one kind of change at a time', () => {
  it.each(CASES)('$name', async (c) => {
    const { dir, before, after } = commitPair(c);
    const repo = await openRepo(dir);

    const stats = await getDiffStats(repo, before, after);
    expect(stats.files.map((f) => [f.path, f.status, ...(f.oldPath === null ? [] : [f.oldPath])])).toEqual(
      c.expect,
    );
    expect(stats.files).toEqual(oracleChanges(dir, before, after));
    expect(stats.filesChanged).toBe(stats.files.length);
    expect(stats.insertions).toBe(stats.files.reduce((n, f) => n + f.insertions, 0));
    expect(stats.deletions).toBe(stats.files.reduce((n, f) => n + f.deletions, 0));

    const patch = await writeUnifiedDiffToFile(
      repo,
      before,
      after,
      join(tempDir('agentgate-patch-'), 'patch.diff'),
    );
    expect(treeAfterApply(dir, before, patch.path)).toBe(treeOf(dir, after));
    expect(await unifiedDiff(repo, before, after)).toBe(readFileSync(patch.path, 'utf8'));
  });
});

describe('every kind of change in one commit pair', () => {
  it('round-trips and agrees with git', async () => {
    const all: Case[] = CASES.filter((c) => c.name !== 'directory replaced by a file');
    // Each case in its own directory so that their paths cannot collide.
    const scoped =
      (build: Build, i: number): Build =>
      (d) =>
        build(join(d, `case-${i}`));
    const { dir, before, after } = commitPair({
      before: (d) => all.forEach((c, i) => (fsx.write(d, `case-${i}/.keep`, ''), scoped(c.before, i)(d))),
      after: (d) => all.forEach((c, i) => scoped(c.after, i)(d)),
    });
    const repo = await openRepo(dir);
    const stats = await getDiffStats(repo, before, after);
    expect(stats.files).toEqual(oracleChanges(dir, before, after));
    expect(new Set(stats.files.map((f) => f.status))).toEqual(
      new Set(['added', 'modified', 'deleted', 'renamed', 'copied', 'typechange']),
    );
    const patch = await writeUnifiedDiffToFile(
      repo,
      before,
      after,
      join(tempDir('agentgate-patch-'), 'all.diff'),
    );
    expect(treeAfterApply(dir, before, patch.path)).toBe(treeOf(dir, after));
  });
});
