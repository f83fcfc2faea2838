/**
 * The code cache's file format: a SHA-256 of the rest, the command list, V8's data. Any change to
 * the bytes (a flipped bit, a cut-off write, a forged length) must read as "no cache", never reach
 * V8, which can crash on a damaged cache rather than reject it.
 */
import { describe, expect, it } from 'vitest';
import { cacheDir, decodeCodeCache, encodeCodeCache } from '../../src/cli/code-cache.js';

const cache = {
  keys: ['runs', 'checkpoint track'],
  data: Buffer.from('v8 bytecode \u0000\u0001\u00ff', 'latin1'),
};

describe('the code cache file', () => {
  it('reads back what was written', () => {
    expect(decodeCodeCache(encodeCodeCache(cache))).toEqual(cache);
    expect(decodeCodeCache(encodeCodeCache({ keys: [], data: Buffer.alloc(0) }))).toEqual({
      keys: [],
      data: Buffer.alloc(0),
    });
  });

  it('reads as no cache when any byte differs, the file is cut short, or a length points past the end', () => {
    const bytes = encodeCodeCache(cache);
    for (let i = 0; i < bytes.length; i++) {
      const flipped = Buffer.from(bytes);
      flipped[i] = (flipped[i] as number) ^ 0x01;
      expect(decodeCodeCache(flipped), `byte ${i}`).toBeNull();
    }
    for (const length of [0, 10, 35, bytes.length - 1])
      expect(decodeCodeCache(bytes.subarray(0, length))).toBeNull();
    expect(decodeCodeCache(Buffer.concat([bytes, Buffer.from('x')]))).toBeNull();
  });
});

describe('where the cache lives', () => {
  it('is node_modules/.cache/agentgate-snapshot where the package is installed, or in a checkout', () => {
    const installed = '/p/node_modules/agentgate-snapshotter/dist/bin';
    expect(cacheDir(installed, {})).toBe('/p/node_modules/.cache/agentgate-snapshot');
    const pnpm =
      '/p/node_modules/.pnpm/agentgate-snapshotter@1.0.0/node_modules/agentgate-snapshotter/dist/bin';
    expect(cacheDir(pnpm, {})).toBe(
      '/p/node_modules/.pnpm/agentgate-snapshotter@1.0.0/node_modules/.cache/agentgate-snapshot',
    );
    expect(cacheDir('/src/agentgate/dist/bin', {})).toBe(
      '/src/agentgate/node_modules/.cache/agentgate-snapshot',
    );
  });

  it('is nowhere when turned off', () => {
    expect(
      cacheDir('/p/node_modules/agentgate-snapshotter/dist/bin', { AGENTGATE_NO_CODE_CACHE: '1' }),
    ).toBeNull();
  });
});
