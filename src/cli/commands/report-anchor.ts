import { resolve } from 'node:path';
import type { AnchorReport } from '../../../types/anchor-report.js';
import type { ReportFormat } from '../../../types/report.js';
import { appendStepSummary, type SummaryAppended } from '../../ci/github.js';
import { writeOutputData } from '../../fs/atomic.js';
import { openRepo } from '../../git/repo.js';
import { provenanceSources } from '../../provenance/sources.js';
import { buildAnchorReport } from '../../report/anchor-model.js';
import { renderAnchorDotenv, renderAnchorHtml, renderAnchorMarkdown } from '../../report/anchor-render.js';
import { leftOutNote } from '../../report/markdown.js';
import type { Context } from '../context.js';
import type { CommandResult } from '../spec.js';
import { jsonText } from '../../text.js';

function render(report: AnchorReport, format: ReportFormat): string {
  if (format === 'html') return renderAnchorHtml(report);
  if (format === 'md') return renderAnchorMarkdown(report);
  if (format === 'dotenv') return renderAnchorDotenv(report);
  return `${jsonText(report, 2)}\n`;
}

/** What `report` says it put into the step summary: all of `what`, a cut, a note, or nothing. */
export function summaryText(what: string, appended: SummaryAppended): string {
  if (appended === 'whole') return `Appended ${what} to $GITHUB_STEP_SUMMARY.`;
  if (appended === 'cut') return `Appended ${what}, cut to the room left, to $GITHUB_STEP_SUMMARY.`;
  if (appended === 'note')
    return `$GITHUB_STEP_SUMMARY had no room for ${what}: appended a note that it was left out.`;
  return `$GITHUB_STEP_SUMMARY is full: ${what} was not appended.`;
}

/**
 * `report --anchor REV`: the anchor of REV as computed now (and whether the recorded one says the
 * same), per file its coverage, method, iterations with their gates, and the lines no run wrote.
 */
export async function reportAnchor(
  ctx: Context,
  rev: string,
  format: ReportFormat,
  output: string | undefined,
  summaryFile: string | null,
): Promise<CommandResult> {
  const snapshotter = await ctx.snapshotter();
  const repo = await openRepo(ctx.workspace, snapshotter.gitOptions());
  const report = await buildAnchorReport(provenanceSources(snapshotter), repo, rev);
  const text = render(report, format);
  const commit = report.commit;
  if (output !== undefined) {
    const file = resolve(output);
    await writeOutputData(file, text);
    const bytes = Buffer.byteLength(text, 'utf8');
    return {
      json: { file, format, commit, bytes },
      human: () => `Wrote ${file} (${format}, anchor of ${commit.slice(0, 12)}, ${bytes} bytes)`,
    };
  }
  if (summaryFile !== null) {
    const short = commit.slice(0, 12);
    const appended = await appendStepSummary(summaryFile, {
      // Uncut: `text` is already cut to 1 MiB, and appending it would say `whole`.
      text: renderAnchorMarkdown(report, Number.POSITIVE_INFINITY),
      cutTo: (room) => renderAnchorMarkdown(report, room),
      note: leftOutNote(`the anchor of \`${short}\``, `report --anchor ${short} --format html`),
    });
    return {
      json: { summary: summaryFile, format, commit, appended },
      human: () => summaryText(`the anchor of ${short}`, appended),
    };
  }
  return {
    json: format === 'json' ? report : { format, commit, text },
    human: () => text.replace(/\n$/, ''),
  };
}
