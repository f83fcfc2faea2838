/**
 * The kill loop shared by the crash suites: SIGKILL one CLI command at a random moment of its
 * typical duration, judge what the kill left behind, then prove that the next call of the same
 * command succeeds with no clean-up by hand.
 */
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect } from 'vitest';
import { git, tempDir } from '../helpers/repo.js';
import {
  byStress,
  checkpointStores,
  cliAsync,
  contentProblems,
  fsckProblems,
  homeProblems,
  leftoverTemps,
  makeLargeRepo,
  okJson,
  rng,
  runAndKill,
  SEED,
  type CliRun,
  type Contents,
  type KillMode,
  type LargeRepoOptions,
} from './support.js';

/** Large enough that every command spends a while in git and in the store; one generation per suite. */
export const CRASH_REPO: LargeRepoOptions = {
  files: byStress(1500, 2500),
  lines: 120,
  binaries: 24,
  binaryBytes: 48 * 1024,
};

/** Kills per command: the issue's 50 in full mode, a lighter pass in CI. */
export const KILLS = byStress(8, 50);

/** Test timeout of one kill loop: generous, since CI machines are slow and shared (no wall-clock assertion depends on it). */
export const LOOP_TIMEOUT_MS = byStress(600_000, 3_600_000);

export interface Attempt {
  args: string[];
  /** The states each workspace file may be in after a kill (every file equals one of them). */
  allowed: Contents[];
}

export interface CrashCase {
  name: string;
  workspace: string;
  home: string;
  env: NodeJS.ProcessEnv;
  /** Sets the workspace up for attempt `k` and says what to run. */
  prepare(k: number): Promise<Attempt> | Attempt;
  /** Checks the result of a call that ran to completion (the measuring call, and every recovery). */
  check(k: number, run: CliRun): Promise<void> | void;
  /** Lock files whose presence after a kill shows it landed inside the critical section. */
  lockFiles: () => string[];
  /** The call that follows a kill, when it is not the killed command again (iterate is finished by after). */
  recover?(k: number): Promise<CliRun>;
}

export interface CrashFigures {
  command: string;
  kills: number;
  attempts: number;
  finishedFirst: number;
  staleLocks: number;
  staleIndexLocks: number;
  recoveries: number;
  typicalMs: number;
  leaderOnlyKills: number;
  /** Temporary files the kills left behind (never read; see docs/reliability.md). */
  strayTempFiles: number;
}

/**
 * Measures the command once, then kills it KILLS times. After every kill: every JSON file in the
 * home validates, every workspace file is in one of the allowed states, `git fsck` of the workspace
 * and of every checkpoint store is clean; then the same command, run again as is, succeeds.
 */
export async function crashLoop(c: CrashCase, seedOffset: number): Promise<CrashFigures> {
  const rand = rng(SEED + seedOffset);
  const run = (args: string[]) => cliAsync(args, { cwd: c.workspace, env: c.env });

  // Two calls run to completion first: the first may do one-off work (a new checkpoint store), the
  // second gives the typical duration that kill times are drawn from.
  let typicalMs = 0;
  for (const k of [0, 1]) {
    const attempt = await c.prepare(k);
    const started = Date.now();
    const measured = await run(attempt.args);
    typicalMs = Date.now() - started;
    await c.check(k, measured);
  }

  const timing = { prepare: 0, killed: 0, checks: 0, recovery: 0 };
  const figures: CrashFigures = {
    command: c.name,
    kills: 0,
    attempts: 0,
    finishedFirst: 0,
    staleLocks: 0,
    staleIndexLocks: 0,
    recoveries: 0,
    typicalMs,
    leaderOnlyKills: 0,
    strayTempFiles: 0,
  };
  for (let k = 2; figures.kills < KILLS && figures.attempts < KILLS * 3; k++) {
    const attemptStart = Date.now();
    const attempt = await c.prepare(k);
    const mode: KillMode = k % 3 === 0 ? 'leader' : 'group';
    const prepared = Date.now();
    const outcome = await runAndKill(attempt.args, Math.floor(rand() * typicalMs), mode, {
      cwd: c.workspace,
      env: c.env,
    });
    const killedAt = Date.now();
    timing.prepare += prepared - attemptStart;
    timing.killed += killedAt - prepared;
    figures.attempts += 1;
    const where = `${c.name}, attempt ${k} (${outcome.killed ? `killed, ${mode}` : 'finished first'}, seed ${SEED})`;
    if (!outcome.killed) {
      // It beat the kill: then it must have succeeded like any other call. Its duration bounds the
      // next kill times, so that one slow measuring call (a loaded machine) cannot leave the later,
      // faster calls finishing first until the attempts run out.
      figures.finishedFirst += 1;
      typicalMs = Math.max(1, Math.min(typicalMs, killedAt - prepared));
      await c.check(k, outcome);
      continue;
    }
    figures.kills += 1;
    if (mode === 'leader') figures.leaderOnlyKills += 1;
    if (c.lockFiles().some((f) => existsSync(f))) figures.staleLocks += 1;
    if (existsSync(join(c.workspace, '.git', 'index.lock'))) figures.staleIndexLocks += 1;

    expect(homeProblems(c.home), `store files after ${where}`).toEqual([]);
    expect(contentProblems(c.workspace, attempt.allowed), `workspace content after ${where}`).toEqual([]);
    expect(fsckProblems(c.workspace), `git fsck of the workspace after ${where}`).toBeNull();
    for (const store of checkpointStores(c.home))
      expect(fsckProblems(c.workspace, store), `git fsck of the checkpoint store after ${where}`).toBeNull();

    const checked = Date.now();
    const recovery = await (c.recover ? c.recover(k) : run(attempt.args));
    expect(recovery.status, `the next call after ${where}: ${recovery.stdout}${recovery.stderr}`).toBe(0);
    await c.check(k, recovery);
    figures.recoveries += 1;
    timing.checks += checked - killedAt;
    timing.recovery += Date.now() - checked;
  }
  expect(figures.kills, `kills of ${c.name} (${figures.attempts} attempts)`).toBe(KILLS);
  const gitDirTemps = readdirSync(join(c.workspace, '.git')).filter((n) => n.endsWith('.tmp'));
  figures.strayTempFiles = leftoverTemps(c.home).length + gitDirTemps.length;
  if (process.env.AGENTGATE_STRESS_TIMING)
    console.log(`[reliability] timing ${c.name}: ${JSON.stringify(timing)}`);
  return figures;
}

export { okJson };

/**
 * The repository a crash suite works on: generated once (in beforeAll), then cloned privately for
 * each command, with a home of its own. `contents()` is the generated repository's file set.
 */
export function crashWorkspaces(prefix: string): {
  contents: () => Contents;
  setup: (name: string) => { ws: string; home: string; env: NodeJS.ProcessEnv };
} {
  const root = tempDir(prefix);
  const template = join(root, 'template');
  let generated: Contents | null = null;
  beforeAll(() => {
    generated = makeLargeRepo(template, CRASH_REPO);
  }, 120_000);
  return {
    contents: () => generated as Contents,
    setup: (name) => {
      const ws = join(root, name);
      git(root, ['clone', '-q', '--no-hardlinks', template, ws]);
      const home = join(root, `${name}-home`);
      return { ws, home, env: { AGENTGATE_HOME: home } };
    },
  };
}
