import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseStatusV2 } from '../../src/git/parsers/status.js';

const fixture = (name: string): Buffer =>
  readFileSync(new URL(`../../fixtures/git-output/status-${name}.bin`, import.meta.url));

describe('parseStatusV2 (canned git output)', () => {
  it('reads an unborn branch with nothing in it', () => {
    expect(parseStatusV2(fixture('unborn-empty'))).toEqual({
      oid: null,
      head: 'main',
      upstream: null,
      ahead: null,
      behind: null,
      entries: [],
    });
  });

  it('reads an unborn branch with a staged and an untracked file', () => {
    const r = parseStatusV2(fixture('unborn-staged'));
    expect(r.oid).toBeNull();
    expect(r.entries).toEqual([
      { kind: 'ordinary', xy: 'A.', submodule: 'N...', path: 'staged.txt' },
      { kind: 'untracked', path: 'untracked.txt' },
    ]);
  });

  it('reads a clean branch and a detached HEAD', () => {
    const clean = parseStatusV2(fixture('clean'));
    expect(clean.oid).toMatch(/^[0-9a-f]{40}$/);
    expect(clean.head).toBe('main');
    expect(clean.entries).toEqual([]);
    const detached = parseStatusV2(fixture('detached'));
    expect(detached.oid).toBe(clean.oid);
    expect(detached.head).toBeNull();
  });

  it('reads every ordinary change, a rename, odd names and ahead/behind', () => {
    const r = parseStatusV2(fixture('mixed'));
    expect(r).toMatchObject({ head: 'main', upstream: 'base', ahead: 1, behind: 1 });
    const byPath = new Map(r.entries.map((e) => [e.path, e]));
    expect([...byPath.keys()].sort()).toEqual(
      [
        'added.txt',
        'both.txt',
        'café.txt',
        'del-staged.txt',
        'del-unstaged.txt',
        'new name.txt',
        'newdir/',
        'staged.txt',
        'tab\tand\nnewline.txt',
        'to-link.txt',
        'unstaged.txt',
        'untracked with space.txt',
      ].sort(),
    );
    expect(byPath.get('new name.txt')).toEqual({
      kind: 'renamed',
      xy: 'R.',
      submodule: 'N...',
      score: 'R100',
      path: 'new name.txt',
      origPath: 'old name.txt',
    });
    const codes = Object.fromEntries(r.entries.map((e) => [e.path, 'xy' in e ? e.xy : e.kind]));
    expect(codes).toMatchObject({
      'added.txt': 'A.',
      'both.txt': 'MM',
      'del-staged.txt': 'D.',
      'del-unstaged.txt': '.D',
      'staged.txt': 'M.',
      'to-link.txt': '.T',
      'unstaged.txt': '.M',
      'café.txt': 'untracked',
      'tab\tand\nnewline.txt': 'untracked',
    });
  });

  it('reads ignored entries when listed', () => {
    const r = parseStatusV2(fixture('ignored'));
    expect(r.entries).toEqual([
      { kind: 'untracked', path: 'new.txt' },
      { kind: 'ignored', path: 'build/' },
      { kind: 'ignored', path: 'debug.log' },
    ]);
  });

  it('reads every kind of unmerged entry', () => {
    const r = parseStatusV2(fixture('unmerged'));
    expect(r.entries.map((e) => [e.kind, 'xy' in e ? e.xy : '', e.path])).toEqual([
      ['unmerged', 'AA', 'both-add.txt'],
      ['unmerged', 'UU', 'both-mod.txt'],
      ['unmerged', 'DU', 'del-ours.txt'],
      ['unmerged', 'UD', 'del-theirs.txt'],
    ]);
  });

  it('accepts a string and ignores headers it does not need', () => {
    const r = parseStatusV2('# branch.oid (initial)\0# branch.head main\0# stash 3\0? a b\0');
    expect(r.entries).toEqual([{ kind: 'untracked', path: 'a b' }]);
  });

  it.each([
    ['unknown record', 'x what\0'],
    ['rename without original', '2 R. N... 100644 100644 100644 a b R100 new\0'],
    ['too few fields', '1 M. N... 100644\0'],
    ['bad object id', '# branch.oid xyz\0'],
    ['bad ahead/behind', '# branch.ab 1 2\0'],
    ['empty path', '? \0'],
  ])('rejects malformed output: %s', (_name, text) => {
    expect(() => parseStatusV2(text)).toThrow(expect.objectContaining({ code: 'GIT_OUTPUT_UNPARSEABLE' }));
  });
});
