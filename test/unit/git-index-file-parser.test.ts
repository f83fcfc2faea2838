import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeBytes } from '../../src/fs/path-bytes.js';
import { parseIndexFile } from '../../src/git/parsers/index-file.js';
import { GITLINK_MODE, parseIndexEntries } from '../../src/git/parsers/ls-files-tagged.js';

// Real index files, each with what `git ls-files -z -v -s` printed for it (fixtures/make-git-index.sh).
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/git-index/${name}`, import.meta.url));
const index = (name: string) => fixture(`${name}.index`);
const listed = (name: string) => parseIndexEntries(decodeBytes(fixture(`${name}.ls-files`)));
const idBytes = (name: string) => (name === 'sha256' ? 32 : 20);
const plain = (entries: ReturnType<typeof parseIndexFile>) =>
  entries?.map(({ tag, mode, oid, path }) => ({ tag, mode, oid, path })) ?? null;

const READ = ['v2', 'v3', 'v4', 'v4-ieot', 'sha256', 'unmerged', 'untracked-cache'];

describe('parseIndexFile (the index file, as ls-files -v -s lists it)', () => {
  it.each(READ)('%s: every entry, tag, mode, id and name as git lists them', (name) => {
    const entries = parseIndexFile(index(name), idBytes(name));
    expect(plain(entries)).toEqual(listed(name));
    for (const e of entries ?? []) {
      expect(e.ctime).toBeGreaterThanOrEqual(0);
      expect(e.mtime).toBeGreaterThanOrEqual(0);
    }
  });

  it('the fixtures hold what they are for: marks, odd names, a gitlink, stages', () => {
    const tags = (name: string) => new Set(listed(name).map((e) => e.tag));
    expect(tags('v2')).toEqual(new Set(['H', 'h']));
    expect(tags('v3')).toEqual(new Set(['H', 'S', 's']));
    expect(tags('unmerged')).toContain('M');
    const paths = listed('v4').map((e) => e.path);
    expect(paths.some((p) => p.length > 4095)).toBe(true);
    expect(paths).toContain('caf\udce9.txt');
    expect(paths).toContain('odd\u0001name');
    expect(listed('v2').some((e) => e.mode === GITLINK_MODE)).toBe(true);
    expect(listed('v4-ieot').length).toBeGreaterThan(400);
  });

  it('keeps only what the filter takes', () => {
    const marked = (tag: string, mode: string) => tag !== 'H' || mode === GITLINK_MODE;
    for (const name of READ)
      expect(plain(parseIndexFile(index(name), idBytes(name), marked))).toEqual(
        listed(name).filter((e) => marked(e.tag, e.mode)),
      );
  });

  it('leaves to git a split index and a sparse one', () => {
    expect(parseIndexFile(index('split'), 20)).toBeNull();
    expect(parseIndexFile(index('sparse'), 20)).toBeNull();
  });

  it('an index with no entries has none', () => {
    const empty = Buffer.concat([Buffer.from('DIRC'), u32(2), u32(0), Buffer.alloc(20)]);
    expect(parseIndexFile(empty, 20)).toEqual([]);
  });

  describe('bytes git would not read as this reader does: null, for git to read', () => {
    const v3 = index('v3');
    // The first entry (caf\xe9.txt) has no extended flags: its name follows its 62 fixed bytes.
    const firstName = 12 + 62;
    const mutated = (edit: (b: Buffer) => Buffer | void, from = v3) => {
      const copy = Buffer.from(from);
      return edit(copy) ?? copy;
    };
    it.each([
      ['another signature', (b: Buffer) => void b.write('DIRX', 0)],
      ['version 1', (b: Buffer) => void b.writeUInt32BE(1, 4)],
      ['version 5', (b: Buffer) => void b.writeUInt32BE(5, 4)],
      ['more entries than the file holds', (b: Buffer) => void b.writeUInt32BE(b.readUInt32BE(8) + 1, 8)],
      ['cut short', (b: Buffer) => b.subarray(0, 200)],
      ['shorter than a header', (b: Buffer) => b.subarray(0, 20)],
      ['a NUL inside a name', (b: Buffer) => void (b[firstName + 1] = 0)],
      ['a name length of 0', (b: Buffer) => void b.writeUInt16BE(b.readUInt16BE(12 + 60) & 0xf000, 12 + 60)],
      ['a mode of seven octal digits', (b: Buffer) => void b.writeUInt32BE(0o1000000, 12 + 24)],
      // git 2.39 expands a directory entry in any index (a sparse one's or not) into the files of the
      // tree it names, each marked skip-worktree: one entry here would be several, marked, in git.
      ['a directory entry (mode 040000)', (b: Buffer) => void b.writeUInt32BE(0o040000, 12 + 24)],
    ])('%s', (_, edit) => {
      expect(parseIndexFile(mutated(edit), 20)).toBeNull();
    });

    it('a directory entry, even one the filter would leave out; another mode of the directory type is listed', () => {
      const at = offsetOf(v3, listed('v3'), 'f1.txt');
      const keepNone = () => false;
      expect(
        parseIndexFile(
          mutated((b) => void b.writeUInt32BE(0o040000, at + 24)),
          20,
          keepNone,
        ),
      ).toBeNull();
      // Only the exact mode is a directory to git (S_ISSPARSEDIR): 040755 is listed as it is.
      const other = parseIndexFile(
        mutated((b) => void b.writeUInt32BE(0o040755, at + 24)),
        20,
      );
      expect(other?.find((e) => e.path === 'f1.txt')?.mode).toBe('040755');
    });

    it('an extended flag git does not know', () => {
      const entries = listed('v3');
      const at = offsetOf(v3, entries, 'f1.txt');
      expect(parseIndexFile(v3, 20)).not.toBeNull();
      expect(
        parseIndexFile(
          mutated((b) => void b.writeUInt16BE(b.readUInt16BE(at + 62) | 0x1000, at + 62)),
          20,
        ),
      ).toBeNull();
    });

    it('an extension git must understand and this reader does not, or one that runs past the end', () => {
      const withExtension = (signature: string, size: number, body: Buffer) =>
        Buffer.concat([
          v3.subarray(0, v3.length - 20),
          Buffer.from(signature),
          u32(size),
          body,
          Buffer.alloc(20),
        ]);
      expect(parseIndexFile(withExtension('ABCD', 4, Buffer.alloc(4)), 20)).not.toBeNull();
      expect(parseIndexFile(withExtension('abcd', 4, Buffer.alloc(4)), 20)).toBeNull();
      expect(parseIndexFile(withExtension('ABCD', 400, Buffer.alloc(4)), 20)).toBeNull();
    });

    it('version 4: dropping more of the previous name than it has', () => {
      const v4 = index('v4');
      // The second entry: right after the first one's name and NUL, past its fixed 62 bytes and the varint 0.
      const first = 12 + 62;
      const second = v4.indexOf(0, first + 1) + 1;
      const flags = v4.readUInt16BE(second + 60);
      const varint = second + 62 + ((flags & 0x4000) !== 0 ? 2 : 0);
      expect(
        parseIndexFile(
          mutated((b) => void (b[varint] = 0x7f), v4),
          20,
        ),
      ).toBeNull();
    });

    it('the wrong id length (a SHA-256 index read as SHA-1)', () => {
      expect(parseIndexFile(index('sha256'), 20)).toBeNull();
    });
  });
});

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/** Where the entry for `path` starts in a version 2 or 3 index (`entries`: its listing, in order). */
function offsetOf(bytes: Buffer, entries: readonly { path: string }[], path: string): number {
  let at = 12;
  for (const e of entries) {
    if (e.path === path) return at;
    const flags = bytes.readUInt16BE(at + 60);
    const nameAt = at + 62 + ((flags & 0x4000) !== 0 ? 2 : 0);
    const length = bytes.indexOf(0, nameAt) - nameAt;
    at += (nameAt - at + length + 8) & ~7;
  }
  throw new Error(`${path} not in the index`);
}
