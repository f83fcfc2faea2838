import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirs } from '../../src/fs/make-dirs.js';
import { tempDir } from '../helpers/repo.js';

describe('makeDirs (mkdir -p that always ends)', () => {
  it('makes every missing level, and takes a directory that is there already', async () => {
    const root = tempDir();
    const deep = join(root, 'a', 'b', 'c');
    await makeDirs(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    await makeDirs(deep);
    mkdirSync(join(root, 'x'));
    await makeDirs(join(root, 'x'));
  });

  it('a file in the way is its error', async () => {
    const root = tempDir();
    writeFileSync(join(root, 'f'), '');
    await expect(makeDirs(join(root, 'f'))).rejects.toMatchObject({ code: 'EEXIST' });
    await expect(makeDirs(join(root, 'f', 'g'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  // Node's own recursive mkdir spins for ever on these (procfs answers ENOENT in a directory that exists).
  it.runIf(process.platform === 'linux')('a directory procfs cannot hold is ENOENT, at once', async () => {
    await expect(makeDirs('/proc/self/agentgate-test/x')).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(makeDirs('/dev/fd/agentgate-test')).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
