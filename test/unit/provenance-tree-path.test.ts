import { describe, expect, it } from 'vitest';
import { treePath } from '../../src/provenance/tree-path.js';

describe('treePath: PATH as a tree names it', () => {
  it('normalises what a shell or a person types', () => {
    expect(treePath('/w/repo', 'a.txt')).toBe('a.txt');
    expect(treePath('/w/repo', './src//a.ts')).toBe('src/a.ts');
    expect(treePath('/w/repo', 'src/./x/../a.ts')).toBe('src/a.ts');
    expect(treePath('/w/repo', '/w/repo/src/a.ts')).toBe('src/a.ts');
    // Only the path is normalised; whether it is a file at REV is git's to say.
    expect(treePath('/w/repo', 'a.txt/')).toBe('a.txt/');
    expect(treePath('/w/repo', 'odd:name -L')).toBe('odd:name -L');
  });

  it('refuses what leaves the top level or names it', () => {
    for (const path of [
      '..',
      '../a.txt',
      'src/../../a.txt',
      '.',
      './',
      '',
      '/w/other/a.txt',
      '/w/repo',
      '/etc/passwd',
    ])
      expect(treePath('/w/repo', path)).toBeNull();
  });
});
