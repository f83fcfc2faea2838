/** The run report: one run, its iterations and their verification, as HTML, Markdown, JSON or dotenv. */
import { open } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  DEFAULT_REPORT_MAX_FILE_DIFF_BYTES,
  DEFAULT_REPORT_MAX_TOTAL_DIFF_BYTES,
} from '../../types/config.js';
import { RunReport, type ReportFormat, type ReportSnapshot } from '../../types/report.js';
import {
  FileArg,
  OptionalTextArg,
  ReportFormatArg,
  ReportOptionsArg,
  SnapshotterArg,
} from '../../types/library.js';
import { checkArgument } from '../arguments.js';
import { jsonText } from '../text.js';
import { isAgentgateError } from '../errors.js';
import { writeOutputFile } from '../fs/atomic.js';
import type { Snapshotter } from '../snapshotter/snapshotter.js';
import { loadAssets } from './assets.js';
import { renderDotenv } from './dotenv.js';
import { writeHtml } from './html.js';
import { renderMarkdown } from './markdown.js';
import { buildRunReport } from './model.js';
import { DiffBudget, fileDiffs, type DiffLimits, type FileDiffText } from './patches.js';

export { buildRunReport } from './model.js';
export type { DiffLimits } from './patches.js';

export interface ReportOptions {
  /** How much diff the HTML report embeds (default: the config defaults, 512 KiB per file, 20 MiB in all). */
  limits?: Partial<DiffLimits>;
  /**
   * Without a run id: the directory whose most recent run is reported (a run recorded there or in a
   * directory holding it; default: the snapshotter's local workspace, -C), else the most recent of all.
   */
  workspace?: string;
}

/** Renders one run's report in the given format. */
export async function renderReport(
  snapshotter: Snapshotter,
  format: ReportFormat,
  runId?: string,
  options: ReportOptions = {},
): Promise<{ report: RunReport; text: string }> {
  checkReportArguments(snapshotter, format, runId, options);
  const parts: string[] = [];
  const report = await render(snapshotter, format, runId, options, async (part) => {
    parts.push(part);
  });
  return { report, text: parts.join('') };
}

/** Renders the report and writes it to `file` atomically, as it is rendered. */
export async function writeReport(
  snapshotter: Snapshotter,
  format: ReportFormat,
  file: string,
  runId?: string,
  options: ReportOptions = {},
): Promise<{ file: string; format: ReportFormat; runId: string; bytes: number }> {
  checkReportArguments(snapshotter, format, runId, options);
  const path = resolve(checkArgument(FileArg, file, 'file'));
  let bytes = 0;
  const report = await writeOutputFile(path, async (temp) => {
    const handle = await open(temp, 'wx', 0o644);
    try {
      // Small parts (one per file of a big iteration) are gathered into writes of about 1 MiB.
      let pending: string[] = [];
      let pendingLength = 0;
      const flush = async () => {
        if (pending.length === 0) return;
        bytes += (await handle.write(pending.join(''))).bytesWritten;
        pending = [];
        pendingLength = 0;
      };
      const written = await render(snapshotter, format, runId, options, async (part) => {
        if (part.length >= WRITE_SIZE / 16) {
          // A big part (a diff) is written as it is, not copied into a joined one.
          await flush();
          bytes += (await handle.write(part)).bytesWritten;
          return;
        }
        pending.push(part);
        pendingLength += part.length;
        if (pendingLength >= WRITE_SIZE) await flush();
      });
      await flush();
      return written;
    } finally {
      await handle.close();
    }
  });
  return { file: path, format, runId: report.run.runId, bytes };
}

const WRITE_SIZE = 1024 * 1024;

/** The arguments renderReport and writeReport share: an unknown format is refused, as `report --format` refuses it. */
function checkReportArguments(snapshotter: unknown, format: unknown, runId: unknown, options: unknown): void {
  checkArgument(SnapshotterArg, snapshotter, 'snapshotter');
  checkArgument(ReportFormatArg, format, 'format');
  checkArgument(OptionalTextArg, runId, 'runId');
  checkArgument(ReportOptionsArg, options, 'options');
}

/** Renders the report through `write`, a part at a time, so that a big HTML page is never one string. */
async function render(
  snapshotter: Snapshotter,
  format: ReportFormat,
  runId: string | undefined,
  options: ReportOptions,
  write: (part: string) => Promise<void>,
): Promise<RunReport> {
  const report = await buildRunReport(
    snapshotter,
    runId,
    new Date(),
    options.workspace === undefined ? {} : { workspace: options.workspace },
  );
  switch (format) {
    case 'json':
      // No `##[` a CI runner would obey when the document is printed in its log (the same JSON).
      await write(`${jsonText(RunReport.parse(report), 2)}\n`);
      break;
    case 'md':
      await write(renderMarkdown(report));
      break;
    case 'dotenv':
      await write(renderDotenv(report));
      break;
    case 'html': {
      const budget = new DiffBudget({
        maxFileDiffBytes: options.limits?.maxFileDiffBytes ?? DEFAULT_REPORT_MAX_FILE_DIFF_BYTES,
        maxTotalDiffBytes: options.limits?.maxTotalDiffBytes ?? DEFAULT_REPORT_MAX_TOTAL_DIFF_BYTES,
      });
      const diffs = async (s: ReportSnapshot, each: (diff: FileDiffText) => Promise<void>) => {
        let sent = 0;
        try {
          await snapshotter.streamPatch(s, async (chunks) => {
            for await (const diff of fileDiffs(s.files, chunks, budget)) {
              sent += 1;
              await each(diff);
            }
          });
        } catch (error) {
          // A run fetched from elsewhere may lack both the artifact and the commits: the report still opens.
          if (!isAgentgateError(error)) throw error;
        }
        for (; sent < s.files.length; sent++)
          await each({ diff: '', binary: false, tooLarge: false, unavailable: true });
      };
      await writeHtml({ report, diffs, assets: await loadAssets() }, write);
      break;
    }
  }
  return report;
}
