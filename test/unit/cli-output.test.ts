import { afterEach, describe, expect, it, vi } from 'vitest';
import { countOf, useColour } from '../../src/cli/output.js';

describe('the CLI output for people', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('colours a terminal unless NO_COLOR holds a value or TERM is dumb (no-color.org)', () => {
    vi.stubEnv('TERM', 'xterm-256color');
    vi.stubEnv('NO_COLOR', undefined);
    expect(useColour(true)).toBe(true);
    expect(useColour(false)).toBe(false);
    vi.stubEnv('NO_COLOR', '');
    expect(useColour(true)).toBe(true);
    for (const value of ['1', '0', 'false']) {
      vi.stubEnv('NO_COLOR', value);
      expect(useColour(true)).toBe(false);
    }
    vi.stubEnv('NO_COLOR', undefined);
    vi.stubEnv('TERM', 'dumb');
    expect(useColour(true)).toBe(false);
  });

  it('counts in the singular for one: "1 file", "2 files", "0 files"', () => {
    expect([0, 1, 2].map((n) => countOf(n, 'file'))).toEqual(['0 files', '1 file', '2 files']);
  });
});
