import { ReportFormat } from '../../../types/report.js';
import { detectCi, githubFile, appendStepSummary } from '../../ci/github.js';
import { InvalidArgumentError } from '../../errors.js';
import { renderReport, writeReport } from '../../report/index.js';
import { str } from '../context.js';
import type { CommandSpec } from '../spec.js';

/** `report`: one run as HTML (default), Markdown, JSON or GitLab dotenv. */
export const REPORT_COMMAND: CommandSpec = {
  name: 'report',
  usage: 'report [--run ID] [--format html|md|json|dotenv] [-o FILE] [--ci github|none]',
  summary:
    'A report of one run (default: the most recent): a self-contained HTML page, a Markdown step summary, one JSON document or GitLab dotenv variables. ' +
    'Writes FILE with -o, else prints it; in GitHub Actions, md without -o is appended to $GITHUB_STEP_SUMMARY.',
  options: {
    run: { type: 'string' },
    format: { type: 'string' },
    output: { type: 'string', short: 'o' },
    ci: { type: 'string' },
  },
  positionals: { required: [] },
  async run(ctx, values) {
    const parsed = ReportFormat.safeParse(values.format ?? 'html');
    if (!parsed.success) throw new InvalidArgumentError(`--format must be one of ${ReportFormat.options.join(', ')}`);
    const format = parsed.data;
    const runId = str(values.run);
    const output = str(values.output);
    const ci = detectCi(str(values.ci));
    const summaryFile = output === undefined && format === 'md' && ci.mode === 'github' ? githubFile('GITHUB_STEP_SUMMARY', ci.forced) : null;
    if (output !== undefined) {
      const written = await writeReport(ctx.snapshotter, format, output, runId);
      return { json: written, human: () => `Wrote ${written.file} (${format}, run ${written.runId}, ${written.bytes} bytes)` };
    }
    const { report, text } = await renderReport(ctx.snapshotter, format, runId);
    if (summaryFile !== null) {
      await appendStepSummary(summaryFile, text);
      return { json: { summary: summaryFile, format, runId: report.run.runId }, human: () => `Appended the run ${report.run.runId} summary to $GITHUB_STEP_SUMMARY.` };
    }
    // --json promises one JSON document: the json format is that document, the others travel inside one.
    return { json: format === 'json' ? report : { format, runId: report.run.runId, text }, human: () => text.replace(/\n$/, '') };
  },
};
