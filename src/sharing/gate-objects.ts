/**
 * A gate verdict as a commit: its ref name (one ref per verdict), the objects it is made of
 * and the checks a verdict commit from elsewhere passes before it is stored (its log's place:
 * receivedGateLogPath, src/store/paths.ts).
 */
import type { GateResult } from '../../types/gate.js';
import { verdictContradiction } from '../../types/gate-rules.js';
import {
  GATE_LOG_FILE,
  GATE_RECORD_FILE,
  GATE_RECORD_FORMAT,
  GateRecordFile,
  type TravellingGate,
} from '../../types/gate-record.js';
import type { RefusedRecord } from '../../types/sharing.js';
import { SafeId } from '../../types/snapshot.js';
import { batchCheck, readBlobs, type CommitRef, type ObjectFormat } from '../git/record-objects.js';
import type { Repo } from '../git/repo.js';
import type { SnapshotStore } from '../store/snapshot-store.js';
import { parseReceivedFile, recordCommit, soleFileTree, type RecordObjects } from './record-objects.js';

/** One ref per verdict: verdicts of one iteration pushed at once from several machines never meet. */
export const GATES_PREFIX = 'refs/agentgate/gates/';
/** Fetched and imported verdicts land here first (under the sharing incoming namespace, swept alike). */
export const GATE_INCOMING_PREFIX = 'refs/agentgate/incoming/gates/';

/** The largest gate.json taken from elsewhere. */
const MAX_GATE_RECORD_BYTES = 16 * 1024 * 1024;

/**
 * The highest attempt number taken from elsewhere: more attempts of one gate on one iteration than
 * anyone makes. Well below what a verdict may hold (MAX_GATE_ATTEMPT), so that a received number
 * leaves local numbering, which comes after it, all the room it needs.
 */
export const MAX_RECEIVED_ATTEMPT = 1_000_000;

export function gateRef(runId: string, id: string, prefix = GATES_PREFIX): string {
  return `${prefix}${runId}/${id}`;
}

/** `<prefix><runId>/<gateId>` back to its parts; null for any other name (untrusted input). */
export function parseGateRef(ref: string, prefix: string): { runId: string; id: string } | null {
  if (!ref.startsWith(prefix)) return null;
  const m = /^([^/]+)\/([^/]+)$/.exec(ref.slice(prefix.length));
  if (!m || !SafeId.safeParse(m[1]).success || !SafeId.safeParse(m[2]).success) return null;
  return { runId: m[1] as string, id: m[2] as string };
}

/** The push refspecs of the verdicts of `runs` (or of every run). */
export function gateRefspecs(runs: readonly string[], all: boolean): string[] {
  return all
    ? [`${GATES_PREFIX}*:${GATES_PREFIX}*`]
    : runs.map((r) => `${GATES_PREFIX}${r}/*:${GATES_PREFIX}${r}/*`);
}

/** The verdict as it travels: no path of this machine. */
export function travellingGate({ receivedAt: _, ...result }: GateResult): TravellingGate {
  return {
    ...result,
    log: result.log === null ? null : { sha256: result.log.sha256, bytes: result.log.bytes },
  };
}

/**
 * The verdict's commit: its tree holds gate.json (and gate.log when `logBlob` is given), its only
 * parent is the after commit the verdict judged, and its dates are the verdict's start, so that the
 * same verdict gives the same commit wherever it is published.
 */
export function gateObjects(
  format: ObjectFormat,
  gate: TravellingGate,
  logBlob: string | null,
): RecordObjects {
  const record: GateRecordFile = { format: GATE_RECORD_FORMAT, gate };
  return recordCommit(format, {
    file: GATE_RECORD_FILE,
    json: Buffer.from(`${JSON.stringify(GateRecordFile.parse(record), null, 2)}\n`),
    also: logBlob === null ? [] : [{ name: GATE_LOG_FILE, blob: logBlob }],
    parent: gate.afterSha,
    at: gate.startedAt,
    message: `[agentgate] Gate ${gate.name} of run ${gate.runId} iteration ${gate.iteration}: ${gate.verdict}\n\nAgentgate-Gate: ${gate.id}\n`,
  });
}

/** A verdict commit from elsewhere that passed every check, with what goes into the home. */
export interface CheckedGate {
  ref: CommitRef;
  gate: TravellingGate;
  logBlob: string | null;
}

/** Every check that needs no write: ref name, commit shape, schema, ids, the after commit and its tree. */
export async function readGateCommits(
  repo: Repo,
  refs: CommitRef[],
  refused: RefusedRecord[],
  snapshots: SnapshotStore,
): Promise<CheckedGate[]> {
  const refuse = (ref: string, reason: string) => refused.push({ ref, reason });
  const shaped = refs.filter((r) => {
    if (r.type === 'commit' && r.parents.length === 1) return true;
    refuse(r.ref, 'not a gate verdict commit (one parent: the after commit)');
    return false;
  });
  const probes = await batchCheck(
    repo,
    shaped.flatMap((r) => [
      `${r.sha}:${GATE_RECORD_FILE}`,
      `${r.sha}:${GATE_LOG_FILE}`,
      `${r.parents[0]}^{tree}`,
      `${r.sha}^{tree}`,
    ]),
  );
  const sized = shaped.flatMap((r, i) => {
    const [json, log, tree, own] = probes.slice(4 * i, 4 * i + 4);
    const also = log?.found ? [{ name: GATE_LOG_FILE, blob: log.id }] : [];
    if (!json?.found || json.type !== 'blob') refuse(r.ref, `has no ${GATE_RECORD_FILE}`);
    else if (json.size > MAX_GATE_RECORD_BYTES)
      refuse(r.ref, `${GATE_RECORD_FILE} is larger than ${MAX_GATE_RECORD_BYTES} bytes`);
    else if (log?.found && log.type !== 'blob') refuse(r.ref, `${GATE_LOG_FILE} is not a file`);
    else if (!own?.found || own.id !== soleFileTree(GATE_RECORD_FILE, json.id, also))
      refuse(
        r.ref,
        `its tree is not ${GATE_RECORD_FILE} (and ${GATE_LOG_FILE}) alone, regular files (nothing may ride along with a verdict)`,
      );
    else if (!tree?.found) refuse(r.ref, 'its after commit is not in the repository');
    else
      return [
        {
          ref: r,
          json: json.id,
          log: log?.found ? { id: log.id, size: log.size } : null,
          tree: tree.id,
        },
      ];
    return [];
  });
  const contents = await readBlobs(repo, [...new Set(sized.map((s) => s.json))]);
  const runSnapshots = new Map<string, Map<number, string>>();
  const checked: CheckedGate[] = [];
  for (const s of sized) {
    const name = parseGateRef(s.ref.ref, GATES_PREFIX) as { runId: string; id: string };
    const parsed = parseReceivedFile(
      contents.get(s.json) as Buffer,
      GateRecordFile,
      GATE_RECORD_FILE,
      'gate verdict',
      (why) => refuse(s.ref.ref, why),
    );
    if (parsed === null) continue;
    const g = parsed.gate;
    const afterOf = await iterationAfter(snapshots, runSnapshots, g.runId, g.iteration);
    const why =
      g.runId !== name.runId || g.id !== name.id
        ? `it describes verdict ${g.id} of run ${g.runId}`
        : s.ref.parents[0] !== g.afterSha
          ? 'its parent is not the after commit it names'
          : s.tree !== g.treeId
            ? `its treeId ${g.treeId} is not the tree of its after commit ${g.afterSha}`
            : afterOf === undefined
              ? `iteration ${g.iteration} of run ${g.runId} is not recorded here`
              : afterOf !== g.afterSha
                ? `iteration ${g.iteration} of run ${g.runId} here has after commit ${afterOf}, not ${g.afterSha}`
                : s.log !== null && (g.log === null || s.log.size !== g.log.bytes)
                  ? `its ${GATE_LOG_FILE} is not the log the verdict describes`
                  : (implausibleAttempt(g) ?? verdictContradiction(g));
    if (why !== null) refuse(s.ref.ref, why);
    else checked.push({ ref: s.ref, gate: g, logBlob: s.log?.id ?? null });
  }
  return checked;
}

/** Why a received verdict's attempt numbers cannot be true, or null. */
function implausibleAttempt(g: TravellingGate): string | null {
  const highest = Math.max(g.attempt, g.replayOf ?? 0);
  return highest > MAX_RECEIVED_ATTEMPT
    ? `its attempt number ${highest} is implausible: no gate is tried more than ${MAX_RECEIVED_ATTEMPT} times on one iteration`
    : null;
}

/** The after commit of a run's iteration in the local home (read once per run), or undefined. */
async function iterationAfter(
  snapshots: SnapshotStore,
  cache: Map<string, Map<number, string>>,
  runId: string,
  iteration: number,
): Promise<string | undefined> {
  if (!cache.has(runId)) {
    const snaps = await snapshots.inspectRun(runId).then(
      (c) => c.snapshots,
      () => [],
    );
    cache.set(runId, new Map(snaps.map((s) => [s.iteration, s.afterSha])));
  }
  return cache.get(runId)?.get(iteration);
}
