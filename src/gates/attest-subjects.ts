import type { AttestationCheck, SetAsideIteration, Statement, Subject } from '../../types/attestation.js';
import type { Snapshot } from '../../types/snapshot.js';
import { sha256File } from '../snapshotter/patch-artifact.js';

/*
 * The subjects of a statement, checked against the local records (verify --attestation): each
 * one's digest set, and for a run statement that they are exactly those attest writes.
 */

/** `<runId>/iteration-<n>` (an after commit) and `<runId>/iteration-<n>/patch.diff` (its patch). */
export const SUBJECT_NAME = /^([^/]+)\/iteration-(0|[1-9]\d{0,15})(\/patch\.diff)?$/;

/**
 * The digest of `alg` when it is the subject's whole digest set, as attest writes it, else why not.
 * An in-toto consumer matches an artifact by any digest in the set, so one nothing here confirms fails.
 */
export function soleDigest(
  subject: Subject,
  alg: 'sha256' | 'gitCommit',
): { value: string; detail?: never } | { value?: never; detail: string } {
  const digest: Record<string, unknown> = subject.digest;
  const algs = Object.keys(digest);
  const value = digest[alg];
  if (algs.length === 1 && typeof value === 'string') return { value };
  return {
    detail: `its digest set holds ${algs.slice(0, 5).join(', ')}, not ${alg} alone as attest writes it: a consumer would match an artifact by any of them`,
  };
}

/** A run statement's subject: its digest against its iteration's after commit or patch artifact here. */
export async function checkSubject(
  subject: Subject,
  snapshots: ReadonlyMap<number, Snapshot>,
): Promise<AttestationCheck> {
  const m = SUBJECT_NAME.exec(subject.name) as RegExpExecArray;
  const s = snapshots.get(Number(m[2]));
  const check = `subject ${subject.name}`;
  if (s === undefined) return { check, ok: false, detail: 'no such iteration recorded here' };
  const digest = soleDigest(subject, m[3] === undefined ? 'gitCommit' : 'sha256');
  if (digest.detail !== undefined) return { check, ok: false, detail: digest.detail };
  const want = digest.value;
  if (m[3] === undefined)
    return want === s.afterSha
      ? { check, ok: true, detail: `after commit ${s.afterSha}` }
      : { check, ok: false, detail: `the after commit here is ${s.afterSha}, the statement says ${want}` };
  const actual = s.patchPath === null ? null : await sha256File(s.patchPath).catch(() => null);
  if (want !== s.patchSha256)
    return {
      check,
      ok: false,
      detail: `the recorded patch has sha256 ${s.patchSha256 ?? 'none'}, the statement says ${want}`,
    };
  if (actual !== want)
    return {
      check,
      ok: false,
      detail: `the patch artifact here ${actual === null ? 'is missing' : `has sha256 ${actual}`}`,
    };
  return { check, ok: true, detail: `sha256 ${want}` };
}

/** The iterations a run statement speaks for: those its subjects and its verdicts name, in order. */
export function spokenFor(statement: Statement): number[] {
  const named = [
    ...statement.subject.map((s) => Number(SUBJECT_NAME.exec(s.name)?.[2])),
    ...statement.predicate.configuration.map((c) => c.annotations.iteration),
  ];
  return [...new Set(named)].sort((a, b) => a - b);
}

/**
 * Check `subjects`: a run statement's subjects are exactly those attest writes for the iterations it
 * speaks for, in its order (per iteration its patch when it changed something, then its after
 * commit), and none of those iterations is one it sets aside. A subject left out would let the
 * predicate speak for an artifact that no digest binds; a renamed one, for another artifact.
 */
export function checkSubjectList(
  statement: Statement,
  runId: string,
  iterations: readonly number[],
  snapshots: ReadonlyMap<number, Snapshot>,
): AttestationCheck {
  const names = statement.subject.map((s) => s.name);
  const want = iterations.flatMap((n) => {
    const commit = `${runId}/iteration-${n}`;
    const s = snapshots.get(n);
    // An iteration not recorded here fails its subject checks; its patch is taken as stated.
    const patch = s === undefined ? names.includes(`${commit}/patch.diff`) : (s.patchSha256 ?? null) !== null;
    return patch ? [`${commit}/patch.diff`, commit] : [commit];
  });
  const aside = new Set((statement.predicate.setAside ?? []).map((a) => a.name));
  const both = want.filter((n) => aside.has(n));
  const missing = want.filter((n) => !names.includes(n));
  const extra = names.filter((n, i) => !want.includes(n) || names.indexOf(n) !== i);
  const problems = [
    ...(missing.length > 0 ? [`leaves out ${few(missing)}`] : []),
    ...(extra.length > 0 ? [`has ${few(extra)} besides (or twice)`] : []),
    ...(both.length > 0 ? [`attests ${few(both)}, which it also sets aside`] : []),
  ];
  if (problems.length === 0 && JSON.stringify(names) !== JSON.stringify(want))
    problems.push('lists them in another order');
  return problems.length === 0
    ? { check: 'subjects', ok: true, detail: `those attest writes for ${iterations.length} iterations` }
    : {
        check: 'subjects',
        ok: false,
        detail: `the statement ${problems.join('; ')}: not the subjects attest writes for the iterations it speaks for`,
      };
}

/**
 * Checks `iterations` and `set aside`: a run statement speaks for exactly what `attest --run` covers
 * here (the run's accepted line, `line`, naming under `setAside` what the restarts set aside, `aside`,
 * and leaving `setAside` out when they set nothing aside) or for one iteration with no `setAside`
 * (`--iteration N`). Else an edit could drop a failing iteration, or what a restart set aside.
 */
export function checkCoverage(
  statement: Statement,
  iterations: readonly number[],
  line: readonly number[],
  aside: readonly SetAsideIteration[],
): AttestationCheck[] {
  const whole = JSON.stringify(iterations) === JSON.stringify(line);
  const stated = statement.predicate.setAside;
  const covers: AttestationCheck =
    whole || iterations.length === 1
      ? { check: 'iterations', ok: true, detail: whole ? "the run's accepted line" : 'one iteration' }
      : {
          check: 'iterations',
          ok: false,
          detail: `the statement speaks for iterations ${few(iterations.map(String))}, the run's accepted line here is ${few(line.map(String))}: attest writes the whole line (--run) or one iteration (--iteration N)`,
        };
  // An --iteration statement (one iteration, no setAside) is as attest writes it even when it is the line.
  const asideOk =
    stated === undefined
      ? aside.length === 0 || iterations.length === 1
      : whole && aside.length > 0 && JSON.stringify(stated) === JSON.stringify(aside);
  const names = (list: readonly SetAsideIteration[] | undefined) =>
    list === undefined ? 'none (no setAside)' : JSON.stringify(list.map((a) => a.name));
  const setAside: AttestationCheck = asideOk
    ? { check: 'set aside', ok: true, detail: `${stated?.length ?? 0} iterations set aside by restarts` }
    : {
        check: 'set aside',
        ok: false,
        detail: `the restarts recorded here set aside ${names(aside.length === 0 ? undefined : aside)}, the statement says ${names(stated)}${whole ? '' : ' (only a statement of the whole line names them)'}`,
      };
  return [covers, setAside];
}

function few(list: readonly string[]): string {
  return `${list.slice(0, 3).join(', ')}${list.length > 3 ? `, … ${list.length} in all` : ''}`;
}
