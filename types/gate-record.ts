import * as z from './zod.js';
import { deferred } from './zod.js';
import { GateResult } from './gate.js';

/**
 * A gate verdict as it travels (push, fetch, export, import): one commit per verdict under
 * `refs/agentgate/gates/<runId>/<gateId>`, whose only parent is the iteration's after commit and
 * whose tree holds `gate.json` (this schema) and, only with `sharing.includeGateLogs`, `gate.log`
 * (the log text). Untrusted on arrival: parsed strictly (unknown keys refused) before anything is
 * written.
 */
export const GATE_RECORD_FORMAT = 'agentgate-gate/1' as const;
export const GATE_RECORD_FILE = 'gate.json';
export const GATE_LOG_FILE = 'gate.log';

/** The log's digest and size travel always; its path is the recording machine's and never does. */
export const TravellingGateLog = deferred(() =>
  z.strictObject({
    sha256: z.string().check(z.regex(/^[0-9a-f]{64}$/)),
    bytes: z.int().check(z.nonnegative(), z.lte(Number.MAX_SAFE_INTEGER)),
  }),
);
export type TravellingGateLog = z.infer<typeof TravellingGateLog>;

// When this home received a verdict is this home's fact: it never travels, and a remote cannot set it.
const travellingShape = z.omit(GateResult, { receivedAt: true }).shape;

/** GateResult without machine paths: the log keeps only its digest and size. */
export const TravellingGate = deferred(() =>
  z.strictObject({ ...travellingShape, log: z.nullable(TravellingGateLog) }),
);
export type TravellingGate = z.infer<typeof TravellingGate>;

export const GateRecordFile = deferred(() =>
  z.strictObject({
    format: z.literal(GATE_RECORD_FORMAT),
    gate: TravellingGate,
  }),
);
export type GateRecordFile = z.infer<typeof GateRecordFile>;
