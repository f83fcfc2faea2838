/**
 * The verdict rules of the contract ("Gate verdicts"), pure: what happened in, verdict and one-line
 * reason out. An `error` reason starts with its code (GATE_COMMAND_NOT_FOUND, GATE_TIMEOUT,
 * JUNIT_INVALID), so that a script can tell why without parsing prose.
 */
import { ellipsized } from '../text.js';
import type { GateVerdict, TestCounts } from '../../types/gate.js';
import { describeCounts } from '../../types/gate-rules.js';

export { describeCounts, recomputeVerdict, verdictContradiction } from '../../types/gate-rules.js';

export interface VerdictInput {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  timeoutMs: number | null;
  /** Why the command could not start (`ENOENT`, `EACCES`, ...), or null when it started. */
  spawnError: string | null;
  command: readonly string[] | null;
  /** Null without --junit; else the summed counts, or why a JUnit file could not be used. */
  junit: { counts: TestCounts } | { problem: string } | null;
  /** `--min-tests`; with --junit and none given, 1 ("no tests ran" is a failure). */
  minTests: number | null;
  /** A process the command started outlived it, holding its output open; not waited for. */
  outlived?: boolean;
}

/** The most of a reason kept (the schema allows 1000 characters, one line). */
const MAX_REASON = 900;

export function decideVerdict(input: VerdictInput): { verdict: GateVerdict; reason: string } {
  const decided = decideOnFacts(input);
  if (input.outlived !== true) return decided;
  // Said first: the tail of a long reason is what gets cut.
  const [code, rest] = /^[A-Z_]+: /.test(decided.reason)
    ? [
        decided.reason.slice(0, decided.reason.indexOf(' ') + 1),
        decided.reason.slice(decided.reason.indexOf(' ') + 1),
      ]
    : ['', decided.reason];
  return {
    verdict: decided.verdict,
    reason: oneLine(
      `${code}${rest}; a process it started outlived the check (its output was no longer read)`,
    ),
  };
}

function decideOnFacts(input: VerdictInput): { verdict: GateVerdict; reason: string } {
  const error = (reason: string) => ({ verdict: 'error' as const, reason: oneLine(reason) });
  const fail = (reason: string) => ({ verdict: 'fail' as const, reason: oneLine(reason) });
  if (input.spawnError !== null) {
    const what = input.command?.[0] ?? '';
    return error(
      input.spawnError === 'ENOENT'
        ? `GATE_COMMAND_NOT_FOUND: ${JSON.stringify(what)} was not found (check the command and PATH)`
        : `GATE_COMMAND_NOT_FOUND: ${JSON.stringify(what)} could not be started (${input.spawnError})`,
    );
  }
  if (input.timedOut) {
    return error(
      `GATE_TIMEOUT: still running after ${(input.timeoutMs ?? 0) / 1000} s; its process group was killed`,
    );
  }
  if (input.junit !== null && 'problem' in input.junit) {
    // A missing report usually follows a failed command (a mistyped script): say that first.
    const ran = input.exitCode === 0 ? '' : `the command ${howItEnded(input)}, then `;
    return error(`JUNIT_INVALID: ${ran}${input.junit.problem}`);
  }
  const counts = input.junit?.counts ?? null;
  const tests = counts === null ? '' : `; ${describeCounts(counts)}`;
  if (input.exitCode !== 0) {
    return fail(`the command ${howItEnded(input)}${tests}`);
  }
  if (counts === null) return { verdict: 'pass', reason: 'the command exited with 0' };
  if (counts.failed > 0 || counts.errors > 0)
    return fail(`the command exited with 0 but ${describeCounts(counts)}`);
  const ran = counts.total - counts.skipped;
  const min = input.minTests ?? 1;
  if (ran === 0 && min > 0)
    return fail(`no tests ran (${counts.skipped} skipped): a gate that tests nothing must not pass`);
  if (ran < min) return fail(`${ran} tests ran, fewer than --min-tests ${min}`);
  return { verdict: 'pass', reason: `the command exited with 0${tests}` };
}

function howItEnded(input: Pick<VerdictInput, 'exitCode' | 'signal'>): string {
  return input.signal !== null ? `was ended by ${input.signal}` : `exited with ${input.exitCode}`;
}

/** One line, printable, bounded: control characters (newlines, escapes) become spaces. */
export function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ').trim();
  return flat.length <= MAX_REASON ? flat : ellipsized(flat, MAX_REASON - 1);
}
