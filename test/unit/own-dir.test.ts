import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeOwnDir, OWN_DIR_GITIGNORE } from '../../src/fs/own-dir.js';
import { codeOf } from '../helpers/codes.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentgate-own-dir-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('makeOwnDir', () => {
  it('makes a missing directory and its parents, marked with a .gitignore of *, and nothing beside it', async () => {
    const target = join(dir, 'a', 'b');
    expect(await makeOwnDir(target)).toBe(true);
    expect(readdirSync(target)).toEqual(['.gitignore']);
    expect(readFileSync(join(target, '.gitignore'), 'utf8')).toBe(OWN_DIR_GITIGNORE);
    expect(OWN_DIR_GITIGNORE.split('\n')).toContain('*');
    expect(readdirSync(join(dir, 'a'))).toEqual(['b']);
  });

  it('leaves a directory that is already there as it is', async () => {
    mkdirSync(join(dir, 'mine'));
    writeFileSync(join(dir, 'mine', 'file.txt'), 'mine\n');
    expect(await makeOwnDir(join(dir, 'mine'))).toBe(false);
    expect(readdirSync(join(dir, 'mine'))).toEqual(['file.txt']);
  });

  it('made by many at once: one makes it, the others find it, none leaves a half-made directory', async () => {
    const target = join(dir, 'run');
    const made = await Promise.all(Array.from({ length: 8 }, () => makeOwnDir(target)));
    expect(made.filter(Boolean)).toHaveLength(1);
    expect(readdirSync(target)).toEqual(['.gitignore']);
    expect(readdirSync(dir)).toEqual(['run']);
  });

  it('is WRITE_FAILED when a file stands in its path', async () => {
    writeFileSync(join(dir, 'file'), 'x\n');
    expect(await codeOf(makeOwnDir(join(dir, 'file', 'run')))).toBe('WRITE_FAILED');
    expect(readdirSync(dir)).toEqual(['file']);
  });
});
