// The diff parsers over real git output kept in fixtures/git-output/ (fixtures/make-git-output.sh).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileChange } from '../../types/snapshot.js';
import { parseBatchCheck } from '../../src/git/parsers/batch-check.js';
import { parseDiffChanges } from '../../src/git/parsers/diff-changes.js';
import { parseDiffNumstat } from '../../src/git/parsers/diff-numstat.js';
import { parseDiffRaw } from '../../src/git/parsers/diff-raw.js';

const fixture = (name: string): string =>
  readFileSync(join(import.meta.dirname, '../../fixtures/git-output', name), 'utf8');

const change = (
  path: string,
  status: FileChange['status'],
  insertions: number,
  deletions: number,
  extra: Partial<FileChange> = {},
): FileChange => ({
  path,
  oldPath: null,
  status,
  insertions,
  deletions,
  binary: false,
  ...extra,
});

/** Every kind of change between the two commits that make-git-output.sh builds in its "kinds" repository. */
const KINDS: FileChange[] = [
  change('added.bin', 'added', 0, 0, { binary: true }),
  change('copied.txt', 'copied', 0, 0, { oldPath: 'source.txt' }),
  change('crlf.txt', 'added', 2, 0),
  change('data.bin', 'modified', 0, 0, { binary: true }),
  change('dropped.bin', 'deleted', 0, 0, { binary: true }),
  change('edit.txt', 'modified', 2, 1),
  change('empty.txt', 'added', 0, 0),
  change('flip', 'typechange', 1, 1),
  change('gone.txt', 'deleted', 0, 3),
  change('link', 'typechange', 1, 1),
  change('moved.txt', 'renamed', 0, 0, { oldPath: 'move.txt' }),
  change('moveedit2.txt', 'renamed', 1, 0, { oldPath: 'moveedit.txt' }),
  change('nonl.txt', 'added', 1, 0),
  change('source.txt', 'modified', 1, 0),
  change('tool.sh', 'modified', 0, 0),
];

describe('parseDiffChanges (raw + numstat from one diff-tree process)', () => {
  it('maps every kind of change to a FileChange', () => {
    const changes = parseDiffChanges(fixture('diff-kinds.raw-numstat.z'));
    expect(changes).toEqual(KINDS);
    for (const c of changes) FileChange.parse(c);
  });

  it('keeps hostile names byte for byte: spaces, tabs, newlines, quotes, backslashes, non-ASCII, look-alike records', () => {
    const changes = parseDiffChanges(fixture('diff-names.raw-numstat.z'));
    expect(changes.map((c) => [c.path, c.oldPath, c.status])).toEqual([
      ['1\t2\tlooks numstat', null, 'added'],
      [':100644 looks raw', null, 'added'],
      ['a\tb.txt', null, 'added'],
      ['back\\slash.txt', null, 'added'],
      ['line\nbreak.txt', null, 'added'],
      ['say "hi".txt', null, 'added'],
      ['tab\there "quoted" \n newline é.txt', 'rename me.txt', 'renamed'],
      ['with space.txt', null, 'added'],
      ['ünïcödé/日本語.txt', null, 'added'],
    ]);
    expect(changes.every((c) => c.insertions === (c.status === 'renamed' ? 0 : 1) && c.deletions === 0)).toBe(
      true,
    );
  });

  it('reads a diff against the empty tree as all additions, symlinks and binaries included', () => {
    const changes = parseDiffChanges(fixture('diff-root.raw-numstat.z'));
    expect(changes).toHaveLength(10);
    expect(changes.every((c) => c.status === 'added' && c.oldPath === null && c.deletions === 0)).toBe(true);
    expect(changes.filter((c) => c.binary).map((c) => c.path)).toEqual(['data.bin', 'dropped.bin']);
  });

  it('reads an empty diff as no changes', () => {
    expect(fixture('diff-same.raw-numstat.z')).toBe('');
    expect(parseDiffChanges('')).toEqual([]);
  });

  it.each([
    ['a record cut short', ':100644 100644 aaaa bbbb R100\0old\0'],
    ['no final NUL', ':100644 100644 aaaa bbbb M\0x'],
    ['an unknown status letter', ':100644 100644 aaaa bbbb X\0x\0' + '1\t1\tx\0'],
    ['a raw record without numstat', ':100644 100644 aaaa bbbb M\0x\0'],
    ['a numstat record without raw', ':100644 100644 aaaa bbbb M\0x\0' + '1\t1\tx\0' + '1\t1\ty\0'],
    ['halves that name different paths', ':100644 100644 aaaa bbbb M\0x\0' + '1\t1\ty\0'],
    ['rename sources that differ', ':100644 100644 aaaa bbbb R090\0a\0b\0' + '1\t1\t\0c\0b\0'],
    ['counts that are not numbers', ':100644 100644 aaaa bbbb M\0x\0' + 'one\t1\tx\0'],
  ])('refuses %s with GIT_OUTPUT_UNPARSEABLE', (_what, output) => {
    expect(() => parseDiffChanges(output)).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
  });
});

describe('parseDiffRaw', () => {
  it('reads modes, ids, status letters, scores and both paths of renames and copies', () => {
    const raw = parseDiffRaw(fixture('diff-kinds.raw.z'));
    expect(raw.map((e) => e.path)).toEqual(KINDS.map((c) => c.path));
    const by = (path: string) => raw.find((e) => e.path === path);
    expect(by('copied.txt')).toMatchObject({ status: 'C', score: 100, oldPath: 'source.txt' });
    expect(by('moveedit2.txt')).toMatchObject({ status: 'R', score: 95, oldPath: 'moveedit.txt' });
    expect(by('tool.sh')).toMatchObject({ status: 'M', srcMode: '100644', dstMode: '100755', score: null });
    expect(by('flip')).toMatchObject({ status: 'T', srcMode: '100644', dstMode: '120000' });
    expect(by('link')).toMatchObject({ status: 'T', srcMode: '120000', dstMode: '100644' });
    expect(by('added.bin')).toMatchObject({ status: 'A', srcMode: '000000', srcId: '0'.repeat(40) });
    expect(by('empty.txt')?.dstId).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(by('gone.txt')).toMatchObject({ status: 'D', dstMode: '000000' });
  });
});

describe('parseDiffNumstat', () => {
  it('reads counts, binary markers and rename pairs', () => {
    const num = parseDiffNumstat(fixture('diff-kinds.numstat.z'));
    expect(
      num.map(({ path, oldPath, insertions, deletions, binary }) => ({
        path,
        oldPath,
        insertions,
        deletions,
        binary,
      })),
    ).toEqual(
      KINDS.map(({ path, oldPath, insertions, deletions, binary }) => ({
        path,
        oldPath,
        insertions,
        deletions,
        binary,
      })),
    );
  });
});

describe('parseBatchCheck', () => {
  it('pairs each name with found, missing or ambiguous', () => {
    const names = fixture('batch-check.in.txt').split('\n').slice(0, -1);
    const answers = parseBatchCheck(names, fixture('batch-check.out.txt'));
    expect(answers.map((a) => (a.found ? a.type : a.reason))).toEqual([
      'tree',
      'missing',
      'ambiguous',
      'missing',
      'tree',
    ]);
    expect(answers[4]).toMatchObject({ id: '4b825dc642cb6eb9a060e54bf8d69288fbee4904', size: 0 });
  });

  it('refuses an answer count that does not match with GIT_OUTPUT_UNPARSEABLE', () => {
    expect(() => parseBatchCheck(['a', 'b'], 'a missing\n')).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
    expect(() => parseBatchCheck(['a'], 'garbage\n')).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
  });
});
