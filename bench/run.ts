// `npm run bench`: every case, one table, the targets, and bench/results/latest.json.
//
//   AGENTGATE_BENCH_SIZES=1000,10000,100000   repository sizes for the iteration and track cases
//   AGENTGATE_BENCH_REPS=5                    timed repetitions per contestant (after one warm-up)
//   AGENTGATE_BENCH_CASES=iteration,track,... run only some cases (names below)
//   AGENTGATE_BENCH_REPORT_MB=577            the text change of the report-memory case (default 200)
//   AGENTGATE_BENCH_JUNIT_MB=500             the JUnit file of the junit-memory case (default 500)
//   AGENTGATE_BENCH_DIR=/tmp/agentgate-bench  where repositories are cached and scratch goes
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { diffFullCase, revertCase, trackCase } from './cases/checkpoints.js';
import { gatesCase } from './cases/gates.js';
import { hookAgentCase } from './cases/hook-agents.js';
import { hookCase, hookStoreCase } from './cases/hooks.js';
import { changeSizeCase, iterateCase, iterationCase } from './cases/iteration.js';
import { junitMemoryCase } from './cases/junit-memory.js';
import { longRunCase } from './cases/long-run.js';
import { memoryCase } from './cases/memory.js';
import { profileCase, type IterationProfile } from './cases/profile.js';
import { provenanceCase } from './cases/provenance.js';
import { reportMemoryCase } from './cases/report-memory.js';
import { sharingCase } from './cases/sharing.js';
import { startupCase } from './cases/startup.js';
import { storeCase } from './cases/store.js';
import { gitVersion } from './git.js';
import { parseCount, parseSizes } from './measure.js';
import { benchRoot } from './repos.js';
import { markdownTable, profileTable, resultTable, splitTable, targetLines, targets } from './report.js';
import { scratchRoot, type Bench } from './results.js';

const CASES: Record<string, (bench: Bench) => Promise<void>> = {
  iteration: iterationCase,
  iterate: iterateCase,
  'long-run': longRunCase,
  'change-size': changeSizeCase,
  track: trackCase,
  difffull: diffFullCase,
  revert: revertCase,
  store: storeCase,
  memory: memoryCase,
  'report-memory': reportMemoryCase,
  'junit-memory': junitMemoryCase,
  profile: profileCase,
  sharing: sharingCase,
  startup: startupCase,
  gates: gatesCase,
  hook: hookCase,
  'hook-store': hookStoreCase,
  'hook-agent': hookAgentCase,
  provenance: provenanceCase,
};

async function main(): Promise<number> {
  const sizes = parseSizes(process.env.AGENTGATE_BENCH_SIZES, [1000, 10_000, 100_000]);
  const reps = parseCount(process.env.AGENTGATE_BENCH_REPS, 5, 'AGENTGATE_BENCH_REPS');
  const selected = (process.env.AGENTGATE_BENCH_CASES ?? Object.keys(CASES).join(','))
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const unknown = selected.filter((c) => !(c in CASES));
  if (unknown.length > 0)
    throw new Error(`unknown case(s) ${unknown.join(', ')}; known: ${Object.keys(CASES).join(', ')}`);
  const started = Date.now();
  const loadBefore = loadavg().map((l) => Math.round(l * 100) / 100);
  const log = (msg: string): void => {
    process.stderr.write(`[bench ${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${msg}\n`);
  };
  const bench: Bench = { reps, sizes, log, rows: [], facts: {} };
  log(
    `sizes ${sizes.join(', ')}; ${reps} repetitions; cases ${selected.join(', ')}; scratch in ${benchRoot()}`,
  );
  await cleanScratch();
  for (const name of selected) await (CASES[name] as (b: Bench) => Promise<void>)(bench);
  await cleanScratch();

  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    git: gitVersion(),
    cores: cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    platform: `${platform()} ${release()}`,
    sizes,
    reps,
    cases: selected,
    durationS: Math.round((Date.now() - started) / 1000),
    /** 1/5/15-minute load averages when the run started and ended: other work on the machine skews timings. */
    loadavg: { start: loadBefore, end: loadavg().map((l) => Math.round(l * 100) / 100) },
  };
  const checked = targets(bench.rows, bench.facts);
  process.stdout.write(
    `\nagentgate-snapshotter benchmark, ${meta.date}\nnode ${meta.node}, git ${meta.git}, ${meta.cores} cores (${meta.cpu}), ${meta.platform}\n`,
  );
  process.stdout.write(
    `load average at start ${meta.loadavg.start.join(' ')}, at end ${meta.loadavg.end.join(' ')}\n`,
  );
  process.stdout.write(
    `medians of ${reps} repetitions; ratio = median / median of the row named in "vs"\n\n`,
  );
  process.stdout.write(`${resultTable(bench.rows)}\n\n`);
  const split = bench.facts.iterationSplit as
    Record<string, Record<string, { beforeMs: number; afterMs: number }>> | undefined;
  if (split) process.stdout.write(`${splitTable(split)}\n\n`);
  const profile = bench.facts.profile as IterationProfile | undefined;
  if (profile) process.stdout.write(`${profileTable(profile)}\n\n`);
  process.stdout.write(`Targets\n${targetLines(checked)}\n`);

  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  await mkdir(dir, { recursive: true });
  const rows = bench.rows.map((r) => ({ ...r, median: Math.round(r.median * 10) / 10 }));
  await writeFile(`${dir}latest.json`, compactJson({ meta, rows, targets: checked, facts: bench.facts }));
  await writeFile(`${dir}latest.md`, `${markdownTable(bench.rows, checked, meta)}\n`);
  process.stdout.write(
    `\nwritten: bench/results/latest.json, bench/results/latest.md (${meta.durationS} s)\n`,
  );
  return 0;
}

/** One line per top-level key and per array element below it: small in git, still readable in a diff. */
function compactJson(doc: Record<string, unknown>): string {
  const parts = Object.entries(doc).map(([key, value]) => {
    const body = Array.isArray(value)
      ? `[\n${value.map((v) => `  ${JSON.stringify(v)}`).join(',\n')}\n ]`
      : JSON.stringify(value);
    return ` ${JSON.stringify(key)}: ${body}`;
  });
  return `{\n${parts.join(',\n')}\n}\n`;
}

/** Scratch directories (homes, stores, outputs) of this and earlier runs; cached repositories stay. */
async function cleanScratch(): Promise<void> {
  await rm(scratchRoot(), { recursive: true, force: true });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(
      `bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  },
);
