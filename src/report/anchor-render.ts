/**
 * `report --anchor REV` as people read it: one self-contained HTML page (no script at all; a
 * Content-Security-Policy forbids every fetch and script), GitHub-flavoured Markdown sized for a
 * step summary, or GitLab dotenv variables. Per file: coverage, method, the iterations behind it
 * with their gates' newest verdicts, and the lines no run wrote.
 */
import type { AnchorReport, AnchorReportFile, LineSpan } from '../../types/anchor-report.js';
import { plainValue, withinDotenvBytes } from './dotenv.js';
import { esc } from './html.js';
import { GITHUB_STEP_SUMMARY_LIMIT } from '../ci/github.js';
import { cell } from './markdown.js';
import { showPath } from './visible.js';

const RECORDED: Record<AnchorReport['recorded'], string> = {
  same: 'the recorded anchor recomputes the same',
  differs: 'the recorded anchor DIFFERS from what the records and git say now',
  none: 'no anchor of this commit is recorded in this home',
};

function spans(list: readonly LineSpan[]): string {
  return list.map((s) => (s.start === s.end ? `${s.start}` : `${s.start}-${s.end}`)).join(', ');
}

function percent(part: number, whole: number): string {
  return whole === 0 ? '-' : `${Math.floor((part * 100) / whole)}%`;
}

function notWritten(f: AnchorReportFile): string {
  if (f.notFromRuns === null) return 'not listed';
  return f.notFromRuns.length === 0 ? '' : spans(f.notFromRuns);
}

function headline(r: AnchorReport): string {
  const c = r.coverage;
  return `${c.filesFromRuns} of ${c.files} files and ${c.linesFromRuns} of ${c.linesAdded} added lines (${percent(c.linesFromRuns, c.linesAdded)}) from recorded runs`;
}

export function renderAnchorHtml(r: AnchorReport): string {
  const csp = "default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
  const gates = (g: ReadonlyArray<{ name: string; verdict: string }>) =>
    g.map((v) => `<span class="gate ${esc(v.verdict)}">${esc(v.name)}: ${esc(v.verdict)}</span>`).join(' ');
  const rows = r.files
    .map((f) => {
      const origins = f.origins.length
        ? f.origins
            .map(
              (o) =>
                `<div class="origin"><code>${esc(o.runId)}</code> #${o.iteration} (${o.lines} lines) ${gates(o.gates)}</div>`,
            )
            .join('')
        : '<span class="none">-</span>';
      const lines = notWritten(f);
      return (
        `<tr class="method-${esc(f.method)}"><td class="path"><code>${esc(showPath(f.path))}</code>${f.oldPath ? ` <span class="none">from <code>${esc(showPath(f.oldPath))}</code></span>` : ''}</td>` +
        `<td>${esc(f.status)}</td><td class="method">${esc(f.method)}</td>` +
        `<td class="num">${f.linesFromRuns}/${f.linesAdded}</td><td>${origins}</td>` +
        `<td class="unwritten">${lines ? esc(lines) : '<span class="none">-</span>'}</td></tr>`
      );
    })
    .join('\n');
  const match = r.treeMatch
    ? `run <code>${esc(r.treeMatch.runId)}</code> iteration ${r.treeMatch.iteration} (<code>${esc(r.treeMatch.afterSha.slice(0, 12))}</code>)`
    : '<span class="none">no iteration\'s after tree</span>';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agentgate anchor ${esc(r.commit.slice(0, 12))}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>agentgate anchor <code id="commit">${esc(r.commit)}</code></h1>
<dl class="facts">
<dt>Coverage</dt><dd id="coverage">${esc(headline(r))}</dd>
<dt>Tree</dt><dd>${match}</dd>
<dt>Parents</dt><dd>${r.parents.map((p) => `<code>${esc(p)}</code>`).join(' ') || '<span class="none">-</span>'}</dd>
<dt>Runs</dt><dd>${r.runs.map((x) => `<code>${esc(x.runId)}</code> (${x.iterations.map((i) => `#${i}`).join(' ') || 'WIP only'})`).join(', ') || '<span class="none">none</span>'}</dd>
<dt>Recorded</dt><dd id="recorded" class="${r.recorded === 'differs' ? 'failed' : 'ok'}">${esc(RECORDED[r.recorded])}</dd>
<dt>Generated</dt><dd>${esc(r.generatedAt)}</dd>
</dl>
</header>
<main>
<h2>Files</h2>
${r.files.length ? `<table id="files"><thead><tr><th>Path</th><th>Status</th><th>Method</th><th>Lines from runs</th><th>Iterations and gates</th><th>Lines no run wrote</th></tr></thead><tbody>\n${rows}\n</tbody></table>` : '<p class="none">The commit changes no file.</p>'}
${r.unlisted ? `<p class="none">Lines no run wrote are not listed for ${r.unlisted} file(s): "trace PATH --rev ${esc(r.commit.slice(0, 12))}" shows them.</p>` : ''}
</main>
</body>
</html>
`;
}

export function renderAnchorMarkdown(r: AnchorReport, limit = GITHUB_STEP_SUMMARY_LIMIT): string {
  const head = [
    `## agentgate anchor \`${r.commit.slice(0, 12)}\``,
    '',
    `${headline(r)}; ${RECORDED[r.recorded]}.`,
    '',
    r.treeMatch
      ? `Tree: exactly the after tree of run \`${r.treeMatch.runId}\` iteration ${r.treeMatch.iteration}.`
      : "Tree: no iteration's after tree.",
    '',
    '| Path | Method | Lines from runs | Iterations and gates | Lines no run wrote |',
    '|---|---|---|---|---|',
  ].join('\n');
  const cut = (left: number) =>
    `\n\n_${left} more file(s). Cut to fit the step summary: "report --anchor ${r.commit.slice(0, 12)} --format html" has every file._\n`;
  let out = `${head}\n`;
  // Counted as it grows: measuring the whole text for each row took quadratic time.
  let bytes = Buffer.byteLength(out, 'utf8');
  for (const [i, f] of r.files.entries()) {
    const origins =
      f.origins
        .map(
          (o) =>
            `${o.runId} #${o.iteration} (${o.lines})${o.gates.length ? ` ${o.gates.map((g) => `${g.name}: ${g.verdict}`).join(', ')}` : ''}`,
        )
        .join('; ') || '-';
    const row = `| ${cell(showPath(f.path))} | ${f.method} | ${f.linesFromRuns}/${f.linesAdded} | ${cell(origins)} | ${cell(notWritten(f))} |\n`;
    const left = r.files.length - i - 1;
    const rowBytes = Buffer.byteLength(row, 'utf8');
    if (bytes + rowBytes + (left > 0 ? Buffer.byteLength(cut(left), 'utf8') : 0) > limit)
      return `${out}${cut(left + 1)}`;
    out += row;
    bytes += rowBytes;
  }
  return out;
}

export function renderAnchorDotenv(r: AnchorReport): string {
  const vars: Array<[string, string | number]> = [
    ['AGENTGATE_ANCHOR_COMMIT', r.commit],
    ['AGENTGATE_ANCHOR_FILES', r.coverage.files],
    ['AGENTGATE_ANCHOR_FILES_FROM_RUNS', r.coverage.filesFromRuns],
    ['AGENTGATE_ANCHOR_LINES_ADDED', r.coverage.linesAdded],
    ['AGENTGATE_ANCHOR_LINES_FROM_RUNS', r.coverage.linesFromRuns],
    ['AGENTGATE_ANCHOR_RUNS', r.runs.map((x) => x.runId).join(',')],
    ['AGENTGATE_ANCHOR_TREE_MATCH', r.treeMatch ? `${r.treeMatch.runId}#${r.treeMatch.iteration}` : ''],
    ['AGENTGATE_ANCHOR_RECORDED', r.recorded],
  ];
  return withinDotenvBytes(vars.map(([k, v]) => [k, plainValue(String(v))] as const));
}

const STYLE = `
body{font:14px/1.45 system-ui,sans-serif;margin:0;color:#1f2328;background:#fff}
header,main{padding:12px 24px}
h1{font-size:20px;margin:8px 0}
h2{font-size:16px;margin:16px 0 8px}
code{font:12px ui-monospace,monospace}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}
.facts dt{font-weight:600}
.facts dd{margin:0}
.ok{color:#1a7f37}
.failed{color:#cf222e;font-weight:600}
.none{color:#6e7781}
table{border-collapse:collapse;width:100%}
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}
td.num{text-align:right;white-space:nowrap}
td.path{word-break:break-all}
tr.method-none td.method{color:#cf222e;font-weight:600}
.gate{display:inline-block;border-radius:8px;padding:0 6px;font-size:12px;background:#eaeef2}
.gate.pass{background:#dafbe1}
.gate.fail,.gate.error{background:#ffebe9}
.unwritten{font:12px ui-monospace,monospace}
`;
