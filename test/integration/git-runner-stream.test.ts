import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runGitToFile } from '../../src/git/runner.js';
import { codeOf } from '../helpers/codes.js';
import { commitAll, gitRaw, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

describe('runGitToFile (streams stdout to disk)', () => {
  it('writes exactly what git prints and returns the byte count', async () => {
    const dir = repoWithCommit({ 'a.txt': 'one\n' });
    writeFiles(dir, { 'a.txt': 'two\n', 'b.bin': Buffer.from([0, 1, 2, 255]) });
    commitAll(dir, 'second');
    const file = join(tempDir(), 'out.diff');
    const args = ['diff-tree', '-p', '--binary', 'HEAD~1', 'HEAD'];
    const bytes = await runGitToFile({ cwd: dir }, args, file);
    const expected = gitRaw(dir, args);
    expect(readFileSync(file).equals(expected)).toBe(true);
    expect(bytes).toBe(expected.length);
  });

  it('fails with the right code for a git failure, a write failure, a missing git and a timeout', async () => {
    const dir = repoWithCommit();
    const out = tempDir();
    expect(await codeOf(runGitToFile({ cwd: dir }, ['rev-parse', '--verify', 'nope'], join(out, 'a')))).toBe(
      'GIT_FAILED',
    );
    mkdirSync(join(out, 'taken'));
    expect(await codeOf(runGitToFile({ cwd: dir }, ['log'], join(out, 'taken')))).toBe('WRITE_FAILED');
    expect(
      await codeOf(runGitToFile({ cwd: dir, binary: 'git-that-does-not-exist' }, ['log'], join(out, 'b'))),
    ).toBe('GIT_NOT_FOUND');
    const hanging = join(out, 'hanging-git');
    writeFileSync(hanging, '#!/bin/sh\nexec sleep 30\n', { mode: 0o755 });
    expect(
      await codeOf(runGitToFile({ cwd: dir, timeoutMs: 200, binary: hanging }, ['log'], join(out, 'c'))),
    ).toBe('GIT_TIMEOUT');
  });
});
