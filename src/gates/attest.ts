import { readFile, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import {
  AttestationReport,
  RunUrl,
  type AttestationCheck,
  type SetAsideIteration,
  type Subject,
  Statement,
  STATEMENT_TYPE,
  TEST_RESULT_PREDICATE_TYPE,
  type TestResultPredicate,
} from '../../types/attestation.js';
import { setAsideBy } from '../../types/run.js';
import type { Snapshot } from '../../types/snapshot.js';
import { PathNotFoundError, SnapshotNotFoundError, StoreCorruptError } from '../errors.js';
import { writeOutputData } from '../fs/atomic.js';
import { checkPredicate, newestOfEach, predicateOf } from './attest-predicate.js';
import { pickIteration } from './attempt.js';
import {
  checkCoverage,
  checkSubject,
  checkSubjectList,
  SUBJECT_NAME,
  soleDigest,
  spokenFor,
} from './attest-subjects.js';
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

/**
 * The CI run's URL on GitHub Actions, when the environment names it. One that `verify` would refuse
 * (the statement schema's `RunUrl`: a host with a space, over 4096 characters) is left out, with
 * a warning saying why, so that attest never writes a statement its own verify rejects.
 */
export function ciRunUrl(env: NodeJS.ProcessEnv): { url?: string; warning?: string } {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env;
  if (!server || !repo || !id) return {};
  const url = `${server.replace(/\/+$/, '')}/${repo}/actions/runs/${id}`;
  if (/^https?:\/\//.test(server) && /^\d+$/.test(id) && RunUrl.safeParse(url).success) return { url };
  const shown = url.length > 200 ? `${url.slice(0, 200)}… (${url.length} characters)` : url;
  return {
    warning: `GITHUB_SERVER_URL, GITHUB_REPOSITORY and GITHUB_RUN_ID make ${JSON.stringify(shown)}, which is no http(s) URL of at most 4096 characters with a numeric run id: the statement has no predicate.url`,
  };
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
  // An iteration the run never had is ITERATION_NOT_FOUND, as gate and gate list say for it.
  if (opts.iteration !== undefined) pickIteration(runId, opts.iteration, all);
  const aside = opts.iteration === undefined ? await setAsideOf(src, runId, all) : [];
  const skipped = new Set(aside.map((a) => a.iteration));
  const snapshots = all.filter((s) =>
    opts.iteration === undefined ? !skipped.has(s.iteration) : s.iteration === opts.iteration,
  );
  if (snapshots.length === 0) {
    // Every iteration recorded, set aside by a restart no iteration has built on yet.
    const setAside = [...skipped];
    throw new SnapshotNotFoundError(
      setAside.length > 0
        ? `every iteration of run ${runId} (${setAside.join(', ')}) was set aside by a restart: capture one after it, or attest one with --iteration N`
        : `run ${runId} has no iteration recorded here; "list --run ${runId}" shows its iterations`,
      { details: { runId, iteration: opts.iteration ?? null, setAside } },
    );
  }
  const subject: Subject[] = [];
  for (const s of snapshots) {
    const patch = await patchSubject(s);
    if (patch !== null) subject.push(patch);
    subject.push({ name: `${runId}/iteration-${s.iteration}`, digest: { gitCommit: s.afterSha } });
  }
  const iterations = new Set(snapshots.map((s) => s.iteration));
  const verdicts = (await src.gates.listStrict(runId)).filter((g) => iterations.has(g.iteration));
  const { url } = ciRunUrl(opts.env ?? {});
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

/** Writes the statement of `buildStatement` to `file` (atomically); `warnings`: a CI run URL left out (ciRunUrl). */
export async function writeStatement(
  src: AttestSources,
  runId: string,
  file: string,
  opts: { iteration?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {},
): Promise<{ file: string; subjects: number; warnings: string[] }> {
  const statement = await buildStatement(src, runId, opts);
  const path = resolve(opts.cwd ?? process.cwd(), file);
  await writeOutputData(path, `${JSON.stringify(statement, null, 2)}\n`);
  return { file: path, subjects: statement.subject.length, warnings: urlWarnings(opts.env) };
}

/** What `attest` says beside its statement: why the CI run's URL was left out (ciRunUrl). */
export function urlWarnings(env: NodeJS.ProcessEnv | undefined): string[] {
  const { warning } = ciRunUrl(env ?? {});
  return warning === undefined ? [] : [warning];
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

/**
 * What git and the records say here of the commit a statement of `attest --commit` names: its tree
 * (null: the commit is not in this repository) and every iteration whose after tree that is, best
 * first as `attest --commit` ranks them (empty: none). The CLI makes it from provenance
 * (`gatedIterations`).
 */
export interface CommitLink {
  tree: string | null;
  matches: Array<{ runId: string; iteration: number; afterSha: string }>;
}
export type CommitLinker = (commit: string) => Promise<CommitLink>;

/**
 * Checks a statement against the local records. A run statement (`attest --run`): each subject's
 * digest against its iteration's patch artifact or after commit. A commit statement (`attest
 * --commit`): the commit's tree against the iteration whose after tree it is, recomputed here as
 * `attest --commit` does (`link`), and the verdicts it names against that iteration's. Then each
 * configuration entry against the stored verdict it names, and the result and test lists against
 * those verdicts. A file that is not a statement of ours fails the "statement" check; only an
 * unreadable file is an error.
 */
export async function verifyStatement(
  src: AttestSources,
  file: string,
  cwd = process.cwd(),
  link?: CommitLinker,
): Promise<AttestationReport> {
  const path = resolve(cwd, file);
  const read = await readStatement(path);
  const commit = 'checks' in read ? null : commitOf(read.statement);
  const { runId, checks } =
    'checks' in read
      ? { runId: null, checks: read.checks }
      : commit !== null
        ? await commitChecks(src, read.statement, commit, link)
        : await runChecks(src, read.statement);
  return AttestationReport.parse({
    ok: checks.every((c) => c.ok),
    file: path,
    runId,
    ...(commit === null ? {} : { commit }),
    checks,
  });
}

/** The statement in `path`, or the failed "statement" check of a file that is not one. */
async function readStatement(
  path: string,
): Promise<{ statement: Statement } | { checks: AttestationCheck[] }> {
  const size = await stat(path).then(
    (s) => (s.isFile() ? s.size : -1),
    () => -1,
  );
  if (size < 0)
    throw new PathNotFoundError(`${path} is not a readable file; give the file "attest -o" wrote`, {
      details: { file: path },
    });
  // Too large to be read is unreadable (exit 1), as docs/gates.md says, not a usage error.
  if (size > MAX_STATEMENT_BYTES)
    throw new PathNotFoundError(
      `${path} is not a readable file of at most ${MAX_STATEMENT_BYTES} bytes; give the file "attest -o" wrote`,
      { details: { file: path } },
    );
  let json: unknown;
  try {
    json = JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return { checks: [{ check: 'statement', ok: false, detail: 'not JSON' }] };
  }
  const parsed = Statement.safeParse(json);
  if (parsed.success) return { statement: withRawDigests(parsed.data, json) };
  const issues = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(top level)'}: ${i.message}`);
  const detail = `not an in-toto Statement v1 with the Test Result predicate: ${issues.join('; ')}`;
  return { checks: [{ check: 'statement', ok: false, detail }] };
}

/**
 * The statement with each subject's digest set as JSON.parse made it (zod validated it): zod copies
 * an object key by key, which loses an own `__proto__` key, so `soleDigest` would not see it.
 */
function withRawDigests(statement: Statement, json: unknown): Statement {
  const raw = (json as { subject: Array<Pick<Subject, 'digest'>> }).subject;
  return { ...statement, subject: statement.subject.map((s, i) => ({ ...s, digest: raw[i]!.digest })) };
}

type Checked = { runId: string | null; checks: AttestationCheck[] };

async function runChecks(src: AttestSources, statement: Statement): Promise<Checked> {
  const runId = runOf(statement);
  if (runId === null) {
    const detail =
      'its subjects name neither one run (<runId>/iteration-<n>[/patch.diff]) nor one commit (commit/<sha>)';
    return { runId, checks: [{ check: 'statement', ok: false, detail }] };
  }
  const checks: AttestationCheck[] = [
    { check: 'statement', ok: true, detail: `run ${runId}, ${statement.subject.length} subjects` },
  ];
  const listed = await src.snapshotter.listByRun(runId);
  const snapshots = new Map(listed.map((s) => [s.iteration, s]));
  for (const subject of statement.subject) checks.push(await checkSubject(subject, snapshots));
  const attested = spokenFor(statement);
  checks.push(checkSubjectList(statement, runId, attested, snapshots));
  checks.push(...(await checkPredicate(src.gates, runId, statement.predicate, new Set(attested), listed)));
  const aside = await setAsideOf(src, runId, listed);
  const off = new Set(aside.map((a) => a.iteration));
  const line = [...new Set(listed.map((s) => s.iteration))].filter((n) => !off.has(n)).sort((a, b) => a - b);
  checks.push(
    ...checkCoverage(
      statement,
      attested,
      line,
      aside.map((a) => a.entry),
    ),
  );
  return { runId, checks };
}

/** `commit/<sha>`: the one subject of a statement `attest --commit` writes. */
const COMMIT_SUBJECT = /^commit\/([0-9a-f]{40}|[0-9a-f]{64})$/;

/** The commit a statement's subjects name when it is a commit statement (one `commit/<sha>` subject). */
function commitOf(statement: Statement): string | null {
  const [only, ...more] = statement.subject;
  return only === undefined || more.length > 0 ? null : (COMMIT_SUBJECT.exec(only.name)?.[1] ?? null);
}

/**
 * A commit statement: its digest is the commit it names, the commit's tree is the after tree here of
 * the iteration its verdicts name (of the one `attest --commit` picks now when they name none of
 * those), and its predicate is that iteration's verdicts. Another run recorded later on the same
 * tree does not change which iteration is checked.
 */
async function commitChecks(
  src: AttestSources,
  statement: Statement,
  commit: string,
  link: CommitLinker | undefined,
): Promise<Checked> {
  const checks: AttestationCheck[] = [
    { check: 'statement', ok: true, detail: `commit ${commit}, 1 subject` },
  ];
  const subject = statement.subject[0] as Subject;
  const check = `subject ${subject.name}`;
  const digest = soleDigest(subject, 'gitCommit');
  if (digest.value !== commit) {
    const detail = digest.detail ?? `its digest is ${digest.value}, not the commit it names`;
    checks.push({ check, ok: false, detail });
    return { runId: null, checks };
  }
  const here = link === undefined ? null : await link(commit);
  const match = here === null ? undefined : namedMatch(statement.predicate, here.matches);
  if (here === null || here.tree === null || match === undefined) {
    checks.push({ check, ok: false, detail: unlinked(here) });
    return { runId: null, checks };
  }
  const { runId, iteration } = match;
  const where = `run ${runId} iteration ${iteration}`;
  checks.push({
    check,
    ok: true,
    detail: `its tree ${here.tree} is the after tree of ${where} (${match.afterSha})`,
  });
  checks.push(checkNamesIteration(statement.predicate, runId, iteration));
  const listed = await src.snapshotter.listByRun(runId);
  checks.push(...(await checkPredicate(src.gates, runId, statement.predicate, new Set([iteration]), listed)));
  if (statement.predicate.setAside !== undefined)
    checks.push({ check: 'set aside', ok: false, detail: 'a commit statement sets no iteration aside' });
  return { runId, checks };
}

/** The match the statement's verdicts all name, or else the first (what `attest --commit` picks). */
function namedMatch(
  predicate: TestResultPredicate,
  matches: CommitLink['matches'],
): CommitLink['matches'][number] | undefined {
  const named = new Set(
    predicate.configuration.map((c) => `${c.annotations.runId}\0${c.annotations.iteration}`),
  );
  const [only] = named;
  const found = named.size === 1 ? matches.find((m) => `${m.runId}\0${m.iteration}` === only) : undefined;
  return found ?? matches[0];
}

/** Why a commit statement's commit is not linked to an iteration here. */
function unlinked(here: CommitLink | null): string {
  if (here === null) return 'a commit statement is checked in the repository of its commit (-C DIR)';
  if (here.tree === null)
    return 'the commit is not in this repository; fetch it, or verify in the repository it belongs to (-C DIR)';
  return `its tree ${here.tree} is no recorded iteration's after tree here, so no gate judged it ("fetch" its run?)`;
}

/** The verdicts of a commit statement are those of the iteration whose after tree the commit's tree is. */
function checkNamesIteration(
  predicate: TestResultPredicate,
  runId: string,
  iteration: number,
): AttestationCheck {
  const others = predicate.configuration
    .map((c) => c.annotations)
    .filter((a) => a.runId !== runId || a.iteration !== iteration)
    .map((a) => `run ${a.runId} iteration ${a.iteration}`);
  const where = `run ${runId} iteration ${iteration}`;
  return others.length === 0
    ? { check: 'iteration', ok: true, detail: `the verdicts named are those of ${where}` }
    : {
        check: 'iteration',
        ok: false,
        detail: `the statement names verdicts of ${[...new Set(others)].slice(0, 3).join(', ')}; the commit's tree is the after tree of ${where} ("attest --commit" writes its statement again)`,
      };
}

function runOf(statement: Statement): string | null {
  const runs = new Set(statement.subject.map((s) => SUBJECT_NAME.exec(s.name)?.[1] ?? ''));
  const [only] = runs;
  return runs.size === 1 && only !== undefined && only !== '' ? only : null;
}
