/**
 * A check may remove what we write while it runs: `git clean -fdx` (a common first step of a CI
 * script) removes an artifacts directory kept inside the workspace where git ignores it, the gate's
 * log being written there included. The verdict is still recorded, and its log is kept whole.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Gates } from '../../src/gates/gates.js';
import { quiet } from '../helpers/gates.js';
import { repoWithCommit, writeFiles } from '../helpers/repo.js';
import { newSnapshotter } from '../helpers/snapshotter.js';

describe('a check that removes the artifacts directory while it runs', () => {
  it('git clean -fdx of an artifacts directory in the workspace: the verdict and its whole log are kept', async () => {
    const dir = repoWithCommit({ 'README.md': 'hello\n', '.gitignore': '.art/\n' });
    const snapshotter = newSnapshotter({ artifactsDir: join(dir, '.art') });
    await snapshotter.captureBeforeState(dir, { runId: 'r1' });
    writeFiles(dir, { 'a.txt': 'a\n' });
    await snapshotter.captureAfterState(dir, null, { runId: 'r1', iteration: 1 });
    const gates = new Gates(snapshotter);
    const result = await gates.run(dir, {
      runId: 'r1',
      name: 'clean',
      command: ['sh', '-c', 'echo before; git clean -fdxq; echo after'],
      echo: quiet(),
    });
    expect(result).toMatchObject({ verdict: 'pass', exitCode: 0, attempt: 1 });
    const log = result.log?.path ?? '';
    expect(log).toBe(join(dir, '.art', 'r1', 'iteration-1', 'gate-clean-1.log'));
    const text = readFileSync(log);
    expect(text.toString()).toBe('before\nafter\n');
    expect(result.log).toMatchObject({
      sha256: createHash('sha256').update(text).digest('hex'),
      bytes: text.length,
    });
    // The run's artifacts directory is made ours again (marked, so never committed).
    expect(existsSync(join(dir, '.art', 'r1', '.gitignore'))).toBe(true);
    // And the next attempt is numbered after it.
    const again = await gates.run(dir, { runId: 'r1', name: 'clean', command: ['true'], echo: quiet() });
    expect(again.attempt).toBe(2);
  });
});
