/**
 * A captured directory that becomes a repository of its own (`git init` in it) while nothing in it
 * changes: git does not report it as nested (the store's index holds its files), yet restore and
 * revert must leave its files alone, and their safety checkpoint must not take them for the project's.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openCheckpoints, sessionHooks } from '../helpers/checkpoints.js';
import { okIn } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';

const read = (ws: string, path: string): string => readFileSync(join(ws, path), 'utf8');
const gitInit = (dir: string): void => void git(dir, ['init', '-q']);

describe('a directory become a repository with nothing in it changed', () => {
  it('the CLI: revert of a file in it leaves it alone, and so does the undo', () => {
    const ws = repoWithCommit({ 'v/x': 'x\n', k: 'k\n' });
    const home = tempDir('agentgate-cp-home-');
    const t1 = okIn<{ hash: string }>(ws, home, ['checkpoint', 'track']).hash;
    writeFiles(ws, { 'v/x': 'x1 precious\n' });
    okIn(ws, home, ['checkpoint', 'track']);
    gitInit(join(ws, 'v'));

    const r = okIn<{ reverted: string[]; leftAlone: string[]; safety: string }>(ws, home, [
      'checkpoint',
      'revert',
      t1,
      'v/x',
    ]);
    expect(r).toMatchObject({ reverted: [], leftAlone: [join(ws, 'v/x')] });
    expect(read(ws, 'v/x')).toBe('x1 precious\n');
    okIn(ws, home, ['checkpoint', 'restore', r.safety]);
    expect(read(ws, 'v/x')).toBe('x1 precious\n');
    // The restore's capture saw the repository: later ones skip it as nested.
    expect(okIn<{ skipped: unknown[] }>(ws, home, ['checkpoint', 'track']).skipped).toEqual([
      { path: join(ws, 'v'), reason: 'nested-repository', size: null },
    ]);
  });

  it('restore and revert of the whole workspace, the files never tracked by the outer repository', async () => {
    const ws = repoWithCommit({ k: 'k\n' });
    writeFiles(ws, { 'v/x': 'x\n' }); // untracked by the outer repository, captured by checkpoints
    const cp = await openCheckpoints(ws);
    const t1 = await cp.track('T1');
    writeFiles(ws, { 'v/x': 'x1 precious\n', k: 'k1\n' });
    await cp.track('T2');
    gitInit(join(ws, 'v'));

    const reverted = await cp.revert(t1.hash);
    expect(reverted).toMatchObject({ reverted: [join(ws, 'k')], leftAlone: [join(ws, 'v/x')] });
    writeFiles(ws, { k: 'k2\n' });
    const restored = await cp.restore(t1.hash);
    expect(restored.leftAlone).toEqual([join(ws, 'v/x')]);
    expect([read(ws, 'v/x'), read(ws, 'k')]).toEqual(['x1 precious\n', 'k\n']);
    await cp.restore(reverted.safety);
    expect([read(ws, 'v/x'), read(ws, 'k')]).toEqual(['x1 precious\n', 'k1\n']);
  });

  it('restore --prompt: the dry run and the real run leave the file alone alike, forced or not', async () => {
    for (const force of [false, true]) {
      const ws = repoWithCommit({ 'v/x': 'x\n', k: 'k\n' });
      const cp = await openCheckpoints(ws);
      const s = sessionHooks(cp, 'A');
      await s.start();
      await s.prompt();
      writeFiles(ws, { 'v/x': 'agent\n', k: 'k1\n' });
      await s.tool();
      gitInit(join(ws, 'v'));

      const plan = await cp.restorePrompt(1, 'A', { dryRun: true, force });
      const real = await cp.restorePrompt(1, 'A', { force });
      expect(real.restored).toEqual([join(ws, 'k')]);
      expect(read(ws, 'v/x')).toBe('agent\n');
      const { restored, deleted, conflicts, leftAlone } = real;
      expect(plan).toMatchObject({ restored, deleted, conflicts, leftAlone });
    }
  });

  it('restore --prompt: the dry run lists a new file below a directory now a repository, as the real run does', async () => {
    const ws = repoWithCommit({ 'v/x': 'x\n', k: 'k\n' });
    const cp = await openCheckpoints(ws);
    const s = sessionHooks(cp, 'A');
    await s.start();
    await s.prompt();
    writeFiles(ws, { 'v/new': 'new\n', k: 'k1\n' });
    await s.tool();
    gitInit(join(ws, 'v'));
    writeFiles(ws, { 'v/x': 'x\nt\n' });

    const plan = await cp.restorePrompt(1, 'A', { dryRun: true });
    const real = await cp.restorePrompt(1, 'A');
    expect(real.leftAlone).toEqual([join(ws, 'v/new')]);
    expect(plan.leftAlone).toEqual(real.leftAlone);
    expect(plan.restored).toEqual(real.restored);
    expect(read(ws, 'v/new')).toBe('new\n');
  });
});
