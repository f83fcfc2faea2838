import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCatFileBatch } from '../../src/git/parsers/cat-file-batch.js';
import { parseDiffPairs } from '../../src/git/parsers/diff-pairs.js';
import { parseDiffTreeStdin } from '../../src/git/parsers/diff-tree-stdin.js';
import { parseRefRecords } from '../../src/git/parsers/for-each-ref.js';
import { parseCandidateListing } from '../../src/git/parsers/ls-files-tagged.js';
import { parseLsTree } from '../../src/git/parsers/ls-tree.js';
import { splitNul } from '../../src/git/parsers/nul-records.js';

const UNPARSEABLE = expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' });

const fixture = (name: string): Buffer =>
  readFileSync(join(import.meta.dirname, '../../fixtures/git-output', name));

describe('checkpoint store parsers (canned git output, fixtures/make-checkpoint-fixtures.sh)', () => {
  it('splits NUL-terminated records, with or without a final terminator', () => {
    expect(splitNul('a\0b c\0')).toEqual(['a', 'b c']);
    expect(splitNul('a\0b')).toEqual(['a', 'b']);
    expect(splitNul('')).toEqual([]);
  });

  it('reads ls-files -t -o -m: untracked files, nested repositories, changed and deleted files', () => {
    const listing = parseCandidateListing(fixture('checkpoints-ls-files-candidates.bin').toString('utf8'));
    expect(listing).toEqual({
      untracked: ['new file.txt', 'untracked.txt'],
      modified: ['a file.txt', 'blob.bin', 'link', 'old.txt'],
      nestedRepos: ['nested'],
    });
    expect(() => parseCandidateListing('H cached.txt\0')).toThrow(UNPARSEABLE);
  });

  it('reads ls-tree -r -z with modes, symlinks, spaces and non-ASCII names', () => {
    const tree = parseLsTree(fixture('checkpoints-ls-tree.bin').toString('utf8'));
    expect([...tree.keys()]).toEqual(['a file.txt', 'blob.bin', 'dir é/ü.txt', 'link', 'old.txt']);
    expect(tree.get('link')).toMatchObject({ mode: '120000', type: 'blob' });
    expect(tree.get('a file.txt')?.oid).toBe('4cb29ea38f70d7c61b2a3a25b02e3bdf44905402');
    expect(() => parseLsTree('100644 blob nothex\tx\0')).toThrow(UNPARSEABLE);
  });

  it('pairs raw records with numstat counts; "-" counts mean binary', () => {
    const records = parseDiffPairs(fixture('checkpoints-diff-raw-numstat.bin').toString('utf8'));
    const byPath = Object.fromEntries(records.map((r) => [r.path, r]));
    expect(records.map((r) => [r.path, r.status])).toEqual([
      ['a file.txt', 'M'],
      ['blob.bin', 'M'],
      ['link', 'T'],
      ['new file.txt', 'A'],
      ['old.txt', 'D'],
      ['untracked.txt', 'A'],
    ]);
    expect(byPath['a file.txt']).toMatchObject({ insertions: 2, deletions: 1, binary: false });
    expect(byPath['blob.bin']).toMatchObject({ insertions: 0, deletions: 0, binary: true });
    expect(byPath['old.txt']).toMatchObject({
      dstId: '0'.repeat(40),
      dstMode: '000000',
      insertions: 0,
      deletions: 1,
    });
    expect(byPath['link']).toMatchObject({ srcMode: '120000', dstMode: '100644' });
    expect(parseDiffPairs('')).toEqual([]);
    expect(() => parseDiffPairs('1\t2\tnot-in-raw\0')).toThrow(
      expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }),
    );
  });

  it('slices cat-file --batch objects by size: multi-line, empty, binary, missing', () => {
    const objects = parseCatFileBatch(fixture('checkpoints-catfile-batch.bin'));
    expect(objects.map((o) => o.kind)).toEqual(['found', 'found', 'found', 'found', 'missing']);
    const [before, after, empty, binary, missing] = objects;
    expect(before?.kind === 'found' && before.content.toString()).toBe('one\ntwo\nthree\n');
    expect(after?.kind === 'found' && after.content.toString()).toBe('one\nTWO\nthree\nfour\n');
    expect(empty?.kind === 'found' && empty.content.length).toBe(0);
    expect(binary?.kind === 'found' && [...binary.content.subarray(0, 3)]).toEqual([0, 1, 2]);
    expect(missing).toEqual({ kind: 'missing', name: '0123456789abcdef0123456789abcdef01234567' });
  });

  it('refuses truncated cat-file output', () => {
    const whole = fixture('checkpoints-catfile-batch.bin');
    expect(() => parseCatFileBatch(whole.subarray(0, 60))).toThrow(UNPARSEABLE);
    expect(() => parseCatFileBatch(Buffer.from('deadbeef'))).toThrow(UNPARSEABLE);
  });

  it('reads for-each-ref records with NUL-separated fields and JSON bodies', () => {
    const records = parseRefRecords(fixture('checkpoints-for-each-ref.bin').toString('utf8'));
    expect(records.map((r) => r.ref)).toEqual([
      'refs/checkpoints/20250102T030406000Z-bbbbbb',
      'refs/checkpoints/20250102T030405000Z-aaaaaa',
      'refs/checkpoints-meta/latest',
    ]);
    expect(records[0]?.tree).toBe('09e1662189baed2ec3e1906112160760f3149531');
    expect(JSON.parse(records[0]?.body ?? '')).toMatchObject({ label: 'line one\nline two', kind: 'safety' });
    expect(records[2]?.oid).toBe(records[0]?.oid);
    expect(parseRefRecords('')).toEqual([]);
  });

  it('reads the changed paths of several tree pairs from one diff-tree --stdin (an unchanged pair has none)', () => {
    const pairs = fixture('checkpoints-diff-tree-stdin.in.txt')
      .toString('utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(' ') as [string, string]);
    const changed = ['a file.txt', 'blob.bin', 'link', 'new file.txt', 'old.txt', 'untracked.txt'];
    const paths = parseDiffTreeStdin(fixture('checkpoints-diff-tree-stdin.bin').toString('utf8'), pairs);
    expect(paths).toEqual([changed, [], changed]);
    // A path holding a newline is a path, not a header; output outside any pair is refused.
    const [from, to] = pairs[0] ?? ['', ''];
    expect(parseDiffTreeStdin(`${from} ${to}\nodd\nname\0`, [[from, to]])).toEqual([['odd\nname']]);
    expect(() => parseDiffTreeStdin('stray\0', [[from, to]])).toThrow(UNPARSEABLE);
    expect(() => parseDiffTreeStdin(`${from} ${to}\ncut`, [[from, to]])).toThrow(UNPARSEABLE);
  });
});
