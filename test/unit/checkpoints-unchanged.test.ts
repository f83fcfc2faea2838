/**
 * The check a restore makes right before it replaces or removes a path (stillCaptured), and the
 * place in a write where it is asked (placeFiles' stillWanted: once the temp file is written, just
 * before the rename).
 */
import { chmodSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stillCaptured } from '../../src/checkpoints/unchanged.js';
import { placeFiles } from '../../src/fs/place.js';
import type { TreeEntry } from '../../src/git/parsers/ls-tree.js';
import { objectId } from '../../src/git/record-objects.js';
import { tempDir } from '../helpers/repo.js';

const blob = (
  path: string,
  content: string,
  mode = '100644',
  format: 'sha1' | 'sha256' = 'sha1',
): TreeEntry => ({
  path,
  oid: objectId(format, 'blob', Buffer.from(content)),
  mode,
  type: 'blob',
});

describe('stillCaptured', () => {
  it('holds while kind, executable bit and content are the captured ones, and nothing stands where nothing was', async () => {
    const dir = tempDir('agentgate-unchanged-');
    const file = join(dir, 'a.txt');
    writeFileSync(file, 'captured\n');
    expect(await stillCaptured(file, blob('a.txt', 'captured\n'))).toBe(true);
    expect(await stillCaptured(file, blob('a.txt', 'captured\n', '100644', 'sha256'))).toBe(true);
    expect(await stillCaptured(file, blob('a.txt', 'captured\n', '100755'))).toBe(false);
    expect(await stillCaptured(file, undefined)).toBe(false);
    writeFileSync(file, 'captureD\n'); // same size, another content
    expect(await stillCaptured(file, blob('a.txt', 'captured\n'))).toBe(false);
    chmodSync(file, 0o755);
    expect(await stillCaptured(file, blob('a.txt', 'captureD\n'))).toBe(false);
    expect(await stillCaptured(file, blob('a.txt', 'captureD\n', '100755'))).toBe(true);

    const link = join(dir, 'link');
    symlinkSync('a.txt', link);
    expect(await stillCaptured(link, blob('link', 'a.txt', '120000'))).toBe(true);
    expect(await stillCaptured(link, blob('link', 'captureD\n', '100755'))).toBe(false); // not followed
    expect(await stillCaptured(join(dir, 'gone'), undefined)).toBe(true);
    expect(await stillCaptured(join(dir, 'gone'), blob('gone', ''))).toBe(false);
    mkdirSync(join(dir, 'd'));
    expect(await stillCaptured(join(dir, 'd'), blob('d', ''))).toBe(false);
  });
});

describe('placeFiles stillWanted', () => {
  it('is asked with the temp file written, just before the rename; false leaves the destination and no temp file', async () => {
    const root = tempDir('agentgate-place-');
    const staging = join(root, '.staging');
    mkdirSync(staging);
    writeFileSync(join(root, 'kept.txt'), 'theirs\n');
    const temps: string[][] = [];
    const declined = await placeFiles(root, staging, [
      {
        dest: join(root, 'kept.txt'),
        kind: 'file',
        content: Buffer.from('ours\n'),
        stillWanted: async () => {
          temps.push(readdirSync(staging));
          return false;
        },
      },
      {
        dest: join(root, 'new.txt'),
        kind: 'file',
        content: Buffer.from('ours\n'),
        stillWanted: async () => true,
      },
    ]);
    expect(declined.map((d) => d.dest)).toEqual([join(root, 'kept.txt')]);
    expect(temps[0]).toHaveLength(1);
    expect(readFileSync(join(root, 'kept.txt'), 'utf8')).toBe('theirs\n');
    expect(readFileSync(join(root, 'new.txt'), 'utf8')).toBe('ours\n');
    expect(readdirSync(staging)).toEqual([]);
  });
});
