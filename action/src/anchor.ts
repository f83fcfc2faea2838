/**
 * mode: anchor, for a workflow on a push to the default branch or a merged pull request: fetch the
 * runs and anchors the remote holds, anchor the new commits (the push's `before..after`, or the
 * merge commit), publish the anchors (`push --anchors only`), and write the step summary and
 * outputs. The commits come from the `range` or `commit` input, else from the event.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendStepSummary } from '../../src/ci/github.js';

export interface ActionIo {
  input(name: string, fallback?: string): string;
  flag(name: string, fallback: boolean): boolean;
  cli(args: string[]): { status: number; stdout: string };
  cliJson(args: string[], what: string): unknown;
  setOutputs(values: Record<string, string>): Promise<void>;
  stepSummary: string | null;
  outputDir: string;
  fail(message: string): Error;
}

interface AnchorDoc {
  commit: string;
  coverage: { files: number; filesFromRuns: number; linesAdded: number; linesFromRuns: number };
  runs: Array<{ runId: string }>;
}

const ZERO = /^0+$/;
/** At most this many anchors get a section in the step summary (each is one `report --anchor`). */
const SUMMARY_ANCHORS = 20;

/**
 * What to anchor: `--range A..B` or one commit, from the inputs or the event GitHub describes; null
 * for a pull request that was not merged (closed unmerged, or still open): nothing of it landed.
 */
export function anchorTarget(io: Pick<ActionIo, 'input' | 'fail'>, env: NodeJS.ProcessEnv): string[] | null {
  const range = io.input('range');
  if (range) return ['--range', revisionInput(io, 'range', range, /\.\./)];
  const commit = io.input('commit');
  if (commit) return [revisionInput(io, 'commit', commit, /^/)];
  const event = readEvent(env.GITHUB_EVENT_PATH);
  const pr = event?.pull_request as { merged?: boolean; merge_commit_sha?: string } | undefined;
  if (pr !== undefined && pr !== null)
    return pr.merged === true && typeof pr.merge_commit_sha === 'string' ? [pr.merge_commit_sha] : null;
  const before = typeof event?.before === 'string' ? event.before : '';
  const after = typeof event?.after === 'string' ? event.after : (env.GITHUB_SHA ?? '');
  // A new branch's push has no before (all zeros): its last commit is anchored.
  if (before && !ZERO.test(before) && after) return ['--range', `${before}..${after}`];
  if (after) return [after];
  return ['HEAD'];
}

/**
 * The last commit of a forced push (`"forced": true`) whose range came from the event: a force push
 * rewrote the branch, so its `before` is usually in no clone (`actions/checkout` fetches what refs
 * reach) and `anchor --range before..after` finds no such revision. That push is then anchored as a
 * new branch's is. Null for anything else: a missing `before` of a plain push is a shallow clone,
 * which must fail rather than anchor one commit of many.
 */
export function forcedPushTip(io: Pick<ActionIo, 'input'>, env: NodeJS.ProcessEnv): string | null {
  if (io.input('range') || io.input('commit')) return null;
  const event = readEvent(env.GITHUB_EVENT_PATH);
  if (
    event === null ||
    event.forced !== true ||
    (event.pull_request !== undefined && event.pull_request !== null)
  )
    return null;
  const target = anchorTarget({ input: io.input, fail: (message) => new Error(message) }, env);
  return target?.[0] === '--range' && typeof event.after === 'string' ? event.after : null;
}

/** A revision (or a range) as given: one word that no option parser can take for an option. */
function revisionInput(io: Pick<ActionIo, 'fail'>, name: string, text: string, shape: RegExp): string {
  if (text.startsWith('-') || /\s/.test(text) || !shape.test(text))
    throw io.fail(
      `input ${name} must be a git ${name === 'range' ? 'range A..B' : 'revision'}, not ${JSON.stringify(text)}`,
    );
  return text;
}

function readEvent(path: string | undefined): Record<string, unknown> | null {
  if (!path) return null;
  try {
    const doc = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    return doc !== null && typeof doc === 'object' ? (doc as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

interface AnchorInputs {
  target: string[] | null;
  remote: string[];
  fetch: boolean;
  summary: boolean;
  publish: boolean;
  minCoverage: number | null;
}

/** Every input mode anchor reads, checked before any work: a mistyped one fails the step first. */
function anchorInputs(io: ActionIo, env: NodeJS.ProcessEnv): AnchorInputs {
  return {
    target: anchorTarget(io, env),
    remote: io.input('remote') ? ['--remote', io.input('remote')] : [],
    fetch: io.flag('fetch', true),
    summary: io.flag('summary', true),
    publish: io.flag('publish', true),
    minCoverage: percentInput(io, 'min-coverage'),
  };
}

/** A whole percentage, or null when unset: decimal digits only (Number() takes `0x32`, `1e1`, `5.0`). */
function percentInput(io: ActionIo, name: string): number | null {
  const text = io.input(name);
  if (!text) return null;
  const value = /^[0-9]+$/.test(text) ? Number(text) : NaN;
  if (!(value <= 100))
    throw io.fail(`input ${name} must be a whole number from 0 to 100, not ${JSON.stringify(text)}`);
  return value;
}

export async function anchor(io: ActionIo, env: NodeJS.ProcessEnv): Promise<void> {
  const want = anchorInputs(io, env);
  mkdirSync(io.outputDir, { recursive: true });
  if (want.fetch) io.cliJson(['fetch', ...want.remote], 'fetch');
  const doc = want.target === null ? [] : anchorOrForcedTip(io, want.target, env);
  const anchors = (Array.isArray(doc) ? doc : [doc]) as AnchorDoc[];
  const total = anchors.reduce(
    (t, a) => ({
      files: t.files + a.coverage.files,
      filesFromRuns: t.filesFromRuns + a.coverage.filesFromRuns,
      linesAdded: t.linesAdded + a.coverage.linesAdded,
      linesFromRuns: t.linesFromRuns + a.coverage.linesFromRuns,
    }),
    { files: 0, filesFromRuns: 0, linesAdded: 0, linesFromRuns: 0 },
  );
  const report = writeReport(io, anchors);
  // The outputs come first: a failed summary or push still leaves the written report to upload.
  await io.setOutputs({
    commits: anchors.map((a) => a.commit).join(','),
    runs: [...new Set(anchors.flatMap((a) => a.runs.map((r) => r.runId)))].sort().join(','),
    files: String(total.files),
    'files-from-runs': String(total.filesFromRuns),
    'lines-added': String(total.linesAdded),
    'lines-from-runs': String(total.linesFromRuns),
    coverage:
      total.linesAdded === 0 ? '' : String(Math.floor((total.linesFromRuns * 100) / total.linesAdded)),
    'report-path': report,
  });
  await summarize(io, anchors, want);
  if (want.publish && anchors.length > 0) io.cliJson(['push', '--anchors', 'only', ...want.remote], 'push');
  const wanted = want.minCoverage;
  if (wanted !== null) {
    const got = total.linesAdded === 0 ? 100 : Math.floor((total.linesFromRuns * 100) / total.linesAdded);
    if (got < wanted)
      throw io.fail(
        `${total.linesFromRuns} of ${total.linesAdded} added lines (${got}%) come from recorded runs, below min-coverage ${wanted}%`,
      );
  }
}

/** `anchor` of the target; a forced push whose `before` this clone lacks: its last commit (forcedPushTip). */
function anchorOrForcedTip(io: ActionIo, target: string[], env: NodeJS.ProcessEnv): unknown {
  try {
    return io.cliJson(['anchor', ...target], 'anchor');
  } catch (error) {
    const tip = forcedPushTip(io, env);
    if (tip === null || (error as { code?: unknown }).code !== 'REVISION_NOT_FOUND') throw error;
    process.stdout.write(
      `::notice title=agentgate::a forced push: its before commit is not in this clone; anchoring its last commit ${tip}\n`,
    );
    return io.cliJson(['anchor', tip], 'anchor');
  }
}

/** The HTML report of the last anchor; returns its path ('' when nothing was anchored). */
function writeReport(io: ActionIo, anchors: readonly AnchorDoc[]): string {
  const last = anchors.at(-1);
  if (last === undefined) return '';
  const report = join(io.outputDir, `agentgate-anchor-${last.commit}.html`);
  io.cliJson(['report', '--anchor', last.commit, '--format', 'html', '-o', report, '--ci', 'none'], 'report');
  return report;
}

/**
 * A step summary section per anchor. Nothing anchored: one line saying why (a pull request that was
 * not merged, or a push that brought no new first-parent commit).
 */
async function summarize(io: ActionIo, anchors: readonly AnchorDoc[], want: AnchorInputs): Promise<void> {
  if (io.stepSummary === null || !want.summary) return;
  // As the CLI appends: within the 1 MiB left, on a line of its own, a FIFO nobody reads refused at once.
  if (anchors.length === 0)
    await appendStepSummary(
      io.stepSummary,
      want.target === null
        ? '## agentgate anchor\n\nThe pull request was not merged: nothing to anchor.\n'
        : '## agentgate anchor\n\nNo new first-parent commit to anchor.\n',
    );
  // Each section is cut to the room the file has left (the CLI sees what is there); once one did
  // not fit whole, the file is full: the sections after it are left out.
  for (const a of anchors.slice(-SUMMARY_ANCHORS)) {
    const doc = io.cliJson(['report', '--anchor', a.commit, '--format', 'md', '--ci', 'github'], 'summary');
    const appended = (doc as { appended?: unknown } | null)?.appended;
    if (appended !== undefined && appended !== 'whole') break;
  }
}
