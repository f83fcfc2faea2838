import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  BlamePorcelainParser,
  parseBlamePorcelain,
  unquotePath,
} from '../../src/git/parsers/blame-porcelain.js';
import { parseDiffStdin, parseHunks, withoutBinaryHunks } from '../../src/git/parsers/diff-stdin.js';
import { CatFileScanner, FIRST_FEW_BYTES } from '../../src/git/parsers/cat-file-scan.js';
import { addedLines, applyHunks } from '../../src/provenance/lines.js';

const fixture = (name: string): Buffer =>
  readFileSync(new URL(`../../fixtures/git-output/${name}`, import.meta.url));
const pairs = fixture('diff-stdin.pairs.txt')
  .toString('utf8')
  .trim()
  .split('\n')
  .map((l) => {
    const [from, to] = l.split(' ') as [string, string];
    return { from, to };
  });

describe('parseDiffStdin (diff-tree --stdin -z --raw -p -U0)', () => {
  const parsed = parseDiffStdin(fixture('diff-stdin.bin'), pairs);

  it('gives every pair its files, an identical pair none', () => {
    expect(parsed.map((p) => p.files.length)).toEqual([8, 0, 8]);
  });

  it('keeps odd names whole and pairs each raw record with its patch (a typechange has two)', () => {
    const files = parsed[0]?.files ?? [];
    const byPath = new Map(files.map((f) => [f.entry.path, f]));
    expect([...byPath.keys()].sort()).toEqual(
      [
        'data.bin',
        'edit.txt',
        'flip',
        'moved.txt',
        'new\nline.txt',
        'sp ace.txt',
        'tail.txt',
        'ünï.txt',
      ].sort(),
    );
    expect(byPath.get('moved.txt')?.entry).toMatchObject({ status: 'R', oldPath: 'move.txt' });
    expect(byPath.get('moved.txt')?.hunks.map((h) => h.added)).toEqual([['31']]);
    expect(byPath.get('flip')?.entry.status).toBe('T');
    expect(byPath.get('flip')?.patch.match(/^diff --git /gm)).toHaveLength(2);
    expect(byPath.get('data.bin')?.hunks).toEqual([]);
    expect(byPath.get('new\nline.txt')?.hunks.map((h) => h.added)).toEqual([['r']]);
    expect(byPath.get('tail.txt')?.hunks.map((h) => h.added)).toEqual([['no newline, changed']]);
    const edit = byPath.get('edit.txt')?.hunks ?? [];
    expect(edit.map((h) => [h.oldStart, h.oldCount, h.newStart, h.newCount])).toEqual([
      [1, 1, 0, 0],
      [5, 1, 4, 1],
      [10, 0, 10, 2],
    ]);
    expect(addedLines(edit)).toEqual([4, 10, 11]);
  });

  it('gives a patch with context the hunks of the same patch without (-U3 as -U0)', () => {
    const u0 = '@@ -5 +5 @@\n-l5\n+X\n@@ -6,0 +7 @@\n+Y\n@@ -9 +9,0 @@\n-l9\n';
    const u3 =
      '@@ -2,9 +2,9 @@ f()\n l2\n l3\n l4\n-l5\n+X\n l6\n+Y\n l7\n l8\n-l9\n l10\n\\ No newline at end of file\n';
    expect(parseHunks(u3)).toEqual(parseHunks(u0));
    expect(parseHunks(u0).map((h) => [h.oldStart, h.oldCount, h.newStart, h.newCount])).toEqual([
      [5, 1, 5, 1],
      [6, 0, 7, 1],
      [9, 1, 9, 0],
    ]);
    // A new file and a deleted one, with context asked for: nothing around them.
    expect(parseHunks('@@ -0,0 +1,2 @@\n+a\n+b\n')).toEqual([
      { oldStart: 0, oldCount: 0, newStart: 1, newCount: 2, added: ['a', 'b'] },
    ]);
    expect(parseHunks('@@ -1,2 +0,0 @@\n-a\n-b\n')).toEqual([
      { oldStart: 1, oldCount: 2, newStart: 0, newCount: 0, added: [] },
    ]);
    expect(() => parseHunks('@@ -1,3 +1,3 @@\n a\n-b\n+c\n')).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
  });

  it('refuses output that does not have the shape', () => {
    expect(() => parseDiffStdin(Buffer.from('nonsense\n'), pairs)).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
    expect(() => parseHunks('@@ -1,0 +1,2 @@\n+only one\n')).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
  });
});

describe('parseBlamePorcelain', () => {
  it('gives each line its commit, numbers and path there (renames followed, quoted names)', () => {
    const lines = parseBlamePorcelain(fixture('blame-porcelain.bin'));
    expect(lines.map((l) => l.finalLine)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(lines.map((l) => l.filename)).toEqual([
      'b.txt',
      'b.txt',
      'b.txt',
      'b.txt',
      'b.txt',
      'b.txt',
      'sp ace b.txt',
    ]);
    expect(new Set(lines.map((l) => l.commit)).size).toBe(3);
    expect(lines[2]?.origLine).toBe(3);
  });

  it('reads a -L range', () => {
    expect(parseBlamePorcelain(fixture('blame-porcelain-range.bin')).map((l) => l.finalLine)).toEqual([
      2, 3, 4,
    ]);
  });

  it("keeps the path a blamed commit renamed the file from (its 'previous' header), none for the others", () => {
    const [a, b, p] = ['a'.repeat(40), 'b'.repeat(40), 'c'.repeat(40)];
    const out = `${a} 3 1 1\nprevious ${p} "old name\\tx.txt"\nfilename new.txt\n\tone\n${b} 2 2 1\nprevious ${p} new.txt\nfilename new.txt\n\ttwo\n`;
    const parser = new BlamePorcelainParser();
    parser.push(Buffer.from(out));
    expect(parser.end().map((l) => l.filename)).toEqual(['new.txt', 'new.txt']);
    expect([...parser.renames()]).toEqual([[a, 'old name\tx.txt']]);
  });

  it('reads line headers of three and four numbers and 40- or 64-digit ids; refuses any other', () => {
    const a = 'a'.repeat(40);
    const b = 'b'.repeat(64);
    const ok = `${a} 3 1 2\nfilename x.txt\n\tone\n${a} 4 2\n\ttwo\n${b} 7 3 1\nfilename y\n\t\n`;
    expect(parseBlamePorcelain(Buffer.from(ok))).toEqual([
      { commit: a, origLine: 3, finalLine: 1, filename: 'x.txt' },
      { commit: a, origLine: 4, finalLine: 2, filename: 'x.txt' },
      { commit: b, origLine: 7, finalLine: 3, filename: 'y' },
    ]);
    for (const header of [
      `${a} 1`,
      `${a} 1 2 3 4`,
      `${a}  1 2`,
      `${a} 1 2 `,
      `${a} x 2`,
      `${'a'.repeat(50)} 1 2`,
      `${'A'.repeat(40)} 1 2`,
    ])
      expect(() => parseBlamePorcelain(Buffer.from(`${header}\nfilename f\n\tx\n`))).toThrow(
        expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
      );
  });

  it('reads the same lines chunk by chunk, however git splits its output, and names each commit once', () => {
    const whole = fixture('blame-porcelain.bin');
    const expected = parseBlamePorcelain(whole);
    for (const size of [1, 2, 3, 7, 41, 64, 1000]) {
      const heard: string[] = [];
      const parser = new BlamePorcelainParser((c) => heard.push(c));
      for (let i = 0; i < whole.length; i += size) parser.push(whole.subarray(i, i + size));
      expect(parser.end()).toEqual(expected);
      expect(heard).toEqual([...new Set(expected.map((l) => l.commit))]);
    }
    // A long content line split across chunks, and a last line without its newline.
    const a = 'a'.repeat(40);
    const parser = new BlamePorcelainParser();
    for (const part of [`${a} 1 1 2\nfilename f\n\t`, 'x'.repeat(100), 'y\n', `${a} 2 2\n\tlast`])
      parser.push(Buffer.from(part));
    expect(parser.end().map((l) => l.finalLine)).toEqual([1, 2]);
  });

  it('reads cat-file --batch -z chunk by chunk: a NUL in the first 8000 bytes is binary, names with newlines answer missing', () => {
    const id = (c: string) => c.repeat(40);
    const names = [id('a'), 'HEAD:new\nline missing', id('b'), id('c'), id('d')];
    const late = Buffer.concat([Buffer.alloc(FIRST_FEW_BYTES, 'x'), Buffer.from([0])]);
    const out = Buffer.concat([
      Buffer.from(`${id('a')} blob 3\na\0b\n`, 'latin1'),
      Buffer.from('HEAD:new\nline missing missing\n', 'latin1'),
      Buffer.from(`${id('b')} blob ${late.length}\n`, 'latin1'),
      late,
      Buffer.from(`\n${id('c')} blob 0\n\n${id('d')} tree 4\nxxxx\n`, 'latin1'),
    ]);
    for (const size of [1, 7, 64, out.length]) {
      const scan = new CatFileScanner('scan', (i) =>
        names[i] === undefined ? undefined : Buffer.from(names[i]),
      );
      for (let at = 0; at < out.length; at += size) scan.push(out.subarray(at, at + size));
      expect(scan.end(names.length).map((o) => (o.found ? [o.type, o.binary] : null))).toEqual([
        ['blob', true],
        null,
        ['blob', false],
        ['blob', false],
        ['tree', false],
      ]);
    }
    // --batch kept whole, and --batch-check (no content).
    const keep = new CatFileScanner('keep', (i) =>
      names[i] === undefined ? undefined : Buffer.from(names[i]),
    );
    for (let at = 0; at < out.length; at += 5) keep.push(out.subarray(at, at + 5));
    expect(keep.end(names.length).map((o) => (o.found ? o.content?.length : null))).toEqual([
      3,
      null,
      late.length,
      0,
      4,
    ]);
    const check = new CatFileScanner('check', (i) => Buffer.from(names[i] ?? ''));
    check.push(Buffer.from(`${id('a')} blob 3\nHEAD:new\nline missing missing\n`, 'latin1'));
    expect(check.end(2).map((o) => (o.found ? [o.id, o.size] : null))).toEqual([[id('a'), 3], null]);
    const cut = new CatFileScanner('scan', () => Buffer.from(id('a')));
    cut.push(Buffer.from(`${id('a')} blob 3\nab`, 'latin1'));
    expect(() => cut.end(1)).toThrow(expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }));
  });

  it('drops the hunks of a side whose blob is binary, as git does without --text', () => {
    const entry = (status: 'M' | 'T') => ({
      srcMode: '100644',
      dstMode: status === 'T' ? '120000' : '100644',
      srcId: 'a'.repeat(40),
      dstId: 'b'.repeat(40),
      status,
      score: null,
      path: 'f',
      oldPath: null,
    });
    const modified = 'diff --git a/f b/f\nindex a..b 100644\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-x\0\n+y\n';
    const file = { entry: entry('M'), patch: modified, hunks: parseHunks(modified) };
    expect(withoutBinaryHunks(file, () => false)).toBe(file);
    const binary = withoutBinaryHunks(file, (id) => id === 'a'.repeat(40));
    expect([binary.hunks, binary.patch]).toEqual([
      [],
      'diff --git a/f b/f\nindex a..b 100644\nBinary files differ\n',
    ]);
    const gone =
      'diff --git a/f b/f\ndeleted file mode 100644\n--- a/f\n+++ /dev/null\n@@ -1 +0,0 @@\n-x\0\n';
    const added = 'diff --git a/f b/f\nnew file mode 120000\n--- /dev/null\n+++ b/f\n@@ -0,0 +1 @@\n+t\n';
    const typechange = { entry: entry('T'), patch: gone + added, hunks: parseHunks(gone + added) };
    // A typechange: the old side binary, the new side (a link) still text.
    expect(withoutBinaryHunks(typechange, (id) => id === 'a'.repeat(40)).hunks).toEqual([
      { oldStart: 0, oldCount: 0, newStart: 1, newCount: 1, added: ['t'] },
    ]);
  });

  it('unquotes C-quoted paths, octal bytes included', () => {
    expect(unquotePath('"a\\tb\\"c\\\\d"')).toBe('a\tb"c\\d');
    expect(unquotePath('"\\303\\274.txt"')).toBe('ü.txt');
    expect(unquotePath('plain name')).toBe('plain name');
  });
});

describe('applyHunks', () => {
  it('keeps, shifts, removes and adds line origins as the hunks say', () => {
    const hunks = parseHunks('@@ -1 +0,0 @@\n-x\n@@ -3,0 +3,2 @@\n+a\n+b\n@@ -5,2 +7 @@\n-y\n-z\n+c\n');
    expect(applyHunks([1, 1, 2, null, 3, 3, 4], hunks, 9)).toEqual([1, 2, 9, 9, null, 9, 4]);
    expect(applyHunks([], parseHunks('@@ -0,0 +1,2 @@\n+a\n+b\n'), 1)).toEqual([1, 1]);
    expect(applyHunks([2, 2], parseHunks('@@ -10,0 +11 @@\n+a\n'), 3)).toEqual([
      2,
      2,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      3,
    ]);
  });
});
