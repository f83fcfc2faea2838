/**
 * Concurrency through the CLI: many orchestrators sharing one home, two processes snapshotting the
 * same repository at once, and checkpoint track racing checkpoint gc on one store. Every call either
 * succeeds or fails with LOCK_TIMEOUT; nothing is lost, nothing is corrupt.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckpointEntry, RestoreResult, TrackResult } from '../../types/checkpoint.js';
import type { RunRecord } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import { CLI } from '../helpers/cli.js';
import { git, repoWithCommit, tempDir, writeFiles } from '../helpers/repo.js';
import {
  blobIds,
  byStress,
  checkpointStores,
  cliAsync,
  fsckProblems,
  homeProblems,
  okJson,
  readWorkspace,
  report,
  treeBlobs,
  type CliRun,
} from './support.js';

const ORCHESTRATOR = new URL('./orchestrator.sh', import.meta.url).pathname;

/** The error code of a failed `--json` call. */
function codeOf(run: CliRun): string {
  if (run.status === 0) return 'OK';
  try {
    return (JSON.parse(run.stdout) as { error: { code: string } }).error.code;
  } catch {
    return `unparsable (status ${run.status}): ${run.stdout}${run.stderr}`;
  }
}

function orchestrate(
  ws: string,
  runId: string,
  iterations: number,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; output: string }> {
  const child = spawn('bash', [ORCHESTRATOR, process.execPath, CLI, ws, runId, String(iterations)], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, output })));
}

describe('8 orchestrators sharing one home', () => {
  const PROCESSES = 8;
  const ITERATIONS = 10;

  it(
    `stores all ${PROCESSES * ITERATIONS} snapshots, every run complete and ordered, verify --all clean`,
    { timeout: 600_000 },
    async () => {
      const home = tempDir('agentgate-conc-home-');
      const env = { AGENTGATE_HOME: home };
      const workspaces = Array.from({ length: PROCESSES }, (_, i) =>
        repoWithCommit({ 'README.md': `workspace ${i}\n` }),
      );
      const results = await Promise.all(
        workspaces.map((ws, i) => orchestrate(ws, `orch-${i}`, ITERATIONS, env)),
      );
      results.forEach((r, i) => expect(r.code, `orchestrator ${i}: ${r.output}`).toBe(0));

      const snapshots = okJson<Snapshot[]>(await cliAsync(['list', '--json'], { env }), 'list');
      expect(snapshots).toHaveLength(PROCESSES * ITERATIONS);
      const runs = okJson<RunRecord[]>(await cliAsync(['runs', '--json'], { env }), 'runs');
      expect(runs).toHaveLength(PROCESSES);
      for (const [i, ws] of workspaces.entries()) {
        const run = runs.find((r) => r.runId === `orch-${i}`) as RunRecord;
        const mine = run.snapshotIds.map((id) => snapshots.find((s) => s.id === id) as Snapshot);
        expect(mine.map((s) => s.iteration)).toEqual(Array.from({ length: ITERATIONS }, (_, k) => k + 1));
        // Each iteration's snapshot holds exactly that iteration's edit, and the chain is unbroken.
        mine.forEach((s, k) => {
          expect(s.files.map((f) => f.path).sort()).toEqual([`iteration-${k + 1}.txt`, 'progress.txt']);
          if (k > 0) expect(s.beforeSha).toBe(mine[k - 1]?.afterSha);
        });
        expect(mine.at(-1)?.afterSha).toBe(git(ws, ['rev-parse', 'HEAD']));
        expect(fsckProblems(ws)).toBeNull();
      }
      const verify = await cliAsync(['verify', '--all', '--json'], { env });
      expect(verify.status, verify.stdout).toBe(0);
      expect(homeProblems(home)).toEqual([]);
      report('concurrency', {
        case: 'orchestrators',
        processes: PROCESSES,
        iterations: ITERATIONS,
        snapshots: snapshots.length,
        runs: runs.length,
      });
    },
  );
});

describe('two processes snapshotting the same repository at once', () => {
  const ROUNDS = byStress(4, 12);

  it(
    `are serialised or one gets LOCK_TIMEOUT; never a corrupt index or a lost link (${ROUNDS} rounds)`,
    { timeout: 600_000 },
    async () => {
      const ws = repoWithCommit({ 'a.txt': 'start\n' });
      const home = tempDir('agentgate-same-home-');
      const env = { AGENTGATE_HOME: home };
      // Odd rounds wait at most 1 ms for the repository lock, so that the loser times out.
      const impatient = join(tempDir('agentgate-same-cfg-'), 'config.yaml');
      writeFileSync(impatient, 'lockTimeoutMs: 1\n');
      const outcomes: Record<string, number> = {};
      const stored: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const config = round % 2 === 1 ? ['--config', impatient] : [];
        // Two befores race on a dirty tree: exactly one WIP commit, or one LOCK_TIMEOUT.
        writeFiles(ws, { [`dirty-${round}.txt`]: `dirty ${round}\n` });
        const befores = await Promise.all(
          [0, 1].map(() => cliAsync(['before', '--run', 'same', '-C', ws, '--json', ...config], { env })),
        );
        // Then two afters on the agent's edit.
        writeFiles(ws, { 'a.txt': `round ${round}\n`, [`new-${round}.txt`]: `new ${round}\n` });
        const afters = await Promise.all(
          [0, 1].map((j) =>
            cliAsync(
              ['after', '--run', 'same', '--iteration', String(2 * round + j), '-C', ws, '--json', ...config],
              { env },
            ),
          ),
        );
        for (const run of [...befores, ...afters]) {
          const code = codeOf(run);
          // One before is used up by one after: the other after of the round has none of its own, or,
          // when the higher iteration went first, would go backwards.
          const allowed = afters.includes(run)
            ? ['OK', 'LOCK_TIMEOUT', 'NO_BEFORE_STATE', 'ITERATION_OUT_OF_ORDER']
            : ['OK', 'LOCK_TIMEOUT'];
          expect(allowed, `${run.stdout}${run.stderr}`).toContain(code);
          outcomes[code] = (outcomes[code] ?? 0) + 1;
        }
        expect(befores.some((r) => r.status === 0)).toBe(true);
        expect(afters.some((r) => r.status === 0)).toBe(true);
        for (const run of afters) if (run.status === 0) stored.push((JSON.parse(run.stdout) as Snapshot).id);

        // The repository is sound and usable, HEAD holds the edit, and every stored snapshot is linked.
        expect(fsckProblems(ws)).toBeNull();
        expect(git(ws, ['status', '--porcelain'])).toBe('');
        expect(git(ws, ['show', 'HEAD:a.txt'])).toBe(`round ${round}`);
        const run = okJson<RunRecord[]>(await cliAsync(['runs', '--json'], { env }), 'runs')[0] as RunRecord;
        expect(run.snapshotIds).toEqual(stored);
      }
      const verify = await cliAsync(['verify', '--all', '--json'], { env });
      expect(verify.status, verify.stdout).toBe(0);
      expect(outcomes.OK).toBeGreaterThan(0);
      report('concurrency', {
        case: 'same-repository',
        rounds: ROUNDS,
        calls: 4 * ROUNDS,
        outcomes,
        snapshots: stored.length,
      });
    },
  );
});

describe('checkpoint track racing checkpoint gc on one store', () => {
  const WAVES = byStress(3, 8);

  it(
    `both succeed or time out cleanly; the store stays consistent and every listed checkpoint restores (${WAVES} waves)`,
    { timeout: 600_000 },
    async () => {
      const files = Object.fromEntries(
        Array.from({ length: 200 }, (_, i) => [`src/f${i}.txt`, `file ${i}\n`.repeat(20)]),
      );
      const ws = repoWithCommit(files);
      const home = tempDir('agentgate-cpconc-home-');
      const env = { AGENTGATE_HOME: home };
      const outcomes: Record<string, number> = {};
      for (let wave = 0; wave < WAVES; wave++) {
        writeFiles(ws, { [`src/f${wave}.txt`]: `wave ${wave}\n`, [`wave-${wave}.txt`]: `${wave}\n` });
        const calls = [
          ...[0, 1, 2, 3].map((j) =>
            cliAsync(['checkpoint', 'track', '--label', `w${wave}-${j}`, '-C', ws, '--json'], { env }),
          ),
          ...[0, 1].map(() =>
            cliAsync(['checkpoint', 'gc', '--keep', '3', '--prune', 'now', '-C', ws, '--json'], { env }),
          ),
        ];
        for (const run of await Promise.all(calls)) {
          const code = codeOf(run);
          expect(['OK', 'LOCK_TIMEOUT'], `${run.stdout}${run.stderr}`).toContain(code);
          outcomes[code] = (outcomes[code] ?? 0) + 1;
        }
        for (const store of checkpointStores(home)) expect(fsckProblems(ws, store)).toBeNull();
      }
      // Every checkpoint still listed restores, and the workspace then holds exactly its tree.
      const listed = okJson<CheckpointEntry[]>(
        await cliAsync(['checkpoint', 'list', '-C', ws, '--json'], { env }),
        'list',
      );
      expect(listed.length).toBeGreaterThan(0);
      const [store] = checkpointStores(home);
      for (const entry of listed) {
        okJson<RestoreResult>(
          await cliAsync(['checkpoint', 'restore', entry.hash, '-C', ws, '--json'], { env }),
          `restore ${entry.hash}`,
        );
        const expected = treeBlobs(ws, entry.hash, store?.gitDir);
        const paths = [...readWorkspace(ws).keys()].sort();
        expect(Object.fromEntries(blobIds(ws, paths))).toEqual(Object.fromEntries(expected));
      }
      const tracked = okJson<TrackResult>(
        await cliAsync(['checkpoint', 'track', '-C', ws, '--json'], { env }),
        'final track',
      );
      expect(tracked.hash).toMatch(/^[0-9a-f]{40}$/);
      expect(homeProblems(home)).toEqual([]);
      report('concurrency', {
        case: 'track-vs-gc',
        waves: WAVES,
        calls: WAVES * 6,
        outcomes,
        checkpointsRestored: listed.length,
      });
    },
  );
});
