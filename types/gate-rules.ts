/**
 * The rules every reader of a gate verdict applies the same way, wherever the verdict was recorded
 * (pure functions over records: `gate`, `verify`, `fetch`/`import`, `report` and `attest` share them).
 */
import type { GateResult, GateVerdict, TestCounts } from './gate.js';
import type { DeletedSnapshot } from './run.js';

export function describeCounts(c: TestCounts): string {
  const parts = [`${c.passed} of ${c.total} tests passed`];
  if (c.failed > 0) parts.push(`${c.failed} failed`);
  if (c.errors > 0) parts.push(`${c.errors} errored`);
  if (c.skipped > 0) parts.push(`${c.skipped} skipped`);
  return parts.join(', ');
}

/** What a stored verdict records about its run: enough to decide its verdict again. */
export interface VerdictFacts {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  tests: TestCounts | null;
  minTests?: number | null | undefined;
  /** The JUnit files it read; absent in verdicts stored before they were recorded. */
  junit?: readonly string[] | undefined;
  /** The check changed the workspace it judged (GateResult.workspaceChanged). */
  workspaceChanged?: true | undefined;
}

/**
 * The contract's rules over a record's own facts (pure): what `decideVerdict` decided when the
 * verdict was recorded, recomputed wherever the record is read (`verify`, `fetch`, `import`), so
 * that an edited `"verdict"` cannot contradict the exit code and tests it travels with. A command
 * that could not start shows as no exit code and no signal; a JUnit problem as JUnit files with no
 * counts.
 */
export function recomputeVerdict(f: VerdictFacts): GateVerdict {
  if (f.timedOut || f.workspaceChanged === true) return 'error';
  if (f.exitCode === null && f.signal === null) return 'error';
  if (f.tests === null && (f.junit ?? []).length > 0) return 'error';
  if (f.exitCode !== 0) return 'fail';
  if (f.tests === null) return 'pass';
  if (f.tests.failed > 0 || f.tests.errors > 0) return 'fail';
  return f.tests.total - f.tests.skipped < (f.minTests ?? 1) ? 'fail' : 'pass';
}

/** What a verdict records besides its facts: whether we ran the command, which one, and its log. */
export type VerdictRecord = VerdictFacts &
  Pick<GateResult, 'verdict' | 'observed' | 'command'> & {
    /** Its log's digest (a travelling verdict's has no path), or null for none. */
    log: object | null;
  };

/** A signal as Node names the one that ended a process (`SIGTERM`, `SIGKILL`). */
const SIGNAL_NAME = /^SIG[A-Z][A-Z0-9]*$/;

/**
 * Why a record's facts cannot all be true at once, or null. A process ends by an exit code or by a
 * signal, never both; a run we observed (`gate`, `gate replay`) has its command and its log; one
 * given to `gate record` has an exit code and nothing of a run we watched.
 */
function impossibleFacts(g: VerdictRecord): string | null {
  // No process exits so (a signal is recorded as one): a caller's number the CLI would refuse.
  if (g.exitCode !== null && g.exitCode < 0)
    return `its exit code ${g.exitCode} is negative, which no check exits with`;
  if (g.signal !== null && !SIGNAL_NAME.test(g.signal))
    return `its signal ${JSON.stringify(g.signal)} is no signal name`;
  if (g.exitCode !== null && g.signal !== null)
    return `it records both exit code ${g.exitCode} and signal ${g.signal}, but a process ends by one or the other`;
  if (g.observed && g.command === null) return 'it says it observed the command, but records none';
  if (g.observed && g.log === null)
    return "it says it observed the command, but records no log (every run's output is kept)";
  if (!g.observed && (g.command !== null || g.signal !== null || g.timedOut || g.exitCode === null))
    return 'it says it was given to "gate record", which records an exit code alone (no command, signal or timeout)';
  return null;
}

/**
 * Why a record contradicts itself, or null: facts that cannot all be true (impossibleFacts), its
 * verdict is not the one its facts give, or its test counts do not add up (the parts are the
 * total; no more failed tests listed than failed).
 */
export function verdictContradiction(g: VerdictRecord): string | null {
  const impossible = impossibleFacts(g);
  if (impossible !== null) return impossible;
  const t = g.tests;
  if (t !== null && t.passed + t.failed + t.skipped + t.errors !== t.total)
    return `its test counts do not add up (${t.passed} passed, ${t.failed} failed, ${t.skipped} skipped, ${t.errors} errored of ${t.total})`;
  if (t !== null && t.failures.length > t.failed + t.errors)
    return `it lists ${t.failures.length} failed tests but counts ${t.failed + t.errors}`;
  const want = recomputeVerdict(g);
  if (want === g.verdict) return null;
  const exit = g.signal !== null ? `ended by ${g.signal}` : `exit code ${g.exitCode ?? 'none'}`;
  const also = `${g.timedOut ? ', timed out' : ''}${g.workspaceChanged === true ? ', changed the workspace' : ''}`;
  return `it says ${g.verdict}, but its own facts (${exit}${also}${t === null ? '' : `, ${describeCounts(t)}`}) make it ${want}`;
}

/** The after commits' dates (the earliest each iteration was recorded), from a run's snapshots. */
export function afterDates(
  snapshots: ReadonlyArray<{ afterSha: string; createdAt: string }>,
): Map<string, number> {
  const dates = new Map<string, number>();
  for (const s of snapshots) {
    const at = Date.parse(s.createdAt);
    dates.set(s.afterSha, Math.min(at, dates.get(s.afterSha) ?? at));
  }
  return dates;
}

type Ordered = Pick<GateResult, 'id' | 'startedAt' | 'afterSha' | 'receivedAt'>;

/**
 * When a verdict counts as started, for "the newest verdict" (docs/gates.md, "Which verdict is the
 * newest"). A verdict recorded here: its `startedAt`. One received from elsewhere: its `startedAt`
 * bounded to no later than when this home received it (a clock another machine alone controls,
 * 2099, cannot outrank what runs here later) and no earlier than its after commit's date.
 */
export function orderTime(g: Ordered, dates: ReadonlyMap<string, number> = new Map()): number {
  const started = Date.parse(g.startedAt);
  if (g.receivedAt === undefined) return started;
  return Math.min(Math.max(started, dates.get(g.afterSha) ?? -Infinity), Date.parse(g.receivedAt));
}

/**
 * The one order of verdicts, oldest first (`gate list`, `verify --require-gate`, `report`,
 * `attest`): by `orderTime`; at the same moment a verdict recorded here comes after a received one
 * (a re-run here supersedes what was fetched); then by `startedAt` as recorded (verdicts the bounds
 * moved to one moment keep their own order); then by `id`, so every reader agrees.
 */
export function gateOrder(
  dates: ReadonlyMap<string, number> = new Map(),
): (a: Ordered, b: Ordered) => number {
  return (a, b) =>
    orderTime(a, dates) - orderTime(b, dates) ||
    Number(b.receivedAt !== undefined) - Number(a.receivedAt !== undefined) ||
    Date.parse(a.startedAt) - Date.parse(b.startedAt) ||
    (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** `results` in the one order, oldest first, with the after dates of `snapshots` as floors. */
export function sortGateResults<T extends Ordered>(
  results: readonly T[],
  snapshots: ReadonlyArray<{ afterSha: string; createdAt: string }> = [],
): T[] {
  return [...results].sort(gateOrder(afterDates(snapshots)));
}

type Capture = Pick<GateResult, 'iteration' | 'afterSha'>;

/**
 * The verdicts that count (`verify --require-gate`, `report`, `attest`, `trace`): a verdict counts
 * only for the capture whose after commit it names, the one its iteration has in `snapshots`. One
 * of a snapshot that was deleted, its iteration captured again, stays on disk but counts no more.
 */
export function countingVerdicts<T extends Capture>(
  results: readonly T[],
  snapshots: readonly Capture[],
): T[] {
  const current = new Set(snapshots.map((s) => `${s.iteration}\0${s.afterSha}`));
  return results.filter((g) => current.has(`${g.iteration}\0${g.afterSha}`));
}

/**
 * The deleted snapshot whose capture `g` judged, when that is not its iteration's capture now: the
 * verdict was superseded by a re-capture (`gate list` marks it). Undefined for a verdict that
 * counts, and for one that names no capture this run ever had (`verify` fails it).
 */
export function supersededBy(
  g: Capture,
  snapshots: readonly Capture[],
  deleted: readonly DeletedSnapshot[],
): DeletedSnapshot | undefined {
  if (countingVerdicts([g], snapshots).length > 0) return undefined;
  return deleted.find((d) => d.iteration === g.iteration && d.afterSha === g.afterSha);
}
