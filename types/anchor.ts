import * as z from './zod.js';
import { deferred } from './zod.js';
import { GateName, GateVerdict } from './gate.js';
import { FileStatus, IsoDate, SafeId, Sha } from './snapshot.js';

/**
 * Provenance after merge (CONTRACT.md, "Provenance after merge: `anchor` and `trace`"). An Anchor
 * says which runs and iterations produced the change a commit made to its first parent, computed
 * from content (trees, blobs, patch ids, lines), never from commit messages. It is recorded at
 * `<home>/anchors/<commit>.json`, travels as `refs/agentgate/anchors/<commit>`, and is read back
 * from elsewhere as untrusted input: every string and array is bounded.
 */

/** How a file was linked to a run, strongest first; `none` when no recorded iteration explains it. */
export const ANCHOR_METHODS = ['ancestry', 'tree', 'blob', 'patch-id', 'lines', 'none'] as const;
export const AnchorMethod = deferred(() => z.enum(ANCHOR_METHODS));
export type AnchorMethod = z.infer<typeof AnchorMethod>;

const Count = deferred(() => z.int().check(z.nonnegative()));
const Path = deferred(() => z.string().check(z.minLength(1), z.maxLength(4096)));
const MAX_FILES = 1_000_000;

/** One iteration behind a file's change: `lines` of the change that this iteration wrote last (0 for a file it deleted). */
export const AnchorOrigin = deferred(() =>
  z.object({
    runId: SafeId,
    iteration: Count,
    lines: Count,
  }),
);
export type AnchorOrigin = z.infer<typeof AnchorOrigin>;

export const AnchorFile = deferred(() =>
  z.object({
    path: Path,
    /** The path at the first parent, for a rename or copy; else null. */
    oldPath: z.optional(z.nullable(Path)),
    status: FileStatus,
    /** Lines the commit adds to the file. */
    linesAdded: Count,
    /** Of those, lines that a recorded iteration (1 or later) wrote; lines of a WIP before commit (iteration 0) are not counted. */
    linesFromRuns: Count,
    method: AnchorMethod,
    /** Every run that explains the file (two runs can both), each with the iterations that wrote its lines. */
    origins: z.array(AnchorOrigin).check(z.maxLength(100_000)),
  }),
);
export type AnchorFile = z.infer<typeof AnchorFile>;

/** The iteration whose after tree is exactly the commit's tree. */
export const TreeMatch = deferred(() => z.object({ runId: SafeId, iteration: Count, afterSha: Sha }));
export type TreeMatch = z.infer<typeof TreeMatch>;

export const AnchorRun = deferred(() =>
  z.object({ runId: SafeId, iterations: z.array(Count).check(z.maxLength(100_000)) }),
);
export type AnchorRun = z.infer<typeof AnchorRun>;

export const AnchorCoverage = deferred(() =>
  z.object({
    files: Count,
    filesFromRuns: Count,
    linesAdded: Count,
    linesFromRuns: Count,
  }),
);
export type AnchorCoverage = z.infer<typeof AnchorCoverage>;

export const Anchor = deferred(() =>
  z.object({
    commit: Sha,
    tree: Sha,
    parents: z.array(Sha).check(z.maxLength(1000)),
    createdAt: IsoDate,
    treeMatch: z.nullable(TreeMatch),
    runs: z.array(AnchorRun).check(z.maxLength(100_000)),
    files: z.array(AnchorFile).check(z.maxLength(MAX_FILES)),
    coverage: AnchorCoverage,
    /** The runs the computation was narrowed to (`anchor --run`), so that a recomputation asks the same; null: every run of the repository. */
    onlyRuns: z.optional(z.nullable(z.array(SafeId).check(z.maxLength(10_000)))),
  }),
);
export type Anchor = z.infer<typeof Anchor>;

/** The newest verdict of one gate on an iteration. */
export const TraceGate = deferred(() => z.object({ name: GateName, verdict: GateVerdict }));
export type TraceGate = z.infer<typeof TraceGate>;

export const TraceOrigin = deferred(() =>
  z.object({
    runId: SafeId,
    iteration: Count,
    snapshotId: SafeId,
    afterSha: Sha,
    gates: z.array(TraceGate),
  }),
);
export type TraceOrigin = z.infer<typeof TraceOrigin>;

export const TraceRange = deferred(() =>
  z.object({
    start: z.int().check(z.positive()),
    end: z.int().check(z.positive()),
    /** The commit `git blame` gives for these lines at the traced revision. */
    commit: Sha,
    /** null: no recorded iteration wrote these lines (they predate the run, or a person wrote them). */
    origin: z.nullable(TraceOrigin),
    /** Other runs that explain the same lines (origin names the one whose iteration was recorded last). */
    alsoIn: z.array(SafeId),
  }),
);
export type TraceRange = z.infer<typeof TraceRange>;

export const Trace = deferred(() =>
  z.object({
    path: Path,
    /** The traced revision, as a full commit id. */
    rev: Sha,
    ranges: z.array(TraceRange),
  }),
);
export type Trace = z.infer<typeof Trace>;

/** Where an anchor travels: one ref per anchored commit, `refs/agentgate/anchors/<commit>`. */
export const ANCHOR_REF_PREFIX = 'refs/agentgate/anchors/' as const;

/**
 * Agent Trace v0.1.0 (https://github.com/cursor/agent-trace, README section 6.1), as `trace
 * --format agent-trace` prints it (`application/vnd.agent-trace.record+json`).
 */
export const AGENT_TRACE_VERSION = '0.1.0' as const;
export const AGENT_TRACE_MEDIA_TYPE = 'application/vnd.agent-trace.record+json' as const;

export const AgentTraceContributor = deferred(() =>
  z.object({
    type: z.enum(['human', 'ai', 'mixed', 'unknown']),
    model_id: z.optional(z.string().check(z.maxLength(250))),
  }),
);

export const AgentTraceRange = deferred(() =>
  z.object({
    start_line: z.int().check(z.positive()),
    end_line: z.int().check(z.positive()),
    content_hash: z.optional(z.string()),
    contributor: z.optional(AgentTraceContributor),
  }),
);

export const AgentTraceConversation = deferred(() =>
  z.object({
    url: z.optional(z.string()),
    contributor: z.optional(AgentTraceContributor),
    ranges: z.array(AgentTraceRange),
    related: z.optional(z.array(z.object({ type: z.string(), url: z.string() }))),
  }),
);

export const AgentTraceRecord = deferred(() =>
  z.object({
    version: z.literal(AGENT_TRACE_VERSION),
    id: z.string().check(z.uuid()),
    timestamp: IsoDate,
    vcs: z.object({ type: z.literal('git'), revision: Sha }),
    tool: z.object({ name: z.string(), version: z.string() }),
    files: z.array(z.object({ path: Path, conversations: z.array(AgentTraceConversation) })),
    metadata: z.optional(z.record(z.string(), z.unknown())),
  }),
);
export type AgentTraceRecord = z.infer<typeof AgentTraceRecord>;
