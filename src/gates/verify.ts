/**
 * `verify`'s checks of gate verdicts: each verdict against its iteration (after commit, tree, log
 * digest, attempts in order), and `--require-gate` on the run's last iteration (or every one).
 */
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { GateResult } from '../../types/gate.js';
import { setAsideBy, type DeletedSnapshot, type RunRestart } from '../../types/run.js';
import {
  countingVerdicts,
  sortGateResults,
  supersededBy,
  verdictContradiction,
} from '../../types/gate-rules.js';
import type { Snapshot } from '../../types/snapshot.js';
import type { VerifyCheck } from '../../types/verify.js';
import type { StoreCorruptError } from '../errors.js';
import { getTree } from '../git/refs.js';
import { openRepo, type OpenOptions, type Repo } from '../git/repo.js';
import { digestFile, logHere } from './log.js';
import { gateLogPath, receivedGateLogPath, runArtifactsDir } from '../store/paths.js';

export interface GateVerifyOptions {
  /** Each name's newest verdict on the last iteration must be an observed pass. */
  requireGates?: readonly string[];
  /** Ask `requireGates` of every iteration, not only the last. */
  eachIteration?: boolean;
}

export interface GateVerifyInput extends GateVerifyOptions {
  runId: string;
  results: readonly GateResult[];
  problems: readonly StoreCorruptError[];
  /** The run's snapshots, with this machine's paths. */
  snapshots: readonly Snapshot[];
  /** The run's declared restarts: the iterations they set aside are not asked for gates. */
  restarts?: readonly RunRestart[];
  /** The run's deleted snapshots: a verdict of one of their captures is superseded, not forged. */
  deleted?: readonly DeletedSnapshot[];
  artifactsDir: string;
  git: OpenOptions;
  /** Only this iteration is verified (`verify ID`): only its gate logs are looked at. */
  iteration?: number;
}

export async function verifyGates(input: GateVerifyInput): Promise<VerifyCheck[]> {
  const checks: VerifyCheck[] = input.problems.map((p) => ({
    snapshotId: null,
    runId: input.runId,
    check: 'gate-file',
    ok: false,
    detail: p.message,
  }));
  const repos = new Map<string, Promise<Repo | null>>();
  for (const result of input.results) checks.push(...(await verdictChecks(result, input, repos)));
  checks.push(...(await strayLogChecks(input)));
  checks.push(...requireChecks(input));
  return checks;
}

async function verdictChecks(
  result: GateResult,
  input: GateVerifyInput,
  repos: Map<string, Promise<Repo | null>>,
): Promise<VerifyCheck[]> {
  const snapshot = input.snapshots.find((s) => s.iteration === result.iteration) ?? null;
  const out: VerifyCheck[] = [];
  const who = `gate ${result.name} attempt ${result.attempt} (${result.id})`;
  const add = (check: string, ok: boolean, detail: string) =>
    out.push({
      snapshotId: snapshot?.id ?? null,
      runId: result.runId,
      check,
      ok,
      detail: `${who}: ${detail}`,
    });
  const gone = supersededBy(result, input.snapshots, input.deleted ?? []);
  if (gone !== undefined) {
    add(
      'gate-tree',
      true,
      `judged snapshot ${gone.snapshotId} (after commit ${gone.afterSha}), deleted at ${gone.at}: superseded, it does not count`,
    );
  } else if (snapshot === null || snapshot.afterSha !== result.afterSha) {
    add(
      'gate-tree',
      false,
      snapshot === null
        ? `iteration ${result.iteration} has no snapshot`
        : `judged ${result.afterSha}, but iteration ${result.iteration}'s after commit is ${snapshot.afterSha}`,
    );
  } else {
    if (!repos.has(snapshot.workspace))
      repos.set(
        snapshot.workspace,
        openRepo(snapshot.workspace, input.git).catch(() => null),
      );
    const repo = await (repos.get(snapshot.workspace) as Promise<Repo | null>);
    const tree = repo === null ? null : await getTree(repo, snapshot.afterSha).catch(() => null);
    add(
      'gate-tree',
      tree === result.treeId,
      tree === result.treeId
        ? `judged iteration ${result.iteration}'s after tree`
        : tree === null
          ? `cannot read the tree of ${snapshot.afterSha} in ${snapshot.workspace}`
          : `records tree ${result.treeId}, the after commit has ${tree}`,
    );
  }
  if (result.log !== null) {
    const where = await logHere(result, input.artifactsDir);
    if ('missing' in where)
      add('gate-log', true, `${where.missing}; its sha256 ${result.log.sha256} is recorded`);
    else {
      const actual = await digestFile(where.path).catch(() => null);
      const ok = actual?.sha256 === result.log.sha256 && actual.bytes === result.log.bytes;
      add(
        'gate-log',
        ok,
        ok
          ? `${where.path} sha256 matches`
          : `${where.path} is not the recorded log (sha256 ${actual?.sha256 ?? 'unreadable'})`,
      );
    }
  }
  const contradiction = verdictContradiction(result);
  add(
    'gate-verdict',
    contradiction === null,
    contradiction ?? `${result.verdict} follows from its own facts`,
  );
  const earlier = (n: number) =>
    input.results.some((r) => r.iteration === result.iteration && r.name === result.name && r.attempt === n);
  const inOrder = result.attempt === 1 || earlier(result.attempt - 1);
  const replayOk = result.replayOf === null || (result.replayOf < result.attempt && earlier(result.replayOf));
  add(
    'gate-attempts',
    inOrder && replayOk,
    !inOrder
      ? `attempt ${result.attempt - 1} is missing (verdicts are append-only)`
      : !replayOk
        ? `replays attempt ${result.replayOf}, which is not recorded before it`
        : 'follows the earlier attempts',
  );
  return out;
}

/**
 * A gate log under this artifacts directory that no verdict of the run names fails `gate-attempts`:
 * its verdict file was removed (a removed newest attempt leaves no gap in the numbers). A verdict's
 * log is the attempt's own name, a received one's the name that holds its id (logHere), or the
 * path it recorded (none when it records no log); superseded verdicts stay on disk, so their logs
 * are named too.
 */
async function strayLogChecks(input: GateVerifyInput): Promise<VerifyCheck[]> {
  const named = new Set(
    // A verdict that records no log (`gate record` without --log) names no file.
    input.results.flatMap((r) =>
      r.log === null
        ? []
        : [
            resolve(
              r.receivedAt === undefined
                ? gateLogPath(input.artifactsDir, r.runId, r.iteration, r.name, r.attempt)
                : receivedGateLogPath(input.artifactsDir, r),
            ),
            ...(r.log.path ? [resolve(r.log.path)] : []),
          ],
    ),
  );
  const runDir = runArtifactsDir(input.artifactsDir, input.runId);
  const checks: VerifyCheck[] = [];
  for (const entry of await readdir(runDir).catch(() => [] as string[])) {
    const iteration = /^iteration-(0|[1-9][0-9]*)$/.exec(entry)?.[1];
    if (iteration === undefined || (input.iteration !== undefined && Number(iteration) !== input.iteration))
      continue;
    const dir = join(runDir, entry);
    for (const file of await readdir(dir).catch(() => [] as string[])) {
      if (!/^gate-.+\.log$/.test(file) || named.has(resolve(dir, file))) continue;
      checks.push({
        snapshotId: input.snapshots.find((s) => s.iteration === Number(iteration))?.id ?? null,
        runId: input.runId,
        check: 'gate-attempts',
        ok: false,
        detail: `${join(dir, file)} is a gate log with no verdict beside it: its verdict file was removed (verdicts are append-only; restore it from a backup, or run the gate again and keep both)`,
      });
    }
  }
  return checks;
}

function requireChecks(input: GateVerifyInput): VerifyCheck[] {
  const names = input.requireGates ?? [];
  if (names.length === 0) return [];
  // The run's accepted line, as attest sees it: an iteration a restart set aside needs no gate.
  const iterations = [...input.snapshots]
    .filter((s) => setAsideBy(input.restarts ?? [], s.iteration) === undefined)
    .sort((a, b) => a.iteration - b.iteration);
  const judged = input.eachIteration === true ? iterations : iterations.slice(-1);
  if (judged.length === 0)
    return [
      {
        snapshotId: null,
        runId: input.runId,
        check: 'require-gate',
        ok: false,
        detail: 'the run has no iteration',
      },
    ];
  const checks: VerifyCheck[] = [];
  for (const snapshot of judged) {
    for (const name of names) {
      const newest = sortGateResults(
        countingVerdicts(input.results, [snapshot]).filter((r) => r.name === name),
        input.snapshots,
      ).at(-1);
      const ok = newest !== undefined && newest.observed && newest.verdict === 'pass';
      const where = `gate ${name} on iteration ${snapshot.iteration}`;
      checks.push({
        snapshotId: snapshot.id,
        runId: input.runId,
        check: 'require-gate',
        ok,
        detail:
          newest === undefined
            ? `${where}: no verdict recorded`
            : ok
              ? `${where}: the newest verdict (attempt ${newest.attempt}, ${newest.id}) is an observed pass`
              : newest.verdict === 'pass'
                ? `${where}: the newest verdict (attempt ${newest.attempt}) is a pass given to "gate record", not observed`
                : `${where}: the newest verdict (attempt ${newest.attempt}) is ${newest.verdict}: ${newest.reason}`,
      });
    }
  }
  return checks;
}
