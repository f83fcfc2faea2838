/** src/fs/random-id.ts: nanoid's ids in our alphabet, from node:crypto's randomBytes. */
import { describe, expect, it } from 'vitest';
import { idGenerator } from '../../src/fs/random-id.js';

describe('idGenerator', () => {
  it('makes ids of the given length from 0-9 and a-z, without repeats and with every character in use', () => {
    const next = idGenerator(16);
    const ids = Array.from({ length: 5000 }, () => next());
    expect(ids.every((id) => /^[0-9a-z]{16}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids.join('')).size).toBe(36);
    expect(idGenerator(20)()).toMatch(/^[0-9a-z]{20}$/);
  });
});
