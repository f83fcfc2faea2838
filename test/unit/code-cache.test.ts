/**
 * The code cache's pure parts: the file format (a SHA-256 of the rest, whether the run that made it
 * succeeded, V8's data), where it lives, and the command a bin call is guessed to run. Any change
 * to the bytes (a flipped bit, a cut-off write) must read as "no cache", never reach V8, which can
 * crash on a damaged cache rather than reject it.
 */
import { describe, expect, it } from 'vitest';
import {
  cacheDir,
  cacheFile,
  decodeCodeCache,
  encodeCodeCache,
  guessCommand,
} from '../../src/cli/code-cache.js';

const cache = { complete: true, data: Buffer.from('v8 bytecode \u0000\u0001\u00ff', 'latin1') };

describe('the code cache file', () => {
  it('reads back what was written', () => {
    expect(decodeCodeCache(encodeCodeCache(cache))).toEqual(cache);
    const empty = { complete: false, data: Buffer.alloc(0) };
    expect(decodeCodeCache(encodeCodeCache(empty))).toEqual(empty);
  });

  it('reads as no cache when any byte differs, the file is cut short or grows', () => {
    const bytes = encodeCodeCache(cache);
    for (let i = 0; i < bytes.length; i++) {
      const flipped = Buffer.from(bytes);
      flipped[i] = (flipped[i] as number) ^ 0x01;
      expect(decodeCodeCache(flipped), `byte ${i}`).toBeNull();
    }
    for (const length of [0, 10, 32, bytes.length - 1])
      expect(decodeCodeCache(bytes.subarray(0, length))).toBeNull();
    expect(decodeCodeCache(Buffer.concat([bytes, Buffer.from('x')]))).toBeNull();
  });

  it('is named for the bundle, the Node version, the architecture and the command', () => {
    const build = `abc-${process.version.replaceAll('.', '_')}-${process.arch}`;
    expect(cacheFile('/c', 'abc', 'runs')).toBe(`/c/${build}.runs.v8`);
    expect(cacheFile('/c', 'abc', 'checkpoint track')).toBe(`/c/${build}.checkpoint+track.v8`);
    expect(cacheFile('/c', 'abc', null)).toBe(`/c/${build}.none.v8`);
  });
});

describe('the command a bin call runs, as guessed from its leading words', () => {
  it('is the first word, or the first two for a group, and none when an option or an argument comes first', () => {
    expect(guessCommand(['runs', '--json'])).toBe('runs');
    expect(guessCommand(['patch', 'snap-1a2b', '--json'])).toBe('patch');
    expect(guessCommand(['checkpoint', 'track', '-C', 'x'])).toBe('checkpoint track');
    expect(guessCommand(['hook', 'claude-code'])).toBe('hook claude-code');
    expect(guessCommand(['gate', '--run', 'r1', '--', 'npm', 'test'])).toBe('gate');
    expect(guessCommand(['show', 'latest'])).toBe('show');
    expect(guessCommand(['--version'])).toBeNull();
    expect(guessCommand(['-C', 'dir', 'before'])).toBeNull();
    expect(guessCommand([])).toBeNull();
    expect(guessCommand(['Before'])).toBeNull();
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
