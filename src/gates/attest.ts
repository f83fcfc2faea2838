import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  AttestationReport,
  type AttestationCheck,
  type GateConfiguration,
  type SetAsideIteration,
  type Subject,
  Statement,
  STATEMENT_TYPE,
  TEST_RESULT_PREDICATE_TYPE,
  type TestResultPredicate,
} from '../../types/attestation.js';
import { testTotals, type GateResult } from '../../types/gate.js';
import { sortGateResults } from '../../types/gate-rules.js';
import { setAsideBy } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import {
  InvalidArgumentError,
  PathNotFoundError,
  SnapshotNotFoundError,
  StoreCorruptError,
} from '../errors.js';
import { writeJsonAtomic } from '../fs/atomic.js';
import { sha256File } from '../snapshotter/patch-artifact.js';
import type { Snapshotter } from '../snapshotter/snapshotter.js';
import { GateStore } from '../store/gate-store.js';
import { assertSafeId } from '../store/paths.js';

/** The largest statement `verify --attestation` reads. */
const MAX_STATEMENT_BYTES = 64 * 1024 * 1024;

/** What attest and verify --attestation read: the run's snapshots and verdicts in the home. */
export interface AttestSources {
  snapshotter: Snapshotter;
  gates: GateStore;
}

export function attestSources(snapshotter: Snapshotter): AttestSources {
  return {
    snapshotter,
    gates: new GateStore(snapshotter.options.home, { lockTimeoutMs: snapshotter.options.lockTimeoutMs }),
  };
}

/** The CI run's URL on GitHub Actions, when the environment names it. */
export function ciRunUrl(env: NodeJS.ProcessEnv): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env;
  if (!server || !repo || !id || !/^https?:\/\//.test(server) || !/^\d+$/.test(id)) return undefined;
  return `${server.replace(/\/+$/, '')}/${repo}/actions/runs/${id}`;
}

/**
 * The Statement for a run (or one iteration of it): subjects are each iteration's patch artifact
 * (sha256 of the file, which must still be the one recorded) and after commit; the predicate is
 * built from the newest verdict of each gate name on each of those iterations. A run-level
 * statement covers the run's accepted line: iterations a declared restart set aside are not its
 * subjects and their verdicts do not count; `predicate.setAside` names them.
 */
export async function buildStatement(
  src: AttestSources,
  runId: string,
  opts: { iteration?: number; env?: NodeJS.ProcessEnv } = {},
): Promise<Statement> {
  assertSafeId(runId, 'run id');
  const all = await src.snapshotter.listByRun(runId);
  const aside = opts.iteration === undefined ? await setAsideOf(src, runId, all) : [];
  const skipped = new Set(aside.map((a) => a.iteration));
  const snapshots = all.filter((s) =>
    opts.iteration === undefined ? !skipped.has(s.iteration) : s.iteration === opts.iteration,
  );
  if (snapshots.length === 0)
    throw new SnapshotNotFoundError(
      `run ${runId} has no iteration ${opts.iteration ?? ''} recorded here; "list --run ${runId}" shows its iterations`,
      { details: { runId, iteration: opts.iteration ?? null } },
    );
  const subject: Subject[] = [];
  for (const s of snapshots) {
    const patch = await patchSubject(s);
    if (patch !== null) subject.push(patch);
    subject.push({ name: `${runId}/iteration-${s.iteration}`, digest: { gitCommit: s.afterSha } });
  }
  const iterations = new Set(snapshots.map((s) => s.iteration));
  const verdicts = (await src.gates.list(runId)).results.filter((g) => iterations.has(g.iteration));
  const url = ciRunUrl(opts.env ?? {});
  return {
    _type: STATEMENT_TYPE,
    subject,
    predicateType: TEST_RESULT_PREDICATE_TYPE,
    predicate: {
      ...predicateOf(newestOfEach(verdicts, snapshots)),
      ...(url === undefined ? {} : { url }),
      ...(aside.length === 0 ? {} : { setAside: aside.map((a) => a.entry) }),
    },
  };
}

/** The run's iterations that a declared restart set aside, each with its entry in `predicate.setAside`. */
async function setAsideOf(
  src: AttestSources,
  runId: string,
  snapshots: readonly Snapshot[],
): Promise<Array<{ iteration: number; entry: SetAsideIteration }>> {
  const restarts = (await src.snapshotter.store.loadRun(runId))?.restarts ?? [];
  return snapshots.flatMap((s) => {
    const r = setAsideBy(restarts, s.iteration);
    return r === undefined
      ? []
      : [
          {
            iteration: s.iteration,
            entry: {
              name: `${runId}/iteration-${s.iteration}`,
              afterSha: s.afterSha,
              restartFrom: r.from,
              declaredAt: r.at,
            },
          },
        ];
  });
}

/** Writes the statement of `buildStatement` to `file` (atomically). */
export async function writeStatement(
  src: AttestSources,
  runId: string,
  file: string,
  opts: { iteration?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ file: string; subjects: number }> {
  const statement = await buildStatement(src, runId, opts);
  const path = resolve(opts.cwd ?? process.cwd(), file);
  await writeJsonAtomic(path, statement);
  return { file: path, subjects: statement.subject.length };
}

async function patchSubject(s: Snapshot): Promise<Subject | null> {
  if (s.patchSha256 === null || s.patchSha256 === undefined) return null;
  const name = `${s.runId}/iteration-${s.iteration}/patch.diff`;
  const actual = s.patchPath === null ? null : await sha256File(s.patchPath).catch(() => null);
  if (actual !== s.patchSha256)
    throw new StoreCorruptError(
      `the patch artifact of ${name} ${actual === null ? 'is missing' : 'is not the one recorded'}; "verify --run ${s.runId}" says more, "patch ${s.id} -o FILE" regenerates it`,
      { details: { snapshotId: s.id, path: s.patchPath } },
    );
  return { name, digest: { sha256: s.patchSha256 } };
}

/** The newest verdict of each (iteration, name), in `gate list` order. */
function newestOfEach(verdicts: GateResult[], snapshots: readonly Snapshot[]): GateResult[] {
  const newest = new Map<string, GateResult>();
  for (const g of sortGateResults(verdicts, snapshots)) newest.set(`${g.iteration}/${g.name}`, g);
  return [...newest.values()].sort((a, b) => a.iteration - b.iteration || (a.name < b.name ? -1 : 1));
}

function testName(g: Pick<GateResult, 'iteration' | 'name'>): string {
  return `iteration-${g.iteration}/${g.name}`;
}

function configurationOf(g: GateResult): GateConfiguration {
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
function predicateOf(verdicts: GateResult[]): Omit<TestResultPredicate, 'url'> {
  const passedTests = verdicts.filter((g) => g.verdict === 'pass' && g.observed).map(testName);
  const warnedTests = verdicts.filter((g) => g.verdict === 'pass' && !g.observed).map(testName);
  const failedTests = verdicts.filter((g) => g.verdict !== 'pass').map(testName);
  const result =
    failedTests.length > 0 || verdicts.length === 0 ? 'FAILED' : warnedTests.length > 0 ? 'WARNED' : 'PASSED';
  return { result, configuration: verdicts.map(configurationOf), passedTests, warnedTests, failedTests };
}

/**
 * Checks a statement against the local records: each subject's digest against its iteration's
 * patch artifact or after commit, each configuration entry against the stored verdict it names, and
 * the result and test lists against those verdicts. A file that is not a statement of ours fails
 * the "statement" check; only an unreadable file is an error.
 */
export async function verifyStatement(
  src: AttestSources,
  file: string,
  cwd = process.cwd(),
): Promise<AttestationReport> {
  const path = resolve(cwd, file);
  const size = await stat(path).then(
    (s) => (s.isFile() ? s.size : -1),
    () => -1,
  );
  if (size < 0)
    throw new PathNotFoundError(`${path} is not a readable file; give the file "attest -o" wrote`, {
      details: { file: path },
    });
  if (size > MAX_STATEMENT_BYTES)
    throw new InvalidArgumentError(
      `${path} is not a readable file of at most ${MAX_STATEMENT_BYTES} bytes; give the file "attest -o" wrote`,
      { details: { file: path } },
    );
  const checks: AttestationCheck[] = [];
  const done = (runId: string | null) =>
    AttestationReport.parse({ ok: checks.every((c) => c.ok), file: path, runId, checks });
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    checks.push({ check: 'statement', ok: false, detail: 'not JSON' });
    return done(null);
  }
  const parsed = Statement.safeParse(json);
  const runId = parsed.success ? runOf(parsed.data) : null;
  if (!parsed.success || runId === null) {
    checks.push({
      check: 'statement',
      ok: false,
      detail: parsed.success
        ? 'its subjects do not name one run (<runId>/iteration-<n>[/patch.diff])'
        : `not an in-toto Statement v1 with the Test Result predicate: ${parsed.error.issues
            .slice(0, 3)
            .map((i) => `${i.path.join('.')}: ${i.message}`)
            .join('; ')}`,
    });
    return done(runId);
  }
  checks.push({
    check: 'statement',
    ok: true,
    detail: `run ${runId}, ${parsed.data.subject.length} subjects`,
  });
  const listed = await src.snapshotter.listByRun(runId);
  const snapshots = new Map(listed.map((s) => [s.iteration, s]));
  for (const subject of parsed.data.subject) checks.push(await checkSubject(subject, snapshots));
  const attested = new Set(parsed.data.subject.map((s) => Number(SUBJECT_NAME.exec(s.name)?.[2])));
  checks.push(...(await checkPredicate(src, runId, parsed.data.predicate, attested, listed)));
  if (parsed.data.predicate.setAside !== undefined)
    checks.push(await checkSetAside(src, runId, parsed.data.predicate.setAside, listed));
  return done(runId);
}

const SUBJECT_NAME = /^([^/]+)\/iteration-(0|[1-9]\d{0,14})(\/patch\.diff)?$/;

function runOf(statement: Statement): string | null {
  const runs = new Set(statement.subject.map((s) => SUBJECT_NAME.exec(s.name)?.[1] ?? ''));
  const [only] = runs;
  return runs.size === 1 && only !== undefined && only !== '' ? only : null;
}

async function checkSubject(subject: Subject, snapshots: Map<number, Snapshot>): Promise<AttestationCheck> {
  const m = SUBJECT_NAME.exec(subject.name) as RegExpExecArray;
  const s = snapshots.get(Number(m[2]));
  const check = `subject ${subject.name}`;
  if (s === undefined) return { check, ok: false, detail: 'no such iteration recorded here' };
  if (m[3] === undefined) {
    const want = 'gitCommit' in subject.digest ? subject.digest.gitCommit : null;
    return want === s.afterSha
      ? { check, ok: true, detail: `after commit ${s.afterSha}` }
      : {
          check,
          ok: false,
          detail: `the after commit here is ${s.afterSha}, the statement says ${want ?? 'no gitCommit'}`,
        };
  }
  const want = 'sha256' in subject.digest ? subject.digest.sha256 : null;
  const actual = s.patchPath === null ? null : await sha256File(s.patchPath).catch(() => null);
  if (want !== s.patchSha256)
    return {
      check,
      ok: false,
      detail: `the recorded patch has sha256 ${s.patchSha256 ?? 'none'}, the statement says ${want ?? 'none'}`,
    };
  if (actual !== want)
    return {
      check,
      ok: false,
      detail: `the patch artifact here ${actual === null ? 'is missing' : `has sha256 ${actual}`}`,
    };
  return { check, ok: true, detail: `sha256 ${want}` };
}

/** A statement's `setAside` must name exactly the iterations the run's restarts set aside here. */
async function checkSetAside(
  src: AttestSources,
  runId: string,
  stated: readonly SetAsideIteration[],
  snapshots: readonly Snapshot[],
): Promise<AttestationCheck> {
  const here = (await setAsideOf(src, runId, snapshots)).map((a) => a.entry);
  return JSON.stringify(here) === JSON.stringify(stated)
    ? { check: 'set aside', ok: true, detail: `${here.length} iterations set aside by restarts` }
    : {
        check: 'set aside',
        ok: false,
        detail: `the restarts recorded here set aside ${JSON.stringify(here.map((a) => a.name))}, the statement says ${JSON.stringify(stated.map((a) => a.name))}`,
      };
}

async function checkPredicate(
  src: AttestSources,
  runId: string,
  predicate: TestResultPredicate,
  attested: ReadonlySet<number>,
  snapshots: readonly Snapshot[],
): Promise<AttestationCheck[]> {
  const checks: AttestationCheck[] = [];
  const named: GateResult[] = [];
  for (const entry of predicate.configuration) {
    const check = `verdict ${entry.name}`;
    const g = await src.gates.load(runId, entry.annotations.gateId).catch(() => null);
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
  checks.push(await checkComplete(src, runId, named, attested, snapshots));
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
  src: AttestSources,
  runId: string,
  named: readonly GateResult[],
  attested: ReadonlySet<number>,
  snapshots: readonly Snapshot[],
): Promise<AttestationCheck> {
  const local = (await src.gates.list(runId)).results.filter((g) => attested.has(g.iteration));
  const newest = newestOfEach(local, snapshots);
  const namedIds = new Set(named.map((g) => g.id));
  const newestIds = new Set(newest.map((g) => g.id));
  const missing = newest.filter((g) => !namedIds.has(g.id));
  const stale = named.filter((g) => !newestIds.has(g.id));
  if (missing.length === 0 && stale.length === 0)
    return {
      check: 'complete',
      ok: true,
      detail: `names the newest verdict of each of ${newest.length} gates`,
    };
  const say = (g: GateResult) => `${testName(g)} (${g.verdict}, ${g.id})`;
  return {
    check: 'complete',
    ok: false,
    detail: [
      missing.length > 0 ? `leaves out the newest verdicts ${missing.map(say).join(', ')}` : '',
      stale.length > 0 ? `names verdicts that are not the newest here ${stale.map(say).join(', ')}` : '',
    ]
      .filter(Boolean)
      .join('; '),
  };
}
