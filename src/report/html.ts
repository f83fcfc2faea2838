/**
 * `report --format html`: one self-contained page. Everything is inline (styles, the diff
 * renderer, the data); a Content-Security-Policy forbids every fetch and every script but the two
 * written here (by hash), so a hostile file name or task cannot load or run anything even if it
 * slipped past the escaping. Each file's raw diff is stored once, as JSON, and rendered by
 * diff2html in the browser only when the file is opened; big iterations list their files only
 * when opened, a page at a time, so thousands of files open at once. Diffs beyond the report's
 * limits (see patches.ts) are not embedded: their file says "too large to show here".
 */
import { createHash } from 'node:crypto';
import type { ReportSnapshot, RunReport } from '../../types/report.js';
import type { FileDiffText } from './patches.js';
import type { ReportAssets } from './assets.js';
import { showBidi, showPath } from './visible.js';
import { agentPhrase, asidePhrase } from './model.js';
import { GATE_STYLE, gateHtml } from './gates.js';
import { noLegacyCommands } from '../text.js';
import { restartPhrases } from './model.js';

/** Iterations with at most this many files are listed (open) when the page loads. */
export const EAGER_FILES = 200;
/** Files listed per "show more" step in a big iteration. */
export const FILES_PAGE = 200;

export interface HtmlInput {
  report: RunReport;
  /**
   * Hands each file's diff of a snapshot to `each`, in the order of its files, one at a time as
   * the patch streams, so that no diff is held once it is written (see index.ts).
   */
  diffs: (snapshot: ReportSnapshot, each: (diff: FileDiffText) => Promise<void>) => Promise<void>;
  assets: ReportAssets;
}

/** Writes the page through `write`, a part at a time: each diff is escaped and written as it comes. */
export async function writeHtml(
  { report, diffs, assets }: HtmlInput,
  write: (part: string) => Promise<void>,
): Promise<void> {
  const v = report.verification;
  const failed = v.checks.filter((c) => !c.ok);
  const verdict = v.ok
    ? `passed (${v.checks.length} checks)`
    : `FAILED (${failed.length} of ${v.checks.length} checks)`;
  const csp = [
    "default-src 'none'",
    `script-src ${[assets.diff2htmlJs, CLIENT].map((s) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`).join(' ')}`,
    "style-src 'unsafe-inline'",
    'img-src data:',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const rows = report.snapshots
    .map(
      (s) =>
        `<tr data-iteration="${s.iteration}"${s.setAside ? ' class="set-aside"' : ''}><td class="num">${s.iteration}${asideMark(s)}${agentMark(s)}</td><td class="num">${s.filesChanged}</td>` +
        `<td class="num add">+${s.insertions}</td><td class="num del">-${s.deletions}</td>` +
        `<td><code title="${esc(s.afterSha)}">${esc(s.afterSha.slice(0, 12))}</code></td>` +
        `<td class="text">${s.task === null ? '<span class="none">-</span>' : esc(s.task)}</td>` +
        `<td class="text">${s.gate === null ? '<span class="none">-</span>' : esc(s.gate)}</td>` +
        `<td class="verdicts">${verdictCells(s)}</td></tr>`,
    )
    .join('\n');
  const checks = failed
    .map(
      (c) =>
        `<li><b>${esc(c.check)}</b> ${c.snapshotId ? `<code>${esc(c.snapshotId)}</code> ` : ''}${esc(c.detail)}</li>`,
    )
    .join('\n');
  const sha = (value: string | null) =>
    value ? `<code>${esc(value)}</code>` : '<span class="none">-</span>';
  await write(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${esc(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>agentgate run ${esc(report.run.runId)}</title>
<style>${assets.diff2htmlCss}</style>
<style>${STYLE}${GATE_STYLE}</style>
</head>
<body>
<header>
<h1>agentgate run <code id="run-id">${esc(report.run.runId)}</code></h1>
<dl class="facts">
<dt>Workspace</dt><dd><code>${esc(report.run.workspace)}</code></dd>
<dt>Branch</dt><dd>${report.branch === null ? '<span class="none">-</span>' : `<code>${esc(report.branch)}</code>`}</dd>
<dt>Before</dt><dd>${sha(report.beforeSha)}</dd>
<dt>After</dt><dd>${sha(report.afterSha)}</dd>
<dt>Verification</dt><dd id="verification" class="${v.ok ? 'ok' : 'failed'}">${esc(verdict)}</dd>
<dt>Totals</dt><dd>${report.totals.iterations} iterations, ${report.totals.filesChanged} file changes summed over iterations (a file changed in two counts twice), <span class="add">+${report.totals.insertions}</span> <span class="del">-${report.totals.deletions}</span></dd>
${restartPhrases(report.run)
  .map((r) => `<dt>Restart</dt><dd>${esc(r)}</dd>`)
  .join('')}
<dt>Generated</dt><dd>${esc(report.generatedAt)}</dd>
</dl>
${failed.length ? `<section class="failed-checks"><h2>Failed checks</h2><ul>${checks}</ul></section>` : ''}
</header>
<main>
<h2>Iterations</h2>
${report.snapshots.length ? `<table id="iterations"><thead><tr><th>#</th><th>Files</th><th>+</th><th>-</th><th>After</th><th>Task</th><th>Gate</th><th>Verdicts</th></tr></thead><tbody>\n${rows}\n</tbody></table>` : '<p class="none">No iterations recorded yet.</p>'}
${gateHtml(report.gates, esc)}
<h2>Changes</h2>
<div class="toolbar" role="radiogroup" aria-label="Diff view">Diff view:
<label><input type="radio" name="view" value="line-by-line" checked> line by line</label>
<label><input type="radio" name="view" value="side-by-side"> side by side</label>
</div>
<div id="changes"></div>
<noscript><p>Turn on JavaScript to list the files and see their diffs; the patches are in the run's artifacts.</p></noscript>
</main>
<script type="application/json" id="agentgate-data">{"eager":${EAGER_FILES},"page":${FILES_PAGE},"iterations":[`);
  for (const [i, s] of report.snapshots.entries()) {
    // Each iteration's diffs come first, as they stream; its file list, which says which were
    // embedded, follows them in the same object.
    await write(`${i ? ',' : ''}{"diffs":[`);
    const shown: Omit<FileDiffText, 'diff'>[] = [];
    await diffs(s, async ({ diff, ...rest }) => {
      await write(`${shown.length ? ',' : ''}${jsonForScript(diff)}`);
      shown.push(rest);
    });
    const files = s.files.map((f, j) => ({
      p: showPath(f.path),
      o: f.oldPath === null ? null : showPath(f.oldPath),
      s: f.status,
      a: f.insertions,
      d: f.deletions,
      b: shown[j]?.binary ?? f.binary,
      t: shown[j]?.tooLarge ?? false,
      u: shown[j]?.unavailable === true,
    }));
    const head = { iteration: s.iteration, id: s.id, patch: s.patchPath && showPath(s.patchPath), files };
    await write(`],${jsonForScript(head).slice(1)}`);
  }
  await write(`]}</script>
<script>${assets.diff2htmlJs}</script>
<script>${CLIENT}</script>
</body>
</html>
`);
}

/**
 * HTML text and attribute escaping; bidirectional-text controls are shown as escapes. Line breaks
 * are character references too (the same text to the browser), so that no line of the page starts
 * with text from the run: printed on stdout, a task line `::error::x` would be a workflow command,
 * which the CLI rewrites, and the page would differ from the one `-o` writes. So is the `#` that
 * starts a `##[` (a legacy workflow command, obeyed anywhere in a line).
 */
export function esc(text: string): string {
  return noLegacyCommands(
    showBidi(text).replace(/[&<>"'\r\n]/g, (c) => `&#${c.charCodeAt(0)};`),
    '&#35;',
  );
}

/**
 * JSON inside a script element: no `<` at all, so neither `</script>` nor `<!--` can occur, and no
 * `##[` (see esc).
 */
function jsonForScript(value: unknown): string {
  // One pass: a diff can be large, and each pass would copy it.
  return JSON.stringify(value).replace(
    /[<\u2028\u2029]|#(?=#\[)/g,
    (c) => `\\u${(c.codePointAt(0) as number).toString(16).padStart(4, '0')}`,
  );
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1400px;padding:16px 24px;color:#1f2328;background:#fff}
h1{font-size:22px;margin:8px 0 12px}h2{font-size:17px;margin:24px 0 8px}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f8fa;padding:1px 4px;border-radius:4px;word-break:break-all}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0}.facts dt{color:#59636e}.facts dd{margin:0}
.ok{color:#1a7f37;font-weight:600}.failed{color:#d1242f;font-weight:600}.add{color:#1a7f37}.del{color:#d1242f}.none{color:#8c959f}
tr.set-aside td{color:#59636e;background:#f6f8fa}.aside{font-size:12px;border:1px solid #d1d9e0;border-radius:10px;padding:0 6px;white-space:nowrap}.agent-failed{color:#d1242f;border-color:#ffcecb}td.verdicts span{margin-right:8px;white-space:nowrap}
.failed-checks{border:1px solid #ffcecb;background:#fff6f5;border-radius:6px;padding:4px 16px;margin-top:12px}
table{border-collapse:collapse;width:100%}th,td{border-bottom:1px solid #d1d9e0;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}.num{text-align:right;white-space:nowrap}td.text{white-space:pre-wrap;word-break:break-word}
.toolbar{margin:8px 0;display:flex;gap:12px;align-items:center}
details.iteration{border:1px solid #d1d9e0;border-radius:6px;margin:8px 0;padding:0 8px}
details.iteration>summary{cursor:pointer;padding:8px 0;font-weight:600}
details.file{border-top:1px solid #eaeef2}details.file>summary{cursor:pointer;padding:4px 0;font:13px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.status{display:inline-block;min-width:6.5em;color:#59636e}.badge{background:#ddf4ff;color:#0969da;border-radius:8px;padding:0 6px;margin-left:6px;font-size:11px}
.note{color:#59636e;font-style:italic;margin:4px 0}button.more{margin:8px 0}
.diff .d2h-file-wrapper{margin-bottom:8px}
`;

/** The page's own script (plain ES2017, no dependency but the diff2html bundle). */
const CLIENT = `(function () {
  'use strict';
  var data = JSON.parse(document.getElementById('agentgate-data').textContent);
  var view = 'line-by-line';
  var changes = document.getElementById('changes');

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function fileEntry(i, j) {
    var f = data.iterations[i].files[j];
    var d = el('details', 'file');
    d.dataset.i = String(i);
    d.dataset.f = String(j);
    var s = el('summary');
    s.appendChild(el('span', 'status', f.s));
    s.appendChild(el('span', 'path', pathOf(f)));
    if (f.b) s.appendChild(el('span', 'badge', 'binary'));
    else {
      s.appendChild(document.createTextNode(' '));
      s.appendChild(el('span', 'add', '+' + f.a));
      s.appendChild(document.createTextNode(' '));
      s.appendChild(el('span', 'del', '-' + f.d));
    }
    if (f.t) s.appendChild(el('span', 'badge', 'too large'));
    // A mode change (a file made executable) has no lines to show: its badge says it.
    var mode = /^old mode ([0-7]+)\\nnew mode ([0-7]+)$/m.exec(data.iterations[i].diffs[j] || '');
    if (mode) s.appendChild(el('span', 'badge', 'mode ' + mode[1] + ' \\u2192 ' + mode[2]));
    d.appendChild(s);
    d.appendChild(el('div', 'diff'));
    return d;
  }

  function renderDiff(d) {
    var i = Number(d.dataset.i), j = Number(d.dataset.f);
    var f = data.iterations[i].files[j];
    var box = d.querySelector('.diff');
    d.dataset.view = view;
    if (f.b) { box.replaceChildren(el('p', 'note', 'Binary file: no text diff to show.')); return; }
    if (f.u) { box.replaceChildren(el('p', 'note', 'The patch is not available here: neither its artifact nor its commits could be read when this report was made.')); return; }
    var it = data.iterations[i];
    if (f.t) { box.replaceChildren(el('p', 'note', 'Too large to show here (+' + f.a + ' -' + f.d + ' lines). The whole diff: ' + (it.patch ? 'the patch artifact ' + it.patch + ', or ' : '') + '"agentgate-snapshot patch ' + it.id + '".')); return; }
    var text = it.diffs[j];
    if (!text) { box.replaceChildren(el('p', 'note', 'No line changes (mode, rename or empty file).')); return; }
    box.innerHTML = Diff2Html.html(text, { drawFileList: false, outputFormat: view, matching: 'none', renderNothingWhenEmpty: false });
    // diff2html names a file from git's header, quoted when the name has a backslash, a quote or a
    // control character, and turns each backslash into '/': the header gets the file's own name.
    box.querySelectorAll('.d2h-file-name').forEach(function (e) { e.textContent = pathOf(f); });
    // diff2html tags every file with two names RENAMED: a copy's source is still there.
    if (f.s === 'copied') box.querySelectorAll('.d2h-moved-tag').forEach(function (e) { e.textContent = 'COPIED'; });
  }

  function pathOf(f) {
    return f.o ? f.o + ' \\u2192 ' + f.p : f.p;
  }

  function fill(box, i, from) {
    var files = data.iterations[i].files;
    var end = Math.min(files.length, from + data.page);
    var frag = document.createDocumentFragment();
    for (var j = from; j < end; j++) frag.appendChild(fileEntry(i, j));
    box.appendChild(frag);
    if (end < files.length) {
      var more = el('button', 'more', 'Show ' + Math.min(data.page, files.length - end) + ' more of ' + (files.length - end) + ' files');
      more.type = 'button';
      more.addEventListener('click', function () { more.remove(); fill(box, i, end); });
      box.appendChild(more);
    }
  }

  data.iterations.forEach(function (it, i) {
    var d = el('details', 'iteration');
    d.dataset.iteration = String(it.iteration);
    d.appendChild(el('summary', '', 'Iteration ' + it.iteration + ' \\u2014 ' + it.files.length + (it.files.length === 1 ? ' file' : ' files')));
    var box = el('div', 'files');
    d.appendChild(box);
    if (it.files.length === 0) box.appendChild(el('p', 'note', 'No change in this iteration.'));
    else if (it.files.length <= data.eager) { fill(box, i, 0); d.open = true; }
    else d.addEventListener('toggle', function once() {
      if (!d.open) return;
      d.removeEventListener('toggle', once);
      fill(box, i, 0);
    });
    changes.appendChild(d);
  });

  changes.addEventListener('toggle', function (e) {
    var d = e.target;
    if (d.classList && d.classList.contains('file') && d.open && d.dataset.view !== view) renderDiff(d);
  }, true);

  document.querySelectorAll('input[name="view"]').forEach(function (input) {
    input.addEventListener('change', function () {
      if (!input.checked) return;
      view = input.value;
      changes.querySelectorAll('details.file[open]').forEach(renderDiff);
    });
  });
})();
`;

/** The mark of an iteration a restart set aside (its row is dimmed by `tr.set-aside`). */
function asideMark(s: ReportSnapshot): string {
  const phrase = asidePhrase(s);
  return phrase === null ? '' : ` <span class="aside" title="${esc(phrase)}">set aside</span>`;
}

/** The mark of an iteration whose agent failed or was killed (its work is recorded all the same). */
function agentMark(s: ReportSnapshot): string {
  const phrase = agentPhrase(s);
  return phrase === null ? '' : ` <span class="aside agent-failed">${esc(phrase)}</span>`;
}

/** The newest verdict of each gate on the iteration, coloured as in the gates section. */
function verdictCells(s: ReportSnapshot): string {
  const verdicts = s.verdicts ?? [];
  if (verdicts.length === 0) return '<span class="none">-</span>';
  return verdicts
    .map(
      (v) => `<span class="gate-${v.verdict}" data-gate="${esc(v.name)}">${esc(v.name)}: ${v.verdict}</span>`,
    )
    .join(' ');
}
