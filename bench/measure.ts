// Pure helpers of the benchmark harness: statistics, ratios, target checks, table layout and the
// parsing of `/usr/bin/time -v` output. Nothing here runs a process or reads the clock, so that
// test/unit/bench-utils.test.ts can check it without timing anything.

/** Median of a non-empty sample (mean of the two middle values for an even count). NaN when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** `value / base`, rounded to two decimals; NaN when either is missing or the base is not positive. */
export function ratio(value: number, base: number): number {
  if (!Number.isFinite(value) || !Number.isFinite(base) || base <= 0) return Number.NaN;
  return Math.round((value / base) * 100) / 100;
}

/** Milliseconds for people: one decimal below 100 ms, whole numbers above. */
export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  return ms < 100 ? ms.toFixed(1) : String(Math.round(ms));
}

/** A ratio as `1.08x`; `-` when it could not be computed. */
export function formatRatio(value: number): string {
  return Number.isFinite(value) ? `${value.toFixed(2)}x` : '-';
}

/** Bytes as MiB with one decimal. */
export function formatMiB(bytes: number): string {
  return Number.isFinite(bytes) ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : '-';
}

/** How a target compares a measured value with its limit. */
export type Comparison = 'at-most' | 'below' | 'at-least';

export interface Target {
  /** What is checked, for people. */
  name: string;
  comparison: Comparison;
  limit: number;
  /** Unit of `limit` and `actual` ("x", "processes", "MiB"). */
  unit: string;
  /** Null when the case did not run (a size left out, a command missing). */
  actual: number | null;
}

export type Verdict = 'PASS' | 'FAIL' | 'SKIP';

/** PASS or FAIL for a measured target; SKIP when it was not measured in this run. */
export function verdict(t: Target): Verdict {
  if (t.actual === null || !Number.isFinite(t.actual)) return 'SKIP';
  if (t.comparison === 'at-most') return t.actual <= t.limit ? 'PASS' : 'FAIL';
  if (t.comparison === 'below') return t.actual < t.limit ? 'PASS' : 'FAIL';
  return t.actual >= t.limit ? 'PASS' : 'FAIL';
}

/** `<= 1.15x`, `< 150 MiB`, `>= 10x`. */
export function describeLimit(t: Pick<Target, 'comparison' | 'limit' | 'unit'>): string {
  const op = t.comparison === 'at-most' ? '<=' : t.comparison === 'below' ? '<' : '>=';
  return t.unit === 'x' ? `${op} ${t.limit}x` : `${op} ${t.limit} ${t.unit}`;
}

/** Plain-text table: columns padded to their widest cell, numbers (cells starting with a digit) right-aligned. */
export function formatTable(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = header.map(
    (_, i) => rows.length > 0 && rows.every((r) => /^[-0-9.]/.test(r[i] ?? '') || (r[i] ?? '') === ''),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (numeric[i] ? c.padStart(widths[i] as number) : c.padEnd(widths[i] as number)))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(header), rule, ...rows.map(line)].join('\n');
}

/** The same table as GitHub markdown (for docs/performance.md). */
export function formatMarkdownTable(
  header: readonly string[],
  rows: ReadonlyArray<readonly string[]>,
): string {
  const esc = (c: string): string => c.replace(/\|/g, '\\|');
  const line = (cells: readonly string[]): string => `| ${cells.map(esc).join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * `Maximum resident set size (kbytes): N` from `/usr/bin/time -v`, in bytes. That figure is the
 * largest single process among the command and every descendant it waited for (Linux folds
 * reaped children's peak into the parent's), not a sum over processes alive at the same time.
 */
export function parseTimeVerbose(stderr: string): { maxRssBytes: number; elapsed: string | null } | null {
  const rss = /Maximum resident set size \(kbytes\):\s*(\d+)/.exec(stderr);
  if (!rss) return null;
  const elapsed = /Elapsed \(wall clock\) time \([^)]*\):\s*(\S+)/.exec(stderr);
  return { maxRssBytes: Number(rss[1]) * 1024, elapsed: elapsed?.[1] ?? null };
}

/** Rotates `items` left by `by` positions: the order contestants run in changes every repetition. */
export function rotate<T>(items: readonly T[], by: number): T[] {
  if (items.length === 0) return [];
  const k = ((by % items.length) + items.length) % items.length;
  return [...items.slice(k), ...items.slice(0, k)];
}

/** Parses a comma-separated list of positive integers (e.g. AGENTGATE_BENCH_SIZES); `fallback` when unset or empty. */
export function parseSizes(value: string | undefined, fallback: readonly number[]): number[] {
  if (value === undefined || value.trim() === '') return [...fallback];
  const sizes = value.split(',').map((s) => Number(s.trim().replace(/_/g, '')));
  if (sizes.some((n) => !Number.isInteger(n) || n <= 0))
    throw new Error(`AGENTGATE_BENCH_SIZES must be positive integers separated by commas, got "${value}"`);
  return sizes;
}

/** A positive integer from the environment, or `fallback`. */
export function parseCount(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value.trim() === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got "${value}"`);
  return n;
}
