// Turning rows into the printed table, the target verdicts and the markdown for docs/performance.md.
import type { IterationProfile, PhaseProfile } from './cases/profile.js';
import {
  describeLimit,
  formatMarkdownTable,
  formatMiB,
  formatMs,
  formatRatio,
  formatTable,
  ratio,
  verdict,
  type Target,
  type Verdict,
} from './measure.js';
import type { Row } from './results.js';

const HEADER = ['case', 'scale', 'contestant', 'median', 'vs', 'ratio', 'paired', 'git procs', 'note'];

function cells(r: Row): string[] {
  const value = r.unit === 'bytes' ? formatMiB(r.median) : `${formatMs(r.median)} ms`;
  return [
    r.case,
    r.scale,
    r.contestant,
    value,
    r.against ?? '',
    r.ratio === null ? '' : formatRatio(r.ratio),
    r.pairedRatio === undefined ? '' : formatRatio(r.pairedRatio),
    r.gitProcesses === null ? '' : String(r.gitProcesses),
    r.note ?? '',
  ];
}

export function resultTable(rows: readonly Row[]): string {
  return formatTable(HEADER, rows.map(cells));
}

const SIZE = 100_000;

function find(rows: readonly Row[], kase: string, scale: string, contestant: string): Row | undefined {
  return rows.find((r) => r.case === kase && r.scale === scale && r.contestant === contestant);
}

export interface CheckedTarget extends Target {
  verdict: Verdict;
  limitText: string;
}

/** The targets, checked against this run's rows (SKIP when a case or size did not run). */
export function targets(rows: readonly Row[], facts: Record<string, unknown>): CheckedTarget[] {
  const it = (c: string): Row | undefined => find(rows, 'iteration (before+after)', `${SIZE} files`, c);
  const lib = it('library');
  const porcelain = it('porcelain');
  const show = find(rows, 'diffFull', '1000 changed files', 'git show per file');
  const diffLib = find(rows, 'diffFull', '1000 changed files', 'library');
  const small = find(rows, 'store loadByRun (10-iteration run)', '10 snapshots', 'library');
  const large = find(rows, 'store loadByRun (10-iteration run)', '10000 snapshots', 'library');
  const memCommands = rows
    .filter((r) => r.case === 'peak memory, 200 MB binary added' && r.scale.startsWith('cli '))
    .map((r) => r.scale);
  const peak = (kind: string): number =>
    Math.max(
      ...[...new Set(memCommands)].map(
        (s) => find(rows, 'peak memory, 200 MB binary added', s, kind)?.median ?? Number.NaN,
      ),
    );
  const mem = [peak('node process')];
  const tree = [peak('largest process')];
  const listSmall = find(rows, 'list (whole store)', '1000 snapshots', 'library');
  const listLarge = find(rows, 'list (whole store)', '10000 snapshots', 'library');
  const orNull = (n: number | null | undefined): number | null =>
    n === undefined || n === null || !Number.isFinite(n) ? null : n;
  const iterate = (scale: string): Row | undefined =>
    find(rows, 'iterate (before+agent+after)', scale, 'iterate');
  const startups = facts.iterateStartupsAboveFloor as Record<string, number> | undefined;
  const startup = (c: string): Row | undefined => find(rows, 'CLI start-up', 'no repository', c);
  const list: Target[] = [
    {
      name: `iterate @ ${SIZE} files vs floor + the same agent`,
      comparison: 'at-most',
      limit: 1.15,
      unit: 'x',
      actual: orNull(iterate(`${SIZE} files`)?.pairedRatio ?? iterate(`${SIZE} files`)?.ratio),
    },
    {
      name: 'iterate @ 1000 files above floor + the same agent, in bare Node start-ups (node -e 0)',
      comparison: 'at-most',
      limit: 1.5,
      unit: 'start-ups',
      actual: orNull(startups?.['1000 files']),
    },
    {
      name: `CLI before + after (two calls) @ ${SIZE} files vs floor`,
      comparison: 'at-most',
      limit: 1.25,
      unit: 'x',
      actual: orNull(it('cli')?.pairedRatio ?? it('cli')?.ratio),
    },
    {
      name: 'CLI start-up (--version) vs node -e 0',
      comparison: 'at-most',
      limit: 1.3,
      unit: 'x',
      actual: orNull(startup('cli --version')?.pairedRatio ?? startup('cli --version')?.ratio),
    },
    {
      name: 'CLI start-up (runs --json, empty home) vs node -e 0',
      comparison: 'at-most',
      limit: 1.6,
      unit: 'x',
      actual: orNull(startup('cli runs --json')?.pairedRatio ?? startup('cli runs --json')?.ratio),
    },
    {
      name: `serve iteration @ ${SIZE} files vs floor`,
      comparison: 'at-most',
      limit: 1.05,
      unit: 'x',
      actual: orNull(it('serve')?.pairedRatio ?? it('serve')?.ratio),
    },
    {
      name: `library iteration @ ${SIZE} files vs floor`,
      comparison: 'at-most',
      limit: 1.1,
      unit: 'x',
      actual: orNull(lib?.pairedRatio ?? lib?.ratio),
    },
    {
      name: 'list: 10000-snapshot store / 1000-snapshot store (linear: 10x)',
      comparison: 'at-most',
      limit: 10,
      unit: 'x',
      actual: orNull(listSmall && listLarge ? ratio(listLarge.median, listSmall.median) : null),
    },
    {
      name: `porcelain / library @ ${SIZE} files`,
      comparison: 'at-least',
      limit: 1.5,
      unit: 'x',
      actual: orNull(lib && porcelain ? ratio(porcelain.median, lib.median) : null),
    },
    {
      name: `checkpoint track @ ${SIZE} files vs its floor`,
      comparison: 'at-most',
      limit: 1.2,
      unit: 'x',
      actual: orNull(find(rows, 'checkpoint track', `${SIZE} files`, 'library')?.ratio),
    },
    {
      name: 'diffFull 1000 files: git show per file / library',
      comparison: 'at-least',
      limit: 10,
      unit: 'x',
      actual: orNull(show && diffLib ? ratio(show.median, diffLib.median) : null),
    },
    {
      name: 'revert 300 files: git processes',
      comparison: 'at-most',
      limit: 10,
      unit: 'processes',
      actual: orNull(facts.revertGitProcesses as number | undefined),
    },
    {
      name: 'loadByRun: 10000-snapshot store / 10-snapshot store',
      comparison: 'at-most',
      limit: 2,
      unit: 'x',
      actual: orNull(small && large ? ratio(large.median, small.median) : null),
    },
    {
      name: 'peak memory, 200 MB change: node process (every CLI command measured)',
      comparison: 'below',
      limit: 150,
      unit: 'MiB',
      actual: orNull(Math.max(...mem) / 2 ** 20),
    },
    {
      name: 'peak memory, 200 MB change: largest process incl. git (every CLI command measured)',
      comparison: 'below',
      limit: 150,
      unit: 'MiB',
      actual: orNull(Math.max(...tree) / 2 ** 20),
    },
  ];
  return list.map((t) => ({
    ...t,
    actual: t.actual === null ? null : Math.round(t.actual * 100) / 100,
    verdict: verdict(t),
    limitText: describeLimit(t),
  }));
}

export function targetLines(checked: readonly CheckedTarget[]): string {
  return formatTable(
    ['verdict', 'target', 'limit', 'measured'],
    checked.map((t) => [
      t.verdict,
      t.name,
      t.limitText,
      t.actual === null ? 'not run' : t.unit === 'x' ? formatRatio(t.actual) : `${t.actual} ${t.unit}`,
    ]),
  );
}

function phaseRows(label: string, p: PhaseProfile): string[][] {
  return [
    ...p.calls.map((c) => [label, c.command, formatMs(c.ms), formatMs(c.gapMs), c.args]),
    [
      label,
      `= ${p.calls.length} git processes`,
      formatMs(p.gitMs),
      formatMs(p.wallMs - p.gitMs),
      `wall ${formatMs(p.wallMs)} ms`,
    ],
  ];
}

/** Every git process of one library and one CLI iteration, with the time spent before each outside git. */
export function profileTable(p: IterationProfile): string {
  const rows = Object.entries(p.phases).flatMap(([label, phase]) => phaseRows(label, phase));
  return `Where the time goes (one traced iteration @ ${p.files} files; "outside git" = time since the previous git process ended)\n${formatTable(['phase', 'git command', 'git ms', 'outside git ms', 'arguments'], rows)}`;
}

export function markdownTable(
  rows: readonly Row[],
  checked: readonly CheckedTarget[],
  meta: { date: string; node: string; git: string; cores: number; cpu: string },
): string {
  return [
    `Run of ${meta.date}: node ${meta.node}, git ${meta.git}, ${meta.cores} cores (${meta.cpu}).`,
    '',
    formatMarkdownTable(HEADER, rows.map(cells)),
    '',
    formatMarkdownTable(
      ['verdict', 'target', 'limit', 'measured'],
      checked.map((t) => [
        t.verdict,
        t.name,
        t.limitText,
        t.actual === null ? 'not run' : t.unit === 'x' ? formatRatio(t.actual) : `${t.actual} ${t.unit}`,
      ]),
    ),
  ].join('\n');
}

/** Median before and after times of each iteration contestant, per size. */
export function splitTable(
  split: Record<string, Record<string, { beforeMs: number; afterMs: number }>>,
): string {
  const rows = Object.entries(split).flatMap(([scale, byName]) =>
    Object.entries(byName).map(([name, s]) => [scale, name, formatMs(s.beforeMs), formatMs(s.afterMs)]),
  );
  return `Iteration split (medians)\n${formatTable(['scale', 'contestant', 'before ms', 'after ms'], rows)}`;
}
