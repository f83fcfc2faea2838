/**
 * Provenance after merge (CONTRACT.md, "Provenance after merge: `anchor` and `trace`"): which runs
 * and iterations produced a commit's change, and each line of a file, computed from content.
 * The API the CLI, travel (push/fetch/export/import of anchors), the Action and the report build on.
 */
export { computeAnchor, computeAnchors, anchorRange, type AnchorOptions } from './anchor.js';
export { computeTrace, traceWithWip, type TraceOptions } from './trace.js';
export { verifyAnchor } from './verify-anchor.js';
export { writeCommitStatement } from './attest-commit.js';
export { provenanceSources, type ProvenanceSources } from './sources.js';
export { AnchorStore } from './anchor-store.js';
export { newestVerdicts } from './gates.js';
