import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunRecord } from '../../types/run.js';
import { LocalPaths } from '../../src/store/local-paths.js';
import { patchPath } from '../../src/store/paths.js';
import { makeSnapshot, tempHome } from '../helpers/store-fixtures.js';

let root: string;
beforeEach(() => {
  root = tempHome();
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (workspace: string): RunRecord => ({
  runId: 'run1',
  workspace,
  createdAt: '2024-05-01T10:00:00.000Z',
  updatedAt: '2024-05-01T10:00:00.000Z',
  before: null,
  snapshotIds: [],
});

describe('LocalPaths: a record made on another machine, read here', () => {
  it('a record made with this home is returned as it is, without a file check', async () => {
    const artifacts = join(root, 'artifacts');
    const recorded = makeSnapshot({ patchPath: patchPath(artifacts, 'run1', 1), workspace: '/gone' });
    const local = new LocalPaths(artifacts);
    expect(await local.snapshot(recorded)).toBe(recorded);
    expect(await local.run(run('/gone'))).toEqual(run('/gone'));
  });

  it('the patch is found under this artifacts directory, and -C stands in for a workspace that is not here', async () => {
    const artifacts = join(root, 'artifacts');
    const here = patchPath(artifacts, 'run1', 1);
    mkdirSync(dirname(here), { recursive: true });
    writeFileSync(here, 'diff\n');
    const local = new LocalPaths(artifacts, join(root, 'ws'));
    const recorded = makeSnapshot({ patchPath: '/elsewhere/patch.diff', workspace: '/elsewhere/ws' });
    expect(await local.snapshot(recorded)).toMatchObject({ patchPath: here, workspace: join(root, 'ws') });
    expect((await local.run(run('/elsewhere/ws'))).workspace).toBe(join(root, 'ws'));
  });

  it('a recorded workspace that exists here and a patch missing here stay as recorded', async () => {
    const local = new LocalPaths(join(root, 'artifacts'), join(root, 'ws'));
    const recorded = makeSnapshot({ patchPath: '/elsewhere/patch.diff', workspace: root });
    expect(await local.snapshot(recorded)).toEqual(recorded);
    expect((await local.run(run(root))).workspace).toBe(root);
  });
});
