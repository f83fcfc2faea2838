/**
 * Crashes during `iterate`: SIGKILLed at random moments of before, the agent and after on a large
 * repository (see crash-harness.ts for what is checked after every kill). A killed iterate must
 * leave the run where a killed before or after would: `after` for the same iteration finishes it,
 * and NO_BEFORE_STATE from that `after` means the kill came before the before state was recorded,
 * when running iterate again is the way on.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Snapshot } from '../../types/snapshot.js';
import { git, tempDir } from '../helpers/repo.js';
import { crashLoop, crashWorkspaces, KILLS, LOOP_TIMEOUT_MS } from './crash-harness.js';
import {
  cliAsync,
  contentProblems,
  mutate,
  readWorkspace,
  report,
  rng,
  SEED,
  type CliRun,
  type Contents,
} from './support.js';

const { contents: templateContents, setup } = crashWorkspaces('agentgate-crash-iterate-');

const EDIT = { modify: 150, add: 10, remove: 10 };

/** The agent: applies a plan (files to write, files to remove), then works a little longer. */
const AGENT = `
const fs = require('fs');
const path = require('path');
const plan = JSON.parse(fs.readFileSync(process.argv[1], 'utf8'));
const scratch = process.argv[1] + '.tmp';
for (const p of plan.remove) fs.rmSync(p, { force: true });
for (const [p, data] of Object.entries(plan.write)) {
  fs.mkdirSync(path.dirname(p), { recursive: true });
  // Each file is old or new whenever the agent is killed (a torn file is the agent's, not ours).
  fs.writeFileSync(scratch, Buffer.from(data, 'base64'));
  fs.renameSync(scratch, p);
}
setTimeout(() => {}, 300);
`;

/** Waits until no process runs the agent with this plan (read from /proc: nothing to install). */
async function agentGone(plan: string): Promise<void> {
  const running = () =>
    readdirSync('/proc')
      .filter((pid) => /^\d+$/.test(pid))
      .some((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(plan);
        } catch {
          return false; // gone meanwhile
        }
      });
  while (running()) await new Promise((resolve) => setTimeout(resolve, 50));
}

function writePlan(file: string, from: Contents, to: Contents): void {
  const remove = [...from.keys()].filter((p) => !to.has(p));
  const write = Object.fromEntries(
    [...to]
      .filter(([p, data]) => !from.get(p)?.equals(data))
      .map(([p, data]) => [p, data.toString('base64')]),
  );
  writeFileSync(file, JSON.stringify({ remove, write }));
}

describe('SIGKILL during iterate', () => {
  it(
    `survives ${KILLS} kills in before, the agent and after: store valid, fsck clean, after (or iterate) finishes the iteration`,
    { timeout: LOOP_TIMEOUT_MS },
    async () => {
      const { ws, home, env } = setup('iterate');
      const rand = rng(SEED + 31);
      const plans = tempDir('agentgate-crash-plans-');
      mkdirSync(plans, { recursive: true });
      const runId = 'crash-iterate';
      let contents = templateContents();
      let changed: string[] = [];
      const task = (k: number) => `crash test ${k}`;
      const iterateArgs = (k: number) => [
        'iterate',
        '--run',
        runId,
        '--iteration',
        String(k),
        '--task',
        task(k),
        '--json',
        '--',
        process.execPath,
        '-e',
        AGENT,
        join(plans, `plan-${k}.json`),
      ];

      const figures = await crashLoop(
        {
          name: 'iterate',
          workspace: ws,
          home,
          env,
          lockFiles: () => [join(ws, '.git', 'agentgate.lock')],
          prepare(k) {
            const edit = mutate(contents, rand, k + 1, EDIT);
            writePlan(join(plans, `plan-${k}.json`), contents, edit.next);
            changed = [...edit.changed].sort();
            // A kill during the agent may leave any file old or new.
            const allowed = [contents, edit.next];
            return { args: iterateArgs(k), allowed };
          },
          async recover(k) {
            // A kill of iterate alone (not its group) leaves the agent running, as an orchestrator's
            // would: the recovery starts once that agent is done, as a real one must.
            await agentGone(join(plans, `plan-${k}.json`));
            const after = await cliAsync(
              ['after', '--run', runId, '--iteration', String(k), '--task', task(k), '--json'],
              { cwd: ws, env },
            );
            if (!after.stdout.includes('"NO_BEFORE_STATE"')) return after;
            return cliAsync(iterateArgs(k), { cwd: ws, env });
          },
          check(k, run: CliRun) {
            expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
            const snapshot = JSON.parse(run.stdout) as Snapshot;
            const paths = [
              ...new Set(snapshot.files.flatMap((f) => (f.oldPath ? [f.oldPath, f.path] : [f.path]))),
            ].sort();
            // iterate ran the whole agent; after a kill, after records what the agent got done.
            if (snapshot.agent !== undefined) expect(paths).toEqual(changed);
            else expect(paths.filter((p) => !changed.includes(p))).toEqual([]);
            expect(snapshot.afterSha).toBe(git(ws, ['rev-parse', 'HEAD']));
            // A kill after the before state was recorded but before the agent changed anything leaves
            // nothing to commit: the recovering `after` records an empty iteration, with no message.
            if (snapshot.afterSha !== snapshot.beforeSha)
              expect(snapshot.commitMessage).toContain(`Task: ${task(k)}`);
            expect(git(ws, ['status', '--porcelain=v1', '--untracked-files=all'])).toBe('');
            contents = readWorkspace(ws);
            expect(contentProblems(ws, [contents])).toEqual([]);
          },
        },
        3,
      );

      const verify = await cliAsync(['verify', '--run', runId, '--json'], { cwd: ws, env });
      expect(verify.status, verify.stdout).toBe(0);
      report('crash', figures);
    },
  );
});
