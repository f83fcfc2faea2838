/**
 * The `gates` part of the run report: each iteration's verdicts and, per gate, where it went red
 * and green again; rendered into every format (markdown, html, dotenv, json) and, on GitHub, a
 * failed gate becomes an `::error`. Kept apart from the rest of the report so each renderer only
 * adds one call.
 */
import { testTotals, type GateResult } from '../../types/gate.js';
import { countingVerdicts, sortGateResults } from '../../types/gate-rules.js';
import type { Snapshot } from '../../types/snapshot.js';
import { setAsideBy, type RunRestart } from '../../types/run.js';
import type { ReportGates, ReportGateSummary, ReportVerdict } from '../../types/report-gates.js';
import { escapeData, escapeProperty } from '../ci/github.js';
import type { GateStore } from '../store/gate-store.js';

/** At most this many `::error` lines for failed gates (GitHub shows only the first ten annotations). */
const MAX_GATE_ANNOTATIONS = 10;

/**
 * Every verdict of the run that counts (a deleted capture's do not: `countingVerdicts`) by
 * iteration (gate list order) and the summary per gate name.
 */
export async function buildGateReport(
  gates: GateStore,
  runId: string,
  snapshots: readonly Snapshot[],
  restarts: readonly RunRestart[] = [],
): Promise<ReportGates> {
  return gateReportOf(countingVerdicts(await gates.listStrict(runId), snapshots), snapshots, restarts);
}

/**
 * Pure: verdicts (any order) to the report's `gates` part. Every verdict is listed under its
 * iteration; the summary (newest verdict, red, green again: what fails a CI job) reads only the
 * run's accepted line, as `verify --require-gate` and `attest` do: not an iteration a restart set aside.
 */
export function gateReportOf(
  results: readonly GateResult[],
  snapshots: readonly Snapshot[] = [],
  restarts: readonly RunRestart[] = [],
): ReportGates {
  const sorted = sortGateResults(results, snapshots);
  const byIteration = new Map<number, GateResult[]>();
  for (const g of sorted) byIteration.set(g.iteration, [...(byIteration.get(g.iteration) ?? []), g]);
  const iterations = [...byIteration.keys()].sort((a, b) => a - b);
  const line = iterations.filter((i) => setAsideBy(restarts, i) === undefined);
  const names = [...new Set(sorted.filter((g) => line.includes(g.iteration)).map((g) => g.name))].sort();
  const summary: ReportGateSummary[] = [];
  for (const name of names) {
    // The newest verdict of this name on each iteration of the line it ran on, oldest iteration first.
    const newest = line.flatMap((i) => {
      const last = (byIteration.get(i) ?? []).filter((g) => g.name === name).at(-1);
      return last === undefined ? [] : [last];
    });
    const red = newest.find((g) => g.verdict !== 'pass');
    const green =
      red === undefined ? undefined : newest.find((g) => g.iteration > red.iteration && g.verdict === 'pass');
    const latest = newest.at(-1) as GateResult;
    summary.push({
      name,
      iteration: latest.iteration,
      latest: verdictOf(latest),
      firstRed: red?.iteration ?? null,
      greenAgain: green?.iteration ?? null,
    });
  }
  return {
    iterations: iterations.map((iteration) => ({
      iteration,
      verdicts: (byIteration.get(iteration) ?? []).map(verdictOf),
    })),
    summary,
  };
}

function verdictOf(g: GateResult): ReportVerdict {
  return {
    id: g.id,
    name: g.name,
    attempt: g.attempt,
    verdict: g.verdict,
    observed: g.observed,
    reason: g.reason,
    durationMs: g.durationMs,
    tests: testTotals(g.tests),
    failures: g.tests?.failures ?? [],
  };
}

/** The gates whose newest verdict (on the last iteration each ran) is fail or error. */
export function failedGates(gates: ReportGates | undefined): ReportGateSummary[] {
  return (gates?.summary ?? []).filter((s) => s.latest.verdict !== 'pass');
}

/** `::error` workflow commands for failed gates; test names and messages are escaped (`%`, CR, LF; `:` and `,` in properties). */
export function gateAnnotations(gates: ReportGates | undefined): string[] {
  return failedGates(gates)
    .slice(0, MAX_GATE_ANNOTATIONS)
    .map((s) => {
      const title = `agentgate gate ${s.name}: ${s.latest.verdict}`;
      const tests = s.latest.failures
        .slice(0, 5)
        .map((f) => `\n- ${f.suite ? `${f.suite} > ` : ''}${f.name}: ${f.message.split('\n')[0] ?? ''}`)
        .join('');
      return `::error title=${escapeProperty(title)}::${escapeData(
        `iteration ${s.iteration}, attempt ${s.latest.attempt}: ${s.latest.reason}${tests}`,
      )}`;
    });
}

export function formatDuration(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function testCounts(v: ReportVerdict): { passed: string; failed: string } {
  return v.tests === null
    ? { passed: '-', failed: '-' }
    : { passed: String(v.tests.passed), failed: String(v.tests.failed + v.tests.errors) };
}

/** Markdown blocks (as renderMarkdown adds them: sections whole, rows while they fit). */
export function gateMarkdownBlocks(
  gates: ReportGates | undefined,
  cell: (text: string) => string,
): { lines: string[]; row: boolean }[] {
  if (gates === undefined || gates.summary.length === 0) return [];
  const blocks: { lines: string[]; row: boolean }[] = [];
  const section = (lines: string[]) => blocks.push({ lines, row: false });
  const row = (line: string) => blocks.push({ lines: [line], row: true });
  const mark = (v: ReportVerdict['verdict']) =>
    v === 'pass' ? ':white_check_mark: pass' : v === 'fail' ? ':x: **fail**' : ':warning: **error**';
  section([
    '### Gates',
    '',
    '| Gate | Newest | Iteration | First red | Green again |',
    '|---|---|--:|--:|--:|',
  ]);
  for (const s of gates.summary)
    row(
      `| ${cell(s.name)} | ${mark(s.latest.verdict)} | ${s.iteration} | ${s.firstRed ?? '-'} | ${s.greenAgain ?? '-'} |`,
    );
  section([
    '',
    '| # | Gate | Attempt | Verdict | Passed | Failed | Duration |',
    '|--:|---|--:|---|--:|--:|--:|',
  ]);
  for (const it of gates.iterations)
    for (const v of it.verdicts) {
      const t = testCounts(v);
      row(
        `| ${it.iteration} | ${cell(v.name)} | ${v.attempt}${v.observed ? '' : ' (reported)'} | ${mark(v.verdict)} | ${t.passed} | ${t.failed} | ${formatDuration(v.durationMs)} |`,
      );
    }
  section(['']);
  for (const it of gates.iterations)
    for (const v of it.verdicts) {
      if (v.failures.length === 0) continue;
      section([
        `<details><summary>Iteration ${it.iteration}, ${cell(v.name)} attempt ${v.attempt}: ${v.failures.length} failed tests</summary>`,
        '',
        '| Suite | Test | Message |',
        '|---|---|---|',
      ]);
      for (const f of v.failures) row(`| ${cell(f.suite)} | ${cell(f.name)} | ${cell(f.message)} |`);
      section(['', '</details>', '']);
    }
  return blocks;
}

/** The HTML section (`esc` is the page's escaping); empty when the run has no verdicts. */
export function gateHtml(gates: ReportGates | undefined, esc: (text: string) => string): string {
  if (gates === undefined || gates.summary.length === 0) return '';
  const badge = (v: ReportVerdict['verdict']) => `<span class="gate-${v}">${v}</span>`;
  const summary = gates.summary
    .map(
      (s) =>
        `<tr data-gate="${esc(s.name)}"><td><code>${esc(s.name)}</code></td><td>${badge(s.latest.verdict)}</td>` +
        `<td class="num">${s.iteration}</td><td class="num">${s.firstRed ?? '-'}</td><td class="num">${s.greenAgain ?? '-'}</td></tr>`,
    )
    .join('\n');
  const verdicts = gates.iterations
    .flatMap((it) =>
      it.verdicts.map((v) => {
        const t = testCounts(v);
        const failures = v.failures.length
          ? `<details><summary>${v.failures.length} failed tests</summary><ul class="failures">${v.failures
              .map((f) => `<li><b>${esc(f.suite)}</b> ${esc(f.name)}<pre>${esc(f.message)}</pre></li>`)
              .join('')}</ul></details>`
          : '';
        return (
          `<tr data-verdict="${esc(v.id)}"><td class="num">${it.iteration}</td><td><code>${esc(v.name)}</code></td>` +
          `<td class="num">${v.attempt}${v.observed ? '' : ' (reported)'}</td><td>${badge(v.verdict)}</td>` +
          `<td class="num">${t.passed}</td><td class="num">${t.failed}</td><td class="num">${esc(formatDuration(v.durationMs))}</td>` +
          `<td class="text">${esc(v.reason)}${failures}</td></tr>`
        );
      }),
    )
    .join('\n');
  return `<section id="gates"><h2>Gates</h2>
<table id="gate-summary"><thead><tr><th>Gate</th><th>Newest</th><th>Iteration</th><th>First red</th><th>Green again</th></tr></thead><tbody>
${summary}
</tbody></table>
<table id="gate-verdicts"><thead><tr><th>#</th><th>Gate</th><th>Attempt</th><th>Verdict</th><th>Passed</th><th>Failed</th><th>Duration</th><th>Reason</th></tr></thead><tbody>
${verdicts}
</tbody></table>
</section>`;
}

/** Styles of the gates section. */
export const GATE_STYLE =
  '.gate-pass{color:#1a7f37;font-weight:600}.gate-fail,.gate-error{color:#cf222e;font-weight:600}' +
  '#gates table{margin-bottom:1em}.failures pre{white-space:pre-wrap;margin:.2em 0}';

/**
 * dotenv variables of the gates, within the budget left by the run's own: the counts, the failed
 * gates' names and, per gate (as many as fit), its newest verdict and where it went red and green.
 */
export function gateDotenvVariables(
  gates: ReportGates | undefined,
  budget: number,
): [string, string | number][] {
  if (gates === undefined || budget <= 0) return [];
  const failed = failedGates(gates);
  const vars: [string, string | number][] = [
    ['AGENTGATE_GATES', gates.summary.length],
    ['AGENTGATE_GATES_FAILED', failed.length],
    ['AGENTGATE_GATES_FAILED_NAMES', failed.map((s) => s.name).join(',')],
  ];
  // Names that differ only in case or punctuation (unit-test, unit.test) share a variable: it holds
  // the worst of their verdicts and names them all, so that a failing gate is never hidden.
  const byKey = new Map<string, ReportGateSummary[]>();
  for (const s of gates.summary) {
    const key = `AGENTGATE_GATE_${s.name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
    byKey.set(key, [...(byKey.get(key) ?? []), s]);
  }
  for (const [key, group] of byKey) {
    const s = group.reduce((worst, g) =>
      SEVERITY[g.latest.verdict] > SEVERITY[worst.latest.verdict] ? g : worst,
    );
    const t = testCounts(s.latest);
    const names = group.length > 1 ? ` gates=${group.map((g) => g.name).join(',')}` : '';
    vars.push([
      key,
      `${s.latest.verdict} iteration=${s.iteration} passed=${t.passed} failed=${t.failed} first_red=${s.firstRed ?? '-'} green_again=${s.greenAgain ?? '-'}${names}`,
    ]);
  }
  return vars.slice(0, budget);
}

const SEVERITY: Record<GateResult['verdict'], number> = { pass: 0, fail: 1, error: 2 };
