import type { Anchor, Trace } from '../../../types/anchor.js';
import { errorAnnotations } from '../../ci/github.js';
import { InvalidArgumentError, UsageError } from '../../errors.js';
import { openRepo } from '../../git/repo.js';
import { toAgentTrace } from '../../provenance/agent-trace.js';
import { anchorRange, computeAnchor } from '../../provenance/anchor.js';
import { writeCommitStatement } from '../../provenance/attest-commit.js';
import { provenanceSources, recordSources } from '../../provenance/sources.js';
import { traceWithWip } from '../../provenance/trace.js';
import { verifyAnchor } from '../../provenance/verify-anchor.js';
import type { Context } from '../context.js';
import { countOf, paint, printable, short, table, VERIFY_FAILED_EXIT } from '../output.js';
import { defineCommand, type CommandResult } from '../spec.js';
import { packageVersion } from '../version.js';
import { jsonText } from '../../text.js';

async function open(ctx: Context) {
  // The repository is opened (two git processes) while the snapshotter's code loads.
  const { identity, gitTimeoutMs } = ctx.settings;
  const [snapshotter, repo] = await Promise.all([
    ctx.snapshotter(),
    openRepo(ctx.workspace, { identity, timeoutMs: gitTimeoutMs }),
  ]);
  return { src: provenanceSources(snapshotter), repo };
}

function anchorText(a: Anchor): string {
  const match = a.treeMatch
    ? `tree of run ${a.treeMatch.runId} iteration ${a.treeMatch.iteration}`
    : 'no after tree';
  const rows = a.files.map((f) => [
    f.method,
    `${f.linesFromRuns}/${f.linesAdded}`,
    f.origins.map((o) => `${o.runId}#${o.iteration}:${o.lines}`).join(' ') || '-',
    printable(f.path),
  ]);
  const c = a.coverage;
  return `${short(a.commit)}: ${c.filesFromRuns} of ${countOf(c.files, 'file')} and ${c.linesFromRuns} of ${countOf(c.linesAdded, 'added line')} from runs (${match})\n${table(['METHOD', 'LINES', 'ORIGINS', 'PATH'], rows)}`;
}

const anchor = defineCommand({
  name: 'anchor',
  usage: 'anchor (REV | --range A..B) [--run ID]...',
  summary:
    'Work out which runs and iterations produced the change a commit made to its first parent (ancestry, tree, blob, patch-id, lines), and record it.',
  description:
    'Links are computed from content, never from commit messages. A file or line no recorded iteration explains is reported as such. The anchor is recorded at <home>/anchors/<commit>.json; "verify --anchor REV" recomputes it. With --range, every first-parent commit of A..B, oldest first; a range with none (a push that brought no new commit) anchors nothing and exits 0.',
  options: {
    range: {
      type: 'string',
      valueName: 'A..B',
      description: 'every first-parent commit in A..B (CI on a push to main)',
    },
    run: {
      type: 'string',
      valueName: 'ID',
      multiple: true,
      description: 'only these runs are candidates (default: every run of this repository in the home)',
    },
  },
  positionals: { required: [], optional: ['REV'] },
  examples: ['anchor HEAD', 'anchor --range "$BEFORE..$AFTER"'],
  async run(ctx, values, [rev]) {
    if ((rev === undefined) === (values.range === undefined))
      throw new UsageError('give one of REV or --range A..B');
    const { src, repo } = await open(ctx);
    const opts = values.run.length > 0 ? { runIds: values.run } : {};
    const anchors =
      values.range !== undefined
        ? await anchorRange(src, repo, values.range, opts)
        : [await computeAnchor(src, repo, rev as string, opts)];
    for (const a of anchors) await src.anchors.save(a);
    return {
      json: values.range !== undefined ? anchors : anchors[0],
      human: () =>
        anchors.length === 0
          ? `No first-parent commit in ${printable(values.range ?? '')}: nothing to anchor.`
          : anchors.map(anchorText).join('\n\n'),
    };
  },
});

function parseLines(text: string | undefined): { start: number; end: number } | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+),(\d+)$/.exec(text);
  const start = Number(m?.[1]);
  const end = Number(m?.[2]);
  if (m === null || start < 1 || end < start)
    throw new InvalidArgumentError(`-L ${JSON.stringify(text)}: give START,END with 1 <= START <= END`, {
      details: { option: 'L', value: text },
    });
  return { start, end };
}

function traceText(t: Trace): string {
  const rows = t.ranges.map((r) => [
    r.start === r.end ? `${r.start}` : `${r.start}-${r.end}`,
    short(r.commit),
    r.origin === null
      ? '-'
      : `${r.origin.runId}#${r.origin.iteration}${r.alsoIn.length ? ` (also ${r.alsoIn.join(', ')})` : ''}`,
    r.origin === null ? '' : r.origin.gates.map((g) => `${g.name}:${g.verdict}`).join(' '),
  ]);
  return `${printable(t.path)} at ${short(t.rev)}\n${table(['LINES', 'COMMIT', 'ORIGIN', 'GATES'], rows)}`;
}

const trace = defineCommand({
  name: 'trace',
  usage: 'trace PATH [--rev REV] [-L START,END] [--format json|agent-trace] [--run ID]...',
  summary:
    'For each line of a file: the run, iteration and snapshot that wrote it, and the newest verdict of each gate there (blame by iteration).',
  description:
    "Built on git blame --porcelain and the runs' chains of after commits. A line that predates the run, or that a person wrote after it, has no origin; a line of a WIP before commit is iteration 0. With --format agent-trace, an Agent Trace v0.1.0 record (application/vnd.agent-trace.record+json).",
  options: {
    rev: { type: 'string', valueName: 'REV', description: 'the revision to trace', default: 'HEAD' },
    lines: {
      type: 'string',
      short: 'L',
      valueName: 'START,END',
      description: 'only these lines (1-based, inclusive)',
    },
    format: {
      type: 'string',
      choices: ['json', 'agent-trace'],
      valueName: 'FORMAT',
      description: 'json prints the trace as JSON (as --json does); agent-trace prints an Agent Trace record',
    },
    run: { type: 'string', valueName: 'ID', multiple: true, description: 'only these runs are candidates' },
  },
  positionals: { required: ['PATH'] },
  examples: ['trace src/index.ts', 'trace src/index.ts --format agent-trace > trace.json'],
  async run(ctx, values, [path]) {
    // The store alone: the snapshotter's code is loaded only if a run's verdicts need ordering.
    const { identity, gitTimeoutMs, lockTimeoutMs } = ctx.settings;
    const src = recordSources(ctx.store, lockTimeoutMs, () => ctx.snapshotter());
    const repo = await openRepo(ctx.workspace, { identity, timeoutMs: gitTimeoutMs });
    const range = parseLines(values.lines);
    const { trace: t, wip } = await traceWithWip(src, repo, path as string, {
      rev: values.rev,
      ...(range ? { range } : {}),
      ...(values.run.length > 0 ? { runIds: values.run } : {}),
    });
    if (values.format === 'agent-trace') {
      const record = toAgentTrace(t, { version: packageVersion() }, undefined, (r) => wip.has(r));
      return { json: record, human: () => jsonText(record, 2) };
    }
    // --format json asks for the document itself, with or without --json (as report --format json).
    return {
      json: t,
      human: () => (values.format === 'json' ? jsonText(t, 2) : traceText(t)),
    };
  },
});

export const PROVENANCE_COMMANDS = [anchor, trace];

/** `verify --anchor REV`: 0 when the recorded anchor recomputes the same, 3 when not, ANCHOR_NOT_FOUND (1) when there is none. */
export async function verifyAnchorCommand(
  ctx: Context,
  rev: string,
  github: boolean,
): Promise<CommandResult> {
  const { src, repo } = await open(ctx);
  const report = await verifyAnchor(src, repo, rev);
  const out = { ok: report.ok, checks: report.checks };
  return {
    json: out,
    exitCode: report.ok ? 0 : VERIFY_FAILED_EXIT,
    ...(github ? { workflowCommands: errorAnnotations(report.checks) } : {}),
    human: (colour) =>
      report.checks
        .map(
          (c) =>
            `${c.ok ? paint('ok', 'green', colour) : paint('FAIL', 'red', colour)} ${printable(c.detail)}`,
        )
        .join('\n'),
  };
}

/** `attest --commit REV -o FILE`. */
export async function attestCommitCommand(ctx: Context, rev: string, file: string): Promise<CommandResult> {
  const { src, repo } = await open(ctx);
  const written = await writeCommitStatement(src, repo, rev, file, { env: process.env });
  return {
    json: { file: written.file, subjects: written.subjects },
    human: () =>
      `Wrote ${written.file} (${rev} judged as run ${written.runId} iteration ${written.iteration}).`,
    notices: written.warnings.map((w) => `warning: ${w}`),
  };
}
