/**
 * `report --format md`: GitHub-flavoured Markdown for a step summary. GitHub takes at most 1 MiB
 * per step summary, so rows are added while they fit and the rest is replaced by a note.
 */
import { GITHUB_STEP_SUMMARY_LIMIT } from '../ci/github.js';
import type { RunReport } from '../../types/report.js';
import { showBidi, showPath } from './visible.js';
import { gateMarkdownBlocks } from './gates.js';
import { agentPhrase, asidePhrase, restartPhrases } from './model.js';

export function renderMarkdown(report: RunReport, limit = GITHUB_STEP_SUMMARY_LIMIT): string {
  const v = report.verification;
  const failed = v.checks.filter((c) => !c.ok);
  const head: string[] = [
    `## agentgate run \`${code(report.run.runId)}\``,
    '',
    '| | |',
    '|---|---|',
    `| Workspace | ${cell(report.run.workspace)} |`,
    `| Branch | ${report.branch === null ? '-' : cell(report.branch)} |`,
    `| Before | ${report.beforeSha ? `\`${report.beforeSha}\`` : '-'} |`,
    `| After | ${report.afterSha ? `\`${report.afterSha}\`` : '-'} |`,
    `| Verification | ${v.ok ? `:white_check_mark: passed (${v.checks.length} checks)` : `:x: **failed** (${failed.length} of ${v.checks.length} checks)`} |`,
    `| Totals | ${report.totals.iterations} iterations, ${report.totals.filesChanged} file changes summed over iterations (a file changed in two counts twice), +${report.totals.insertions} -${report.totals.deletions} |`,
    ...restartPhrases(report.run).map((r) => `| Restart | ${cell(r)} |`),
    '',
  ];
  // Blocks in order; a block is a group of lines added whole or not at all.
  const blocks: { lines: string[]; row: boolean }[] = [];
  const section = (lines: string[]) => blocks.push({ lines, row: false });
  const row = (line: string) => blocks.push({ lines: [line], row: true });
  if (failed.length) {
    section(['### Failed checks', '', '| Check | Snapshot | Detail |', '|---|---|---|']);
    for (const c of failed)
      row(`| ${cell(c.check)} | ${c.snapshotId ? `\`${code(c.snapshotId)}\`` : '-'} | ${cell(c.detail)} |`);
    section(['']);
  }
  blocks.push(...gateMarkdownBlocks(report.gates, cell));
  if (report.snapshots.length) {
    section([
      '### Iterations',
      '',
      '| # | Files | + | - | After | Task | Gate | Verdicts |',
      '|--:|--:|--:|--:|---|---|---|---|',
    ]);
    for (const s of report.snapshots) {
      const aside = asidePhrase(s);
      const agent = agentPhrase(s);
      const verdicts = (s.verdicts ?? []).map(
        (v) => `${v.name}: ${v.verdict === 'pass' ? 'pass' : `**${v.verdict}**`}`,
      );
      row(
        `| ${s.iteration}${aside === null ? '' : ` _(${aside})_`}${agent === null ? '' : ` _(${cell(agent)})_`} | ${s.filesChanged} | +${s.insertions} | -${s.deletions} | \`${s.afterSha.slice(0, 12)}\` | ${s.task === null ? '-' : cell(s.task)} | ${s.gate === null ? '-' : cell(s.gate)} | ${verdicts.length === 0 ? '-' : verdicts.join(', ')} |`,
      );
    }
    section(['']);
    for (const s of report.snapshots) {
      if (s.files.length === 0) continue;
      section([
        `<details><summary>Iteration ${s.iteration}: ${s.filesChanged} files, +${s.insertions} -${s.deletions}</summary>`,
        '',
        '| Status | + | - | Path |',
        '|---|--:|--:|---|',
      ]);
      for (const f of s.files) {
        const path = f.oldPath
          ? `${cell(showPath(f.oldPath))} &rarr; ${cell(showPath(f.path))}`
          : cell(showPath(f.path));
        row(
          `| ${f.status} | ${f.binary ? 'bin' : `+${f.insertions}`} | ${f.binary ? 'bin' : `-${f.deletions}`} | ${path} |`,
        );
      }
      section(['', '</details>', '']);
    }
  } else section(['No iterations recorded yet.', '']);

  const bytes = (lines: string[]) => lines.reduce((n, l) => n + Buffer.byteLength(l, 'utf8') + 1, 0);
  const out = [...head];
  let used = bytes(out);
  const reserve = 1024; // the note and the closing lines of a cut section
  let cutAt = -1;
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as (typeof blocks)[number];
    const size = bytes(block.lines);
    if (used + size + reserve > limit) {
      cutAt = i;
      break;
    }
    out.push(...block.lines);
    used += size;
  }
  if (cutAt !== -1) {
    const omitted = blocks.slice(cutAt).filter((b) => b.row).length;
    // Close a <details> left open by the cut.
    const opened =
      out.filter((l) => l.startsWith('<details>')).length - out.filter((l) => l === '</details>').length;
    out.push('', ...(opened > 0 ? ['</details>', ''] : []));
    out.push(
      `> [!NOTE]`,
      `> This summary was cut to stay within GitHub's 1 MiB step summary limit: ${omitted} more rows are not shown. The HTML or JSON report (\`report --format html\`) has everything.`,
      '',
    );
  }
  return out.join('\n');
}

/**
 * The one line a step summary gets instead of a section that does not fit even cut (earlier
 * sections filled the file): what was left out and the command that has it all.
 */
export function leftOutNote(what: string, command: string): string {
  return `_agentgate: ${what} is left out: this step summary is at GitHub's 1 MiB limit. "${command}" has everything._\n`;
}

/**
 * Text for a table cell: one line, no table or HTML syntax, Markdown punctuation escaped (`$`,
 * GitHub's math, and `www.`, an autolink, too), bidirectional-text controls shown as escapes.
 */
export function cell(text: string): string {
  return (
    showBidi(text)
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      // `$` would start GitHub's math, `www.` an autolink.
      .replace(/([\\`*_{}[\]()#+!|~:@$])/g, '\\$1')
      .replace(/\b(www)\./gi, '$1\\.')
      .trim() || '-'
  );
}

/** Text inside a code span: backticks and line breaks removed (ids never have them). */
function code(text: string): string {
  return text.replace(/[`\r\n]/g, '');
}
