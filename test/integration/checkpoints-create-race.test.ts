/**
 * A store being created is never seen half made. `git init` writes HEAD before the objects
 * directory; a `list` or `gc` that looked in between (they look before taking the lock) took the
 * new store for a damaged one and failed STORE_CORRUPT. The git dir is now built beside its place
 * and renamed into it whole (initCheckpointRepo).
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpoints } from '../helpers/checkpoints.js';
import { repoWithCommit, tempDir } from '../helpers/repo.js';

describe('a store being created', () => {
  it('reads as no store or as a whole store, never as a damaged one', async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const seen: Record<string, number> = {};
    for (let round = 0; round < 6; round++) {
      const home = tempDir('agentgate-cp-create-home-');
      const [maker, reader] = await Promise.all([
        openCheckpoints(ws, { home }),
        openCheckpoints(ws, { home }),
      ]);
      let done = false;
      const tracked = maker.track(`round ${round}`).finally(() => {
        done = true;
      });
      while (!done) {
        const outcome = await reader.list().then(
          (list) => `listed ${list.length}`,
          (error: unknown) => String((error as { code?: string }).code ?? error),
        );
        seen[outcome] = (seen[outcome] ?? 0) + 1;
      }
      await tracked;
      expect((await reader.list()).map((e) => e.label)).toEqual([`round ${round}`]);
      // No building directory is left beside the git dir.
      expect(readdirSync(maker.location.dir).filter((name) => name.includes('.init-'))).toEqual([]);
    }
    expect(Object.keys(seen).filter((outcome) => !outcome.startsWith('listed '))).toEqual([]);
  });

  it("sweeps a killed creation's building directory and creates the store", async () => {
    const ws = repoWithCommit({ 'a.txt': 'one\n' });
    const cp = await openCheckpoints(ws);
    const leftover = join(cp.location.dir, 'git.init-0badc0de');
    mkdirSync(join(leftover, 'refs'), { recursive: true });
    writeFileSync(join(leftover, 'HEAD'), 'ref: refs/heads/main\n');
    await cp.track('A');
    expect(readdirSync(cp.location.dir).filter((name) => name.includes('.init-'))).toEqual([]);
    expect((await cp.list()).map((e) => e.label)).toEqual(['A']);
  });
});
