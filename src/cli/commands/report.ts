import {
  DEFAULT_REPORT_MAX_FILE_DIFF_BYTES,
  DEFAULT_REPORT_MAX_TOTAL_DIFF_BYTES,
} from '../../../types/config.js';
import { ReportFormat } from '../../../types/report.js';
import { appendStepSummary, detectCi, githubFileFor } from '../../ci/github.js';
import { buildGateReport, gateAnnotations } from '../../report/gates.js';
import { UsageError } from '../../errors.js';
import { GateStore } from '../../store/gate-store.js';
import { reportAnchor, summaryText } from './report-anchor.js';
import type { Context } from '../context.js';
import { renderReport, writeReport } from '../../report/index.js';
import { leftOutNote, renderMarkdown } from '../../report/markdown.js';
import { CI_OPTION, defineCommand } from '../spec.js';

/** `report`: one run as HTML (default), Markdown, JSON or GitLab dotenv. */
export const REPORT_COMMAND = defineCommand({
  name: 'report',
  usage:
    'report [--run ID | --anchor REV] [--format html|md|json|dotenv] [-o FILE] [--ci github|none] [--max-file-diff-bytes N] [--max-total-diff-bytes N]',
  summary:
    "A report of one run (default: the most recent), or with --anchor REV of REV's anchor: a self-contained HTML page, a Markdown step summary, one JSON document or GitLab dotenv variables. " +
    'Writes FILE with -o, else prints it (html onto a terminal is refused: USAGE, give -o or redirect); in GitHub Actions, md without -o is appended to $GITHUB_STEP_SUMMARY.',
  options: {
    run: {
      type: 'string',
      valueName: 'ID',
      description: 'the run to report',
      defaultText:
        'the run updated most recently in the workspace (-C, else the current directory), else of all',
    },
    anchor: {
      type: 'string',
      valueName: 'REV',
      description:
        "report REV's anchor instead of a run: per file its coverage, method, iterations and gates, and the lines no run wrote",
    },
    format: {
      type: 'string',
      choices: ReportFormat.options,
      valueName: 'FORMAT',
      description:
        'html (one self-contained page), md (GitHub-flavoured Markdown, at most 1 MiB), json (one document) or dotenv (GitLab AGENTGATE_* variables)',
      default: 'html',
    },
    output: {
      type: 'string',
      short: 'o',
      valueName: 'FILE',
      description: 'write the report to FILE instead of printing it',
    },
    'max-file-diff-bytes': {
      type: 'integer',
      valueName: 'N',
      description:
        'html: a file with a larger diff is listed as "too large to show here" (its diff stays in the patch artifact)',
      defaultText: `report.maxFileDiffBytes in the config, else ${DEFAULT_REPORT_MAX_FILE_DIFF_BYTES}`,
    },
    'max-total-diff-bytes': {
      type: 'integer',
      valueName: 'N',
      description: 'html: at most this much diff in the whole page; files past it are listed as too large',
      defaultText: `report.maxTotalDiffBytes in the config, else ${DEFAULT_REPORT_MAX_TOTAL_DIFF_BYTES}`,
    },
    ci: {
      ...CI_OPTION,
      description:
        'GitHub Actions integration: with github, md without -o is appended to $GITHUB_STEP_SUMMARY',
    },
  },
  positionals: { required: [] },
  examples: [
    'report --run "$RUN" --format html -o report.html',
    'report --format md --ci github',
    'report --anchor HEAD --format html -o anchor.html',
  ],
  async run(ctx, values) {
    const format = values.format;
    const runId = values.run;
    const output = values.output;
    if (values.anchor !== undefined && runId !== undefined)
      throw new UsageError('give --run ID or --anchor REV, not both');
    const options = {
      // -C, else the current directory (the contract's default): its own newest run, not another project's.
      workspace: ctx.workspace,
      limits: {
        maxFileDiffBytes: values['max-file-diff-bytes'] ?? ctx.settings.report.maxFileDiffBytes,
        maxTotalDiffBytes: values['max-total-diff-bytes'] ?? ctx.settings.report.maxTotalDiffBytes,
      },
    };
    const summaryFile =
      output === undefined && format === 'md' ? githubFileFor(values.ci, 'GITHUB_STEP_SUMMARY') : null;
    const github = detectCi(values.ci).mode === 'github';
    // A whole HTML page poured onto a terminal helps nobody: refused, with the two ways to keep it.
    if (
      format === 'html' &&
      output === undefined &&
      summaryFile === null &&
      !ctx.json &&
      process.stdout.isTTY
    )
      throw new UsageError(
        'report --format html writes a whole HTML page, not for a terminal; give -o FILE (report -o report.html) or redirect it (report > report.html), or choose --format md',
        { details: { format } },
      );
    if (values.anchor !== undefined) return reportAnchor(ctx, values.anchor, format, output, summaryFile);
    await ctx.assertGivenWorkspace();
    ctx.preferGivenWorkspace();
    const snapshotter = await ctx.snapshotter();
    if (output !== undefined) {
      const written = await writeReport(snapshotter, format, output, runId, options);
      return {
        ...(await failedGateCommands(ctx, github, written.runId)),
        json: written,
        human: () => `Wrote ${written.file} (${format}, run ${written.runId}, ${written.bytes} bytes)`,
      };
    }
    const { report, text } = await renderReport(snapshotter, format, runId, options);
    const annotations = await failedGateCommands(ctx, github, report.run.runId);
    if (summaryFile !== null) {
      const runId = report.run.runId;
      const appended = await appendStepSummary(summaryFile, {
        // Uncut: `text` is already cut to 1 MiB, and appending it would say `whole`.
        text: renderMarkdown(report, Number.POSITIVE_INFINITY),
        cutTo: (room) => renderMarkdown(report, room),
        note: leftOutNote(`the summary of run \`${runId}\``, `report --run ${runId} --format html`),
      });
      return {
        ...annotations,
        json: { summary: summaryFile, format, runId, appended },
        human: () => summaryText(`the run ${runId} summary`, appended),
      };
    }
    // --json promises one JSON document: the json format is that document, the others travel inside one.
    // Either way stdout is the document: the annotations go to stderr (jq, a page saved by redirection).
    return {
      ...annotations,
      documentOnStdout: true,
      json: format === 'json' ? report : { format, runId: report.run.runId, text },
      human: () => text.replace(/\n$/, ''),
    };
  },
});

/** On GitHub, an `::error` for each gate whose newest verdict failed. */
async function failedGateCommands(
  ctx: Context,
  github: boolean,
  runId: string,
): Promise<{ workflowCommands?: string[] }> {
  if (!github) return {};
  const gates = new GateStore(ctx.settings.home, { lockTimeoutMs: ctx.settings.lockTimeoutMs });
  const snapshotter = await ctx.snapshotter();
  const [snapshots, run] = await Promise.all([
    snapshotter.listByRun(runId),
    snapshotter.store.loadRun(runId),
  ]);
  const commands = gateAnnotations(await buildGateReport(gates, runId, snapshots, run?.restarts));
  return commands.length > 0 ? { workflowCommands: commands } : {};
}
