import type { RunRecord } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyCheck, VerifyReport } from '../../types/verify.js';
import { NothingToVerifyError, type StoreCorruptError } from '../errors.js';
import { assertSafeId } from '../store/paths.js';
import { continuityChecks, verifySnapshot } from './verify.js';
import type { SnapshotterCore } from './core.js';
import { buildReceivedArtifact } from './received-artifact.js';

/** Verifies one snapshot, a run, or the whole store (including files that no longer load). */
export async function verify(
  core: SnapshotterCore,
  target: { id: string } | { runId: string } | { all: true },
): Promise<VerifyReport> {
  const checks: VerifyCheck[] = [];
  let snapshots: Snapshot[];
  if ('id' in target) snapshots = [await core.getSnapshot(target.id)];
  else if ('runId' in target) {
    // A link to a missing or corrupt file is a failed check; the rest of the run is still verified.
    const contents = await core.store.inspectRun(assertSafeId(target.runId, 'run id'));
    // A snapshot the run links twice is verified once; runLinkChecks fails the second link.
    snapshots = [...new Map(contents.snapshots.map((s) => [s.id, s])).values()];
    checks.push(...contents.problems.map((p) => storeFileCheck(p, target.runId)));
  } else {
    const listed = await core.store.list();
    snapshots = listed.snapshots;
    const runs = await core.store.listRuns();
    // A run's link to a file that is gone is found along the run (listing the files cannot see it).
    const linked = await Promise.all(
      runs.runs.map(async (r) => (await core.store.inspectRun(r.runId)).problems),
    );
    const problems = [...listed.problems, ...runs.problems, ...linked.flat()];
    const once = [...new Map(problems.map((p) => [p.message, p])).values()];
    checks.push(...once.map((p) => storeFileCheck(p, null)));
  }
  if (snapshots.length === 0 && checks.length === 0) {
    const what =
      'id' in target
        ? `snapshot ${target.id}`
        : 'runId' in target
          ? `run ${target.runId}`
          : `the home ${core.store.home}`;
    throw new NothingToVerifyError(
      `${what} has no snapshots to verify; check --home (or AGENTGATE_HOME) and the run id: a gate that verifies nothing must not pass`,
      { details: { home: core.store.home } },
    );
  }
  const runs = new Map<string, RunRecord | null>();
  const local: Snapshot[] = [];
  for (const snapshot of snapshots) {
    if (!runs.has(snapshot.runId))
      runs.set(snapshot.runId, await core.store.loadRun(snapshot.runId).catch(() => null));
    const here = await core.withLocalPaths(snapshot);
    await buildReceivedArtifact(core, here);
    local.push(here);
    checks.push(...(await verifySnapshot(here, runs.get(snapshot.runId) ?? null, core.gitOptions())));
  }
  if (!('id' in target)) {
    // Along each run's own links: a stray file of the run that it does not link is checked above, not here.
    for (const [runId, run] of runs) {
      const linked = local.filter((s) => s.runId === runId && (run?.snapshotIds.includes(s.id) ?? false));
      if (run) checks.push(...runLinkChecks(run, linked));
      checks.push(
        ...(await continuityChecks(
          linked,
          core.gitOptions(),
          run?.restarts ?? [],
          run?.deletedSnapshots ?? [],
        )),
      );
    }
  }
  return { ok: checks.every((c) => c.ok), checks };
}

/**
 * A run links each snapshot once, one snapshot per iteration, in iteration order: a failed
 * `run-links` check per extra link and per link out of order.
 */
function runLinkChecks(run: RunRecord, linked: readonly Snapshot[]): VerifyCheck[] {
  const fail = (snapshotId: string, detail: string): VerifyCheck => ({
    snapshotId,
    runId: run.runId,
    check: 'run-links',
    ok: false,
    detail,
  });
  const twice = run.snapshotIds.filter((id, i) => run.snapshotIds.indexOf(id) !== i);
  const checks = [...new Set(twice)].map((id) =>
    fail(id, `run ${run.runId} links snapshot ${id} more than once (runs/${run.runId}.json was edited?)`),
  );
  const byIteration = new Map<number, string>();
  // In the run's order: the later link is the extra one.
  const byId = new Map(linked.map((s) => [s.id, s]));
  for (const s of new Set(run.snapshotIds.map((id) => byId.get(id)))) {
    if (s === undefined) continue;
    const other = byIteration.get(s.iteration);
    if (other === undefined) byIteration.set(s.iteration, s.id);
    else if (other !== s.id)
      checks.push(
        fail(s.id, `snapshots ${other} and ${s.id} of run ${run.runId} both record iteration ${s.iteration}`),
      );
  }
  // CONTRACT.md: `snapshotIds` is ordered by iteration; `after` and `before` read the last link as the run's last iteration.
  // A link failed above (a second link, a second snapshot of an iteration) is not failed twice.
  const failed = new Set(checks.map((c) => c.snapshotId));
  let highest = -1;
  for (const s of new Set(run.snapshotIds.map((id) => byId.get(id)))) {
    if (s === undefined || failed.has(s.id)) continue;
    if (s.iteration < highest)
      checks.push(
        fail(
          s.id,
          `run ${run.runId} links iteration ${s.iteration} after iteration ${highest}: its links are out of iteration order (runs/${run.runId}.json was edited?)`,
        ),
      );
    highest = Math.max(highest, s.iteration);
  }
  return checks;
}

/** A store file that does not load, as a failed check of `verify`. */
function storeFileCheck(problem: StoreCorruptError, runId: string | null): VerifyCheck {
  return { snapshotId: null, runId, check: 'store-file', ok: false, detail: problem.message };
}
