import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  createReadStream,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { text } from 'node:stream/consumers';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as FsPromises from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { codeOf } from '../helpers/codes.js';

// Tests run as root, where permissions do not stop writes: failures are injected into fs instead.
const inject = vi.hoisted(() => ({ rename: null as string | null, open: null as string | null }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const fail = (code: string) => Promise.reject(Object.assign(new Error(`injected ${code}`), { code }));
  return {
    ...real,
    rename: (from: string, to: string) => (inject.rename ? fail(inject.rename) : real.rename(from, to)),
    open: (...args: Parameters<typeof real.open>) =>
      inject.open && String(args[0]).endsWith('.tmp') ? fail(inject.open) : real.open(...args),
  };
});

const { writeFileAtomic, writeJsonAtomic, writeOutputData, writeOwnFileAtomic } =
  await import('../../src/fs/atomic.js');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgate-atomic-'));
});
afterEach(() => {
  inject.rename = null;
  inject.open = null;
  rmSync(dir, { recursive: true, force: true });
});

describe('writeFileAtomic', () => {
  it('creates missing directories, replaces the file and leaves no temp file', async () => {
    const path = join(dir, 'a', 'b', 'file.json');
    await writeJsonAtomic(path, { n: 1 });
    await writeJsonAtomic(path, { n: 2 });
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ n: 2 });
    expect(readdirSync(join(dir, 'a', 'b'))).toEqual(['file.json']);
  });

  it('writes buffers byte for byte', async () => {
    const path = join(dir, 'bin');
    const bytes = Buffer.from([0, 255, 10, 13, 0]);
    await writeFileAtomic(path, bytes);
    expect(readFileSync(path).equals(bytes)).toBe(true);
  });

  it('WRITE_FAILED when the rename fails: the previous file is intact and the temp file is gone', async () => {
    const path = join(dir, 'file.json');
    writeFileSync(path, 'previous');
    inject.rename = 'ENOSPC';
    expect(await codeOf(writeJsonAtomic(path, { n: 2 }))).toBe('WRITE_FAILED');
    expect(readFileSync(path, 'utf8')).toBe('previous');
    expect(readdirSync(dir)).toEqual(['file.json']);
  });

  it('WRITE_FAILED when the temp file cannot be created: the previous file is intact', async () => {
    const path = join(dir, 'file.json');
    writeFileSync(path, 'previous');
    inject.open = 'EACCES';
    const error = await writeFileAtomic(path, 'new').catch((e: unknown) => e);
    expect((error as { code?: string }).code).toBe('WRITE_FAILED');
    expect((error as { details: { path: string } }).details.path).toBe(path);
    expect(readFileSync(path, 'utf8')).toBe('previous');
  });

  it('WRITE_FAILED when the parent is a file or the target is a directory', async () => {
    writeFileSync(join(dir, 'plain'), 'x');
    expect(await codeOf(writeFileAtomic(join(dir, 'plain', 'child'), 'y'))).toBe('WRITE_FAILED');
    mkdirSync(join(dir, 'adir', 'inside'), { recursive: true });
    expect(await codeOf(writeFileAtomic(join(dir, 'adir'), 'y'))).toBe('WRITE_FAILED');
    expect(readdirSync(join(dir, 'adir'))).toEqual(['inside']);
    expect(readdirSync(dir).sort()).toEqual(['adir', 'plain']);
  });

  it('replaces a planted FIFO, device or link among our own files, never writing through it', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    writeFileSync(join(dir, 'elsewhere'), 'theirs');
    symlinkSync(join(dir, 'elsewhere'), join(dir, 'link'));
    await writeFileAtomic(fifo, 'ours');
    await writeFileAtomic(join(dir, 'link'), 'ours');
    expect(lstatSync(fifo).isFile()).toBe(true);
    expect(lstatSync(join(dir, 'link')).isFile()).toBe(true);
    expect(readFileSync(join(dir, 'elsewhere'), 'utf8')).toBe('theirs');
  });
});

describe('writeOutputData (-o FILE)', () => {
  it('writes into a FIFO and through links, leaving both in place (a pipe a reader waits on)', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    symlinkSync(fifo, join(dir, 'link'));
    for (const target of [fifo, join(dir, 'link')]) {
      const read = text(createReadStream(fifo));
      await writeOutputData(target, `to ${target}`);
      expect(await read).toBe(`to ${target}`);
    }
    writeFileSync(join(dir, 'file'), 'old');
    symlinkSync(join(dir, 'file'), join(dir, 'to-file'));
    await writeOutputData(join(dir, 'to-file'), 'new');
    expect(readFileSync(join(dir, 'file'), 'utf8')).toBe('new');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(lstatSync(join(dir, 'link')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(dir, 'to-file')).isSymbolicLink()).toBe(true);
    expect(readdirSync(dir).sort()).toEqual(['fifo', 'file', 'link', 'to-file']);
  });

  it('writes into a character device and leaves it one (`-o /dev/null` as root)', async () => {
    const device = join(dir, 'null');
    try {
      execFileSync('mknod', ['-m', '666', device, 'c', '1', '3'], { stdio: 'ignore' });
    } catch {
      return; // not root: no device of our own can be made, and no rename could replace /dev/null either
    }
    await writeOutputData(device, 'discarded');
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
    expect(readdirSync(dir)).toEqual(['null']);
  });

  it('replaces a regular file atomically, and refuses a new name holding U+FFFD (a name that is not UTF-8)', async () => {
    writeFileSync(join(dir, 'report'), 'old');
    await writeOutputData(join(dir, 'report'), 'new');
    expect(readFileSync(join(dir, 'report'), 'utf8')).toBe('new');
    expect(await codeOf(writeOutputData(join(dir, 'p\uFFFD.diff'), 'x'))).toBe('INVALID_ARGUMENT');
    expect(readdirSync(dir)).toEqual(['report']);
  });
});

describe('writeOwnFileAtomic', () => {
  it('refuses a settings file that is a FIFO or a link to one, and leaves it', async () => {
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', [fifo]);
    symlinkSync(fifo, join(dir, 'settings.json'));
    expect(await codeOf(writeOwnFileAtomic(join(dir, 'settings.json'), '{}'))).toBe('WRITE_FAILED');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
    expect(lstatSync(join(dir, 'settings.json')).isSymbolicLink()).toBe(true);
  });

  it('refuses a file its owner made read-only (mode bits, not EACCES: root too), directly or through a link', async () => {
    const real = join(dir, 'real.json');
    writeFileSync(real, '{}\n');
    chmodSync(real, 0o444);
    symlinkSync(real, join(dir, 'settings.json'));
    for (const path of [real, join(dir, 'settings.json')])
      expect(await codeOf(writeOwnFileAtomic(path, '{"x":1}'))).toBe('WRITE_FAILED');
    expect(readFileSync(real, 'utf8')).toBe('{}\n');
    chmodSync(real, 0o644);
    await writeOwnFileAtomic(join(dir, 'settings.json'), '{"x":1}');
    expect(readFileSync(real, 'utf8')).toBe('{"x":1}');
  });
});
