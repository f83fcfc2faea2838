/** The run report: one run, its iterations and their verification, as HTML, Markdown, JSON or dotenv. */
import { resolve } from 'node:path';
import { RunReport, type ReportFormat } from '../../types/report.js';
import { isAgentgateError } from '../errors.js';
import { writeFileAtomic } from '../fs/atomic.js';
import type { Snapshotter } from '../snapshotter/snapshotter.js';
import { loadAssets } from './assets.js';
import { renderDotenv } from './dotenv.js';
import { renderHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { buildRunReport } from './model.js';
import { fileDiffs } from './patches.js';

export { buildRunReport } from './model.js';
export { renderMarkdown } from './markdown.js';
export { renderDotenv } from './dotenv.js';

/** Renders one run's report in the given format. */
export async function renderReport(
  snapshotter: Snapshotter,
  format: ReportFormat,
  runId?: string,
): Promise<{ report: RunReport; text: string }> {
  const report = await buildRunReport(snapshotter, runId);
  switch (format) {
    case 'json':
      return { report, text: `${JSON.stringify(RunReport.parse(report), null, 2)}\n` };
    case 'md':
      return { report, text: renderMarkdown(report) };
    case 'dotenv':
      return { report, text: renderDotenv(report) };
    case 'html': {
      const diffs = [];
      for (const s of report.snapshots) {
        // A run fetched from elsewhere may lack both the artifact and the commits: the report still opens.
        const patch = await snapshotter.generatePatch(s).catch((error: unknown) => {
          if (isAgentgateError(error)) return null;
          throw error;
        });
        diffs.push(
          patch === null
            ? s.files.map(() => ({ diff: '', binary: false, truncated: false, unavailable: true }))
            : fileDiffs(s.files, patch),
        );
      }
      return { report, text: renderHtml({ report, diffs, assets: await loadAssets() }) };
    }
  }
}

/** Renders the report and writes it to `file` atomically. */
export async function writeReport(
  snapshotter: Snapshotter,
  format: ReportFormat,
  file: string,
  runId?: string,
): Promise<{ file: string; format: ReportFormat; runId: string; bytes: number }> {
  const { report, text } = await renderReport(snapshotter, format, runId);
  const path = resolve(file);
  await writeFileAtomic(path, text);
  return { file: path, format, runId: report.run.runId, bytes: Buffer.byteLength(text, 'utf8') };
}
