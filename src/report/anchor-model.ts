import type { Anchor, TraceGate } from '../../types/anchor.js';
import type { AnchorReport, AnchorReportFile, LineSpan } from '../../types/anchor-report.js';
import { PathNotFoundError, RunNotFoundError } from '../errors.js';
import { commitsBroughtIn } from '../git/provenance.js';
import { resolveRevision } from '../git/refs.js';
import type { Repo } from '../git/repo.js';
import { computeAnchor, isWipOrigin } from '../provenance/anchor.js';
import { sameAnchor } from '../provenance/compare.js';
import { newestVerdicts } from '../provenance/gates.js';
import type { ProvenanceSources } from '../provenance/sources.js';
import { traceWithWip } from '../provenance/trace.js';

/** The report lists the lines not from runs of at most this many files (one blame each); the rest are counted. */
export const MAX_LISTED = 200;

/**
 * `report --anchor REV`: REV's anchor computed now from the records and git (narrowed as the
 * recorded one was), whether the recorded one says the same, each origin's newest gate verdicts,
 * and for each file the lines REV's change brought that no recorded iteration wrote (from
 * `trace`: lines blamed on a commit REV brought in, with no origin).
 */
export async function buildAnchorReport(
  src: ProvenanceSources,
  repo: Repo,
  rev: string,
  now = new Date(),
): Promise<AnchorReport> {
  const commit = await resolveRevision(repo, rev, 'commit');
  const recorded = await src.anchors.load(commit);
  const anchor = await narrowedAnchor(src, repo, commit, recorded?.onlyRuns ?? null, now);
  const verdicts = new Map<string, Map<number, TraceGate[]>>();
  for (const r of anchor.runs) verdicts.set(r.runId, await newestVerdicts(src, r.runId));
  const brought = new Set(
    await commitsBroughtIn(repo, commit, anchor.parents.length > 0 ? [anchor.parents[0] as string] : []),
  );
  let listed = 0;
  const files: AnchorReportFile[] = [];
  for (const f of anchor.files) {
    const needs = f.status !== 'deleted' && f.linesFromRuns < f.linesAdded;
    const list = needs && listed < MAX_LISTED;
    if (list) listed += 1;
    files.push({
      path: f.path,
      oldPath: f.oldPath ?? null,
      status: f.status,
      method: f.method,
      linesAdded: f.linesAdded,
      linesFromRuns: f.linesFromRuns,
      origins: f.origins.map((o) => ({
        ...o,
        // A WIP's lines (reported as iteration 0) were judged by no gate.
        gates: isWipOrigin(o) ? [] : (verdicts.get(o.runId)?.get(o.iteration) ?? []),
      })),
      notFromRuns: !needs ? [] : list ? await notFromRuns(src, repo, commit, f.path, brought, anchor) : null,
    });
  }
  return {
    kind: 'anchor',
    generatedAt: now.toISOString(),
    commit,
    tree: anchor.tree,
    parents: anchor.parents,
    treeMatch: anchor.treeMatch,
    runs: anchor.runs,
    coverage: anchor.coverage,
    recorded: recorded === null ? 'none' : sameAnchor(recorded, anchor) ? 'same' : 'differs',
    files,
    unlisted: files.filter((f) => f.notFromRuns === null).length,
  };
}

/**
 * REV's anchor narrowed to the runs `only` names that this home still holds: a run the recorded
 * anchor was narrowed to that is gone leaves the others (the recorded anchor then `differs`, as
 * `verify --anchor` fails it), never a report that cannot be made.
 */
async function narrowedAnchor(
  src: ProvenanceSources,
  repo: Repo,
  commit: string,
  only: readonly string[] | null,
  now: Date,
): Promise<Anchor> {
  let runIds = only;
  for (;;)
    try {
      return await computeAnchor(src, repo, commit, { ...(runIds === null ? {} : { runIds }), now });
    } catch (error) {
      const gone = error instanceof RunNotFoundError ? error.details.runId : undefined;
      if (runIds === null || typeof gone !== 'string' || !runIds.includes(gone)) throw error;
      runIds = runIds.filter((r) => r !== gone);
    }
}

/** The line spans of `path` at `commit` that the commit's change brought (blamed on a commit it brought in) and no run wrote. */
async function notFromRuns(
  src: ProvenanceSources,
  repo: Repo,
  commit: string,
  path: string,
  brought: ReadonlySet<string>,
  anchor: Anchor,
): Promise<LineSpan[]> {
  const traced = await traceWithWip(src, repo, path, {
    rev: commit,
    ...(anchor.onlyRuns ? { runIds: anchor.onlyRuns } : {}),
  }).catch((error: unknown) => {
    // A submodule has nothing to blame: its one line (`Subproject commit`, as git's diff counts
    // it) is what REV's change brought, and no run wrote it (else this file would not be asked).
    if (error instanceof PathNotFoundError && error.details.type === 'commit') return null;
    throw error;
  });
  if (traced === null) return [{ start: 1, end: 1 }];
  const { trace, wip } = traced;
  const spans: LineSpan[] = [];
  for (const r of trace.ranges) {
    // A line of the WIP before commit (iteration 0) was there before the run: not the agent's either.
    if ((r.origin !== null && !wip.has(r)) || !brought.has(r.commit)) continue;
    const last = spans.at(-1);
    if (last !== undefined && last.end === r.start - 1) last.end = r.end;
    else spans.push({ start: r.start, end: r.end });
  }
  return spans;
}
