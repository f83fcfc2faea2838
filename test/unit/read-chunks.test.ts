import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readChunks } from '../../src/fs/read-chunks.js';
import { collectEvery } from '../../src/memory.js';
import { tempDir } from '../helpers/repo.js';

const dir = tempDir('agentgate-read-chunks-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('readChunks: a file through one reused buffer', () => {
  it('gives every byte once, in order, whatever the sizes', async () => {
    const bytes = Buffer.from(Array.from({ length: 10_000 }, (_, i) => (i * 7) % 256));
    for (const [length, size] of [
      [0, 16],
      [5, 16],
      [16, 16],
      [10_000, 16],
      [10_000, 4096],
      [10_000, 1 << 20],
    ] as const) {
      const path = join(dir, `f-${length}-${size}`);
      writeFileSync(path, bytes.subarray(0, length));
      const copies: Buffer[] = [];
      const buffers = new Set<ArrayBufferLike>();
      for await (const chunk of readChunks(path, size)) {
        expect(chunk.length).toBeLessThanOrEqual(size);
        copies.push(Buffer.from(chunk));
        buffers.add(chunk.buffer);
      }
      expect(Buffer.concat(copies).equals(bytes.subarray(0, length))).toBe(true);
      // One buffer for the whole file: a chunk is valid only until the next.
      expect(buffers.size).toBeLessThanOrEqual(1);
    }
  });

  it.runIf(existsSync('/proc/self/fd'))('closes the file when the loop stops early', async () => {
    const path = join(dir, 'early');
    writeFileSync(path, Buffer.alloc(100));
    const open = () => readdirSync('/proc/self/fd').length;
    const before = open();
    for await (const chunk of readChunks(path, 10)) {
      expect(chunk.length).toBe(10);
      expect(open()).toBe(before + 1);
      break;
    }
    expect(open()).toBe(before);
  });
});

describe('collectEvery', () => {
  it('collects as bytes go by, without making gc a global of this context', () => {
    const collect = collectEvery();
    for (let i = 0; i < 64; i++) collect(64 * 1024);
    collect(8 * 1024 * 1024);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
