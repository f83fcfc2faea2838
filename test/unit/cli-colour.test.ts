import { afterEach, describe, expect, it, vi } from 'vitest';
import { useColour } from '../../src/cli/output.js';

describe('useColour', () => {
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
});
