// A 50 MB file: git streams the patch straight to disk (runGitToFile) and the round trip still holds.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { getDiffStats } from '../../src/git/diff-stats.js';
import { openRepo } from '../../src/git/repo.js';
import { writeUnifiedDiffToFile } from '../../src/git/unified-diff.js';
import { commitAll, remove, repoWithCommit, tempDir } from '../helpers/repo.js';
import { fsx, oracleChanges, treeAfterApply, treeOf } from '../helpers/diff-oracle.js';

const SIZE = 50 * 1024 * 1024;
const LINE = 64;

/** 50 MB of distinct 64-byte lines. */
function bigText(): string {
  const count = SIZE / LINE;
  const out: string[] = new Array<string>(count);
  for (let i = 0; i < count; i++)
    out[i] = `line ${String(i).padStart(10, '0')} of a large generated file`.padEnd(LINE - 1, '.') + '\n';
  return out.join('');
}

describe('a 50 MB file', () => {
  it('is added by a patch that is written to a file and applies exactly', async () => {
    const dir = repoWithCommit({ 'small.txt': 'small\n' });
    const before = commitAll(dir, 'before');
    fsx.write(dir, 'big/generated.txt', bigText());
    const after = commitAll(dir, 'after');
    const repo = await openRepo(dir);

    const stats = await getDiffStats(repo, before, after);
    expect(stats).toMatchObject({ filesChanged: 1, insertions: SIZE / LINE, deletions: 0 });
    expect(stats.files).toEqual(oracleChanges(dir, before, after));

    const out = tempDir('agentgate-patch-');
    try {
      const patch = await writeUnifiedDiffToFile(repo, before, after, join(out, 'big.diff'));
      expect(patch.bytes).toBeGreaterThan(SIZE);
      expect(treeAfterApply(dir, before, patch.path)).toBe(treeOf(dir, after));
    } finally {
      // Over 100 MB between the repository and the patch: do not leave it in the CI's temp dir.
      remove(out);
      remove(dir);
    }
  });
});
