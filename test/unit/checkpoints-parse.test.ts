import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  parseCandidateListing,
  parseCatFileBatch,
  parseDiffRawNumstat,
  parseLsTree,
  parseRefRecords,
  splitNul,
} from '../../src/git/shadow/parse.js';

const fixture = (name: string): Buffer => readFileSync(join(import.meta.dirname, '../../fixtures/git-output', name));

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
    expect(() => parseCandidateListing('H cached.txt\0')).toThrow(SyntaxError);
  });

  it('reads ls-tree -r -z with modes, symlinks, spaces and non-ASCII names', () => {
    const tree = parseLsTree(fixture('checkpoints-ls-tree.bin').toString('utf8'));
    expect([...tree.keys()]).toEqual(['a file.txt', 'blob.bin', 'dir é/ü.txt', 'link', 'old.txt']);
    expect(tree.get('link')).toMatchObject({ mode: '120000', type: 'blob' });
    expect(tree.get('a file.txt')?.oid).toBe('4cb29ea38f70d7c61b2a3a25b02e3bdf44905402');
    expect(() => parseLsTree('100644 blob nothex\tx\0')).toThrow(SyntaxError);
  });

  it('pairs raw records with numstat counts; "-" counts mean binary', () => {
    const records = parseDiffRawNumstat(fixture('checkpoints-diff-raw-numstat.bin').toString('utf8'));
    const byPath = Object.fromEntries(records.map((r) => [r.path, r]));
    expect(records.map((r) => [r.path, r.status])).toEqual([
      ['a file.txt', 'M'],
      ['blob.bin', 'M'],
      ['link', 'T'],
      ['new file.txt', 'A'],
      ['old.txt', 'D'],
      ['untracked.txt', 'A'],
    ]);
    expect(byPath['a file.txt']).toMatchObject({ additions: 2, deletions: 1, binary: false });
    expect(byPath['blob.bin']).toMatchObject({ additions: null, deletions: null, binary: true });
    expect(byPath['old.txt']).toMatchObject({ newOid: '0'.repeat(40), newMode: '000000', additions: 0, deletions: 1 });
    expect(byPath['link']).toMatchObject({ oldMode: '120000', newMode: '100644' });
    expect(parseDiffRawNumstat('')).toEqual([]);
    expect(() => parseDiffRawNumstat('1\t2\tnot-in-raw\0')).toThrow(SyntaxError);
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
    expect(() => parseCatFileBatch(whole.subarray(0, 60))).toThrow(SyntaxError);
    expect(() => parseCatFileBatch(Buffer.from('deadbeef'))).toThrow(SyntaxError);
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
});
