/**
 * Crashes during checkpoints: `checkpoint track`, `restore` and `revert` SIGKILLed at random
 * moments on a large workspace (see crash-harness.ts for what is checked after every kill).
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckpointEntry, RestoreResult, RevertResult, TrackResult } from '../../types/checkpoint.js';
import { crashLoop, crashWorkspaces, KILLS, LOOP_TIMEOUT_MS } from './crash-harness.js';
import {
  applyContents,
  blobIds,
  checkpointStores,
  cliAsync,
  contentProblems,
  fsckProblems,
  mutate,
  okJson,
  report,
  rng,
  SEED,
  treeBlobs,
  type CliRun,
  type Contents,
} from './support.js';

const { contents: templateContents, setup } = crashWorkspaces('agentgate-crash-cp-');

function storeOf(home: string): { gitDir: string; indexFile: string } {
  const stores = checkpointStores(home);
  expect(stores).toHaveLength(1);
  return stores[0] as { gitDir: string; indexFile: string };
}

function storeLock(home: string): string[] {
  return checkpointStores(home).map((s) => join(s.gitDir, '..', 'lock'));
}

/** The checkpoint's tree holds exactly the workspace's files, byte for byte (ids from the oracle git). */
function expectTreeMatches(ws: string, home: string, hash: string, contents: Contents): void {
  const paths = [...contents.keys()].sort();
  expect(Object.fromEntries(treeBlobs(ws, hash, storeOf(home).gitDir))).toEqual(
    Object.fromEntries(blobIds(ws, paths)),
  );
}

describe('SIGKILL during checkpoint track', () => {
  it(
    `survives ${KILLS} kills: store valid, work tree intact, fsck clean, next call succeeds`,
    { timeout: LOOP_TIMEOUT_MS },
    async () => {
      const { ws, home, env } = setup('track');
      const rand = rng(SEED + 21);
      let contents = templateContents();
      const figures = await crashLoop(
        {
          name: 'checkpoint track',
          workspace: ws,
          home,
          env,
          lockFiles: () => storeLock(home),
          prepare(k) {
            const edit = mutate(contents, rand, k + 1, { modify: 200, add: 10, remove: 10 });
            applyContents(ws, contents, edit.next);
            contents = edit.next;
            return { args: ['checkpoint', 'track', '--label', `k${k}`, '--json'], allowed: [contents] };
          },
          check(k, run: CliRun) {
            const result = okJson<TrackResult>(run, `track ${k}`);
            expect(result.skipped).toEqual([]);
            expectTreeMatches(ws, home, result.hash, contents);
          },
        },
        3,
      );
      const list = okJson<CheckpointEntry[]>(
        await cliAsync(['checkpoint', 'list', '--json'], { cwd: ws, env }),
        'list',
      );
      expect(list.length).toBeGreaterThanOrEqual(figures.attempts + 2);
      report('crash', figures);
    },
  );
});

/**
 * Restore and revert flip the workspace between two checkpointed states A and B. After a kill every
 * file is in A or in B (never half-written, never lost); the next call finishes the job exactly.
 */
function flipping(command: 'restore' | 'revert', seedOffset: number): void {
  describe(`SIGKILL during checkpoint ${command}`, () => {
    it(
      `survives ${KILLS} kills: store valid, every file in the old or the new state, fsck clean, next call succeeds`,
      { timeout: LOOP_TIMEOUT_MS },
      async () => {
        const { ws, home, env } = setup(command);
        const rand = rng(SEED + seedOffset);
        const track = async (label: string): Promise<string> =>
          okJson<TrackResult>(
            await cliAsync(['checkpoint', 'track', '--label', label, '--json'], { cwd: ws, env }),
            'track',
          ).hash;
        const a = templateContents();
        const hashA = await track('A');
        const b = mutate(a, rand, 1, { modify: 400, add: 30, remove: 30 }).next;
        applyContents(ws, a, b);
        const hashB = await track('B');
        expect(fsckProblems(ws, storeOf(home))).toBeNull();

        let current = b;
        let target = a;
        const figures = await crashLoop(
          {
            name: `checkpoint ${command}`,
            workspace: ws,
            home,
            env,
            lockFiles: () => storeLock(home),
            prepare() {
              target = current === a ? b : a;
              return {
                args: ['checkpoint', command, target === a ? hashA : hashB, '--json'],
                allowed: [a, b],
              };
            },
            check(k, run: CliRun) {
              const result = okJson<RestoreResult | RevertResult>(run, `${command} ${k}`);
              expect(result.leftAlone).toEqual([]);
              expect(contentProblems(ws, [target])).toEqual([]);
              current = target;
            },
          },
          seedOffset,
        );
        report('crash', figures);
      },
    );
  });
}

flipping('restore', 22);
flipping('revert', 23);
