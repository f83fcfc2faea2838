/** The run report: one run, its iterations and their verification, as HTML, Markdown, JSON or dotenv. */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  DEFAULT_REPORT_MAX_FILE_DIFF_BYTES,
  DEFAULT_REPORT_MAX_TOTAL_DIFF_BYTES,
} from '../../types/config.js';
import { RunReport, type ReportFormat } from '../../types/report.js';
import { isAgentgateError } from '../errors.js';
import { replaceFileAtomic } from '../fs/atomic.js';
import type { Snapshotter } from '../snapshotter/snapshotter.js';
import { loadAssets } from './assets.js';
import { renderDotenv } from './dotenv.js';
import { htmlParts } from './html.js';
import { renderMarkdown } from './markdown.js';
import { buildRunReport } from './model.js';
import { DiffBudget, fileDiffs, type DiffLimits, type FileDiffText } from './patches.js';

export { buildRunReport } from './model.js';
export { renderMarkdown } from './markdown.js';
export { renderDotenv } from './dotenv.js';
export type { DiffLimits } from './patches.js';

export interface ReportOptions {
  /** How much diff the HTML report embeds (default: the config defaults, 512 KiB per file, 20 MiB in all). */
  limits?: Partial<DiffLimits>;
}

/** Renders one run's report in the given format. */
export async function renderReport(
  snapshotter: Snapshotter,
  format: ReportFormat,
  runId?: string,
  options: ReportOptions = {},
): Promise<{ report: RunReport; text: string }> {
  const { report, parts } = await renderParts(snapshotter, format, runId, options);
  return { report, text: [...parts].join('') };
}

/** Renders the report and writes it to `file` atomically, a part at a time. */
export async function writeReport(
  snapshotter: Snapshotter,
  format: ReportFormat,
  file: string,
  runId?: string,
  options: ReportOptions = {},
): Promise<{ file: string; format: ReportFormat; runId: string; bytes: number }> {
  const { report, parts } = await renderParts(snapshotter, format, runId, options);
  const path = resolve(file);
  const bytes = await replaceFileAtomic(path, async (temp) => {
    const handle = await open(temp, 'wx', 0o644);
    let written = 0;
    try {
      for (const part of parts) written += (await handle.write(part)).bytesWritten;
    } finally {
      await handle.close();
    }
    return written;
  });
  return { file: path, format, runId: report.run.runId, bytes };
}

/** The report and its text as parts, so that a big HTML page is never one string. */
async function renderParts(
  snapshotter: Snapshotter,
  format: ReportFormat,
  runId: string | undefined,
  options: ReportOptions,
): Promise<{ report: RunReport; parts: Iterable<string> }> {
  const report = await buildRunReport(snapshotter, runId);
  switch (format) {
    case 'json':
      return { report, parts: [`${JSON.stringify(RunReport.parse(report), null, 2)}\n`] };
    case 'md':
      return { report, parts: [renderMarkdown(report)] };
    case 'dotenv':
      return { report, parts: [renderDotenv(report)] };
    case 'html': {
      const budget = new DiffBudget({
        maxFileDiffBytes: options.limits?.maxFileDiffBytes ?? DEFAULT_REPORT_MAX_FILE_DIFF_BYTES,
        maxTotalDiffBytes: options.limits?.maxTotalDiffBytes ?? DEFAULT_REPORT_MAX_TOTAL_DIFF_BYTES,
      });
      const diffs: FileDiffText[][] = [];
      for (const s of report.snapshots) {
        let files: FileDiffText[] = [];
        await snapshotter
          .streamPatch(s, async (chunks) => {
            files = await fileDiffs(s.files, chunks, budget);
          })
          .catch((error: unknown) => {
            // A run fetched from elsewhere may lack both the artifact and the commits: the report still opens.
            if (!isAgentgateError(error)) throw error;
            files = s.files.map(() => ({ diff: '', binary: false, tooLarge: false, unavailable: true }));
          });
        diffs.push(files);
      }
      return { report, parts: htmlParts({ report, diffs, assets: await loadAssets() }) };
    }
  }
}
