// What a case reports, and the small timing helpers every case shares.
import { mkdir, mkdtemp } from 'node:fs/promises';
import { join } from 'node:path';
import { benchRoot } from './repos.js';
import { median, ratio } from './measure.js';

export interface Row {
  /** The case: "iteration", "checkpoint track", "diffFull", ... */
  case: string;
  /** What it ran on: "100000 files", "1000 changed files", "10000 snapshots", ... */
  scale: string;
  /** Who ran it: "library", "cli", "floor", "porcelain", "git show per file", ... */
  contestant: string;
  unit: 'ms' | 'bytes';
  median: number;
  samples: number[];
  /** The contestant this row is compared with (same case and scale), or null. */
  against: string | null;
  ratio: number | null;
  /** Median over repetitions of this contestant's time / the `against` contestant's time in the same repetition. */
  pairedRatio?: number;
  /** Git processes per operation, where counted. */
  gitProcesses: number | null;
  note?: string;
}

export interface Bench {
  reps: number;
  sizes: number[];
  log: (msg: string) => void;
  rows: Row[];
  /** Extra facts for the report (process breakdowns, memory details). */
  facts: Record<string, unknown>;
}

/** Milliseconds elapsed while `fn` runs. */
export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return { ms: Number(process.hrtime.bigint() - start) / 1e6, value };
}

/** Where a run's scratch directories go; the whole directory is removed before and after a run. */
export function scratchRoot(): string {
  return join(benchRoot(), 'scratch');
}

/** A fresh scratch directory (homes, stores, outputs) under scratchRoot(). */
export async function scratch(prefix: string): Promise<string> {
  await mkdir(scratchRoot(), { recursive: true });
  return mkdtemp(join(scratchRoot(), `${prefix}-`));
}

/**
 * Adds one row per contestant of a case and scale, each compared with `against` (its median over
 * the other's). `samples` maps contestant to its measurements.
 */
export function addRows(
  bench: Bench,
  base: { case: string; scale: string; unit?: 'ms' | 'bytes' },
  samples: Record<string, number[]>,
  against: string | null,
  extra: Record<string, { gitProcesses?: number | null; note?: string }> = {},
): void {
  const baseMedian = against === null ? Number.NaN : median(samples[against] ?? []);
  for (const [contestant, values] of Object.entries(samples)) {
    const m = median(values);
    const isBase = contestant === against;
    bench.rows.push({
      case: base.case,
      scale: base.scale,
      contestant,
      unit: base.unit ?? 'ms',
      median: m,
      samples: values.map((v) => Math.round(v * 10) / 10),
      against: against === null || isBase ? null : against,
      ratio: against === null ? null : isBase ? 1 : ratio(m, baseMedian),
      gitProcesses: extra[contestant]?.gitProcesses ?? null,
      ...pairedRatio(values, against === null || isBase ? undefined : samples[against]),
      ...(extra[contestant]?.note ? { note: extra[contestant]?.note } : {}),
    });
  }
}

/**
 * The median of per-repetition ratios, when both contestants have one sample per repetition
 * (they ran interleaved in the same rounds): steadier than a ratio of medians on a loaded machine.
 */
function pairedRatio(
  values: readonly number[],
  base: readonly number[] | undefined,
): { pairedRatio?: number } {
  if (!base || base.length !== values.length || values.length === 0) return {};
  return { pairedRatio: Math.round(median(values.map((v, i) => v / (base[i] as number))) * 100) / 100 };
}
