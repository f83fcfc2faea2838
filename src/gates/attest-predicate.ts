import type { AttestationCheck, GateConfiguration, TestResultPredicate } from '../../types/attestation.js';
import { testTotals, type GateResult } from '../../types/gate.js';
import { countingVerdicts, sortGateResults } from '../../types/gate-rules.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { GateStore } from '../store/gate-store.js';

/*
 * The Test Result predicate of a statement: built from the newest verdicts (attest), and checked
 * against the verdicts recorded here (verify --attestation), for run and commit statements alike.
 */

/** The newest verdict of each (iteration, name), in `gate list` order, of those that count (`countingVerdicts`). */
export function newestOfEach(verdicts: GateResult[], snapshots: readonly Snapshot[]): GateResult[] {
  const newest = new Map<string, GateResult>();
  for (const g of sortGateResults(countingVerdicts(verdicts, snapshots), snapshots))
    newest.set(`${g.iteration}/${g.name}`, g);
  return [...newest.values()].sort((a, b) => a.iteration - b.iteration || (a.name < b.name ? -1 : 1));
}

export function testName(g: Pick<GateResult, 'iteration' | 'name'>): string {
  return `iteration-${g.iteration}/${g.name}`;
}

export function configurationOf(g: GateResult): GateConfiguration {
  return {
    name: testName(g),
    digest: { gitTree: g.treeId },
    annotations: {
      runId: g.runId,
      iteration: g.iteration,
      gate: g.name,
      gateId: g.id,
      attempt: g.attempt,
      verdict: g.verdict,
      observed: g.observed,
      afterSha: g.afterSha,
      command: g.command,
      exitCode: g.exitCode,
      durationMs: g.durationMs,
      tests: testTotals(g.tests),
      logSha256: g.log?.sha256 ?? null,
    },
  };
}

/**
 * The Test Result predicate of these verdicts: an observed pass is passed, a pass the caller only
 * reported (`gate record`) is warned, a fail or error is failed. No verdict at all is FAILED: a
 * statement must never claim that tests passed when none ran.
 */
export function predicateOf(verdicts: GateResult[]): Omit<TestResultPredicate, 'url'> {
  const passedTests = verdicts.filter((g) => g.verdict === 'pass' && g.observed).map(testName);
  const warnedTests = verdicts.filter((g) => g.verdict === 'pass' && !g.observed).map(testName);
  const failedTests = verdicts.filter((g) => g.verdict !== 'pass').map(testName);
  const result =
    failedTests.length > 0 || verdicts.length === 0 ? 'FAILED' : warnedTests.length > 0 ? 'WARNED' : 'PASSED';
  return { result, configuration: verdicts.map(configurationOf), passedTests, warnedTests, failedTests };
}

/**
 * Each configuration entry against the stored verdict it names, that they are the newest verdicts
 * of the attested iterations (`complete`), and the result and test lists against them.
 */
export async function checkPredicate(
  gates: GateStore,
  runId: string,
  predicate: TestResultPredicate,
  attested: ReadonlySet<number>,
  snapshots: readonly Snapshot[],
): Promise<AttestationCheck[]> {
  const checks: AttestationCheck[] = [];
  const named: GateResult[] = [];
  for (const entry of predicate.configuration) {
    const check = `verdict ${entry.name}`;
    const g = await gates.load(runId, entry.annotations.gateId).catch(() => null);
    if (g === null) {
      checks.push({
        check,
        ok: false,
        detail: `verdict ${entry.annotations.gateId} is not recorded here (fetch the run?)`,
      });
      continue;
    }
    named.push(g);
    const same = JSON.stringify(configurationOf(g)) === JSON.stringify(entry);
    checks.push(
      same
        ? { check, ok: true, detail: `${g.verdict}, attempt ${g.attempt}` }
        : {
            check,
            ok: false,
            detail: `the statement does not match verdict ${g.id} as recorded (${g.verdict}, tree ${g.treeId})`,
          },
    );
  }
  checks.push(await checkComplete(gates, runId, named, attested, snapshots));
  const want = predicateOf(named);
  const lists = (['passedTests', 'warnedTests', 'failedTests'] as const).filter(
    (k) => JSON.stringify(want[k]) !== JSON.stringify(predicate[k]),
  );
  const differs = [
    ...(want.result === predicate.result
      ? []
      : [`result ${predicate.result}, the verdicts give ${want.result}`]),
    ...lists.map((k) => `${k} ${listText(predicate[k])}, the verdicts give ${listText(want[k])}`),
  ];
  checks.push(
    differs.length === 0
      ? { check: 'result', ok: true, detail: predicate.result }
      : { check: 'result', ok: false, detail: `the statement says ${differs.join('; ')}` },
  );
  return checks;
}

/** A test list in a check's detail: its first names and how many there are. */
function listText(list: readonly string[]): string {
  const shown = list.slice(0, 3).join(', ');
  return `[${shown}${list.length > 3 ? `, … ${list.length} in all` : ''}]`;
}

/**
 * The statement names the newest verdict (here, in the one order) of every gate of every iteration
 * it attests, and nothing else: a re-run that failed after the statement was written, or a failing
 * gate left out, makes it stale.
 */
async function checkComplete(
  gates: GateStore,
  runId: string,
  named: readonly GateResult[],
  attested: ReadonlySet<number>,
  snapshots: readonly Snapshot[],
): Promise<AttestationCheck> {
  const local = (await gates.listStrict(runId)).filter((g) => attested.has(g.iteration));
  const newest = newestOfEach(local, snapshots);
  const namedIds = new Set(named.map((g) => g.id));
  const newestIds = new Set(newest.map((g) => g.id));
  const missing = newest.filter((g) => !namedIds.has(g.id));
  const stale = named.filter((g) => !newestIds.has(g.id));
  // Each once, in attest's order: a verdict named twice would count twice in the test lists.
  const repeated = named.filter((g, i) => named.findIndex((o) => o.id === g.id) !== i);
  const inOrder = named.map((g) => g.id).join() === newest.map((g) => g.id).join();
  if (missing.length === 0 && stale.length === 0 && repeated.length === 0 && inOrder)
    return {
      check: 'complete',
      ok: true,
      detail: `names the newest verdict of each of ${newest.length} gates`,
    };
  const say = (g: GateResult) => `${testName(g)} (${g.verdict}, ${g.id})`;
  const problems = [
    missing.length > 0 ? `leaves out the newest verdicts ${missing.map(say).join(', ')}` : '',
    stale.length > 0 ? `names verdicts that are not the newest here ${stale.map(say).join(', ')}` : '',
    repeated.length > 0 ? `names verdicts more than once ${repeated.map(say).join(', ')}` : '',
  ].filter(Boolean);
  return {
    check: 'complete',
    ok: false,
    detail:
      problems.length > 0
        ? problems.join('; ')
        : 'names the newest verdicts in another order than attest writes them (by iteration, then gate name)',
  };
}
