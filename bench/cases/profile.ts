// Where the time goes: one untimed iteration of the library and one of the CLI on the largest
// repository, with every git process recorded by the PATH wrapper (bench/trace.ts). Reports the
// calls in order, how long git ran, and how much of the wall time was spent outside git.
import { Checkpoints } from '../../src/checkpoints/index.js';
import { run } from '../git.js';
import { applyWorkload, ensureRepo, resetRepo } from '../repos.js';
import { scratch, timed, type Bench } from '../results.js';
import { createTracer, withTracer, type GitCall, type Tracer } from '../trace.js';
import { benchSnapshotter, CLI } from './iteration.js';

export interface PhaseProfile {
  wallMs: number;
  gitMs: number;
  calls: Array<{ command: string; ms: number; gapMs: number; args: string }>;
}

export interface IterationProfile {
  files: number;
  /** "library before", "library after", "cli before", "cli after", "checkpoint track". */
  phases: Record<string, PhaseProfile>;
}

/** Calls in start order, with the time since the previous call ended (time spent outside git). */
function phase(wallMs: number, calls: GitCall[], startMs: number): PhaseProfile {
  const sorted = [...calls].sort((a, b) => a.startMs - b.startMs);
  let prevEnd = startMs;
  const out = sorted.map((c) => {
    const gap = Math.max(0, c.startMs - prevEnd);
    prevEnd = Math.max(prevEnd, c.startMs + c.ms);
    return { command: c.command, ms: round(c.ms), gapMs: round(gap), args: shorten(c.args) };
  });
  return { wallMs: round(wallMs), gitMs: round(sorted.reduce((s, c) => s + c.ms, 0)), calls: out };
}

async function traced<T>(tracer: Tracer, fn: () => Promise<T>): Promise<{ value: T; profile: PhaseProfile }> {
  await tracer.reset();
  const startMs = Date.now();
  const t = await withTracer(tracer, () => timed(fn));
  return { value: t.value, profile: phase(t.ms, await tracer.read(), startMs) };
}

export async function profileCase(bench: Bench): Promise<void> {
  const size = Math.max(...bench.sizes);
  const repo = await ensureRepo(size, bench.log);
  resetRepo(repo);
  bench.log(`profile: git processes of one library and one CLI iteration @ ${size} files`);
  const tracer = await createTracer(await scratch('trace'));
  const home = await scratch('home-profile');
  const snapshotter = benchSnapshotter(home);

  const lb = await traced(tracer, () => snapshotter.captureBeforeState(repo.dir, { runId: 'profile-lib' }));
  const w1 = await applyWorkload(repo, 'profile-lib');
  const la = await traced(tracer, () =>
    snapshotter.captureAfterState(repo.dir, lb.value, {
      runId: 'profile-lib',
      iteration: 1,
      taskPrompt: 'p',
      gatePlanSource: 'p',
    }),
  );
  resetRepo(repo, w1.created);

  // The CLI child inherits PATH from this process, so the wrapper sees its git calls too.
  const cli = (args: string[]): Promise<string> =>
    run(CLI, [...args, '--home', home, '-C', repo.dir, '--json'], {
      env: { ...process.env },
    });
  const cb = await traced(tracer, () => cli(['before', '--run', 'profile-cli']));
  const w2 = await applyWorkload(repo, 'profile-cli');
  const ca = await traced(tracer, () => cli(['after', '--run', 'profile-cli', '--iteration', '1']));
  resetRepo(repo, w2.created);

  // A checkpoint after one workload, on a store whose index already holds the previous state.
  await (await Checkpoints.open(repo.dir, { home })).track('warm');
  const w3 = await applyWorkload(repo, 'profile-track');
  const ct = await traced(tracer, async () => (await Checkpoints.open(repo.dir, { home })).track());
  resetRepo(repo, w3.created);

  const phases = {
    'library before': lb.profile,
    'library after': la.profile,
    'cli before': cb.profile,
    'cli after': ca.profile,
    'checkpoint track': ct.profile,
  };
  const profile: IterationProfile = { files: size, phases };
  bench.facts.profile = profile;
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

/** Drops the hardening `-c` pairs and the git dir from the recorded arguments: they are the same on every call. */
function shorten(args: string): string {
  return args
    .replace(/(^| )-c \S+/g, '')
    .replace(/--(git-dir|work-tree)=\S+ ?/g, '')
    .trim()
    .slice(0, 120);
}
