/** The library: run snapshots, checkpoints, the store, configuration, errors and the data contract. */
export {
  Snapshotter,
  type SnapshotterOptions,
  type BeforeOptions,
  type AfterOptions,
  type IterateOptions,
  type IterationSnapshot,
  type CherryPickOptions,
} from './snapshotter/snapshotter.js';
export type { DemoSummary } from './demo/demo.js';
export {
  Checkpoints,
  type CheckpointsOptions,
  type CleanupOptions,
  type GcOptions,
  type SessionRestoreOptions,
  type TrackOptions,
  type TrackOutcome,
} from './checkpoints/index.js';
export {
  runAgentHook,
  logOutcome,
  runClaudeCodeHook,
  runEventHook,
  ADAPTERS,
  type AgentCheckpointKind,
  type AgentEvent,
  type AgentHookOptions,
  type EventHookOptions,
  type EventHookOutcome,
  type HookAdapter,
  type MappedEvent,
} from './hooks/index.js';
export { installHooks, uninstallHooks, type HookInstallOptions } from './hooks/install/install.js';
export { SnapshotStore } from './store/snapshot-store.js';
export { resolveSettings, loadConfig, type Settings } from './store/config.js';
export { resolveHome, layout } from './store/paths.js';
export * from './errors.js';
export * from '../types/index.js';
export { renderReport, writeReport, buildRunReport } from './report/index.js';
export { detectCi, type CiMode } from './ci/github.js';
export {
  Gates,
  type GateRunOptions,
  type GateRecordOptions,
  type GateReplayOptions,
  type GateReplay,
} from './gates/gates.js';
export type { GateVerifyOptions } from './gates/verify.js';
export { parseJunit } from './gates/junit.js';
export type { VerdictInput } from './gates/verdict.js';
export { GateStore, type NewGateResult } from './store/gate-store.js';
// The repository computeAnchor and computeTrace take: opened (and checked) as every command opens it.
export { openCheckedRepo as openRepo } from './provenance/sources.js';
export type { Repo } from './git/repo.js';
export {
  computeAnchor,
  computeAnchors,
  anchorRange,
  computeTrace,
  traceWithWip,
  verifyAnchor,
  writeCommitStatement,
  provenanceSources,
  AnchorStore,
  type AnchorOptions,
  type TraceOptions,
  type ProvenanceSources,
} from './provenance/index.js';
// The helpers above the commands' own calls, each checking its arguments as the entry points do.
export {
  runDemo,
  renderMarkdown,
  renderDotenv,
  formatKeyValues,
  appendKeyValues,
  appendStepSummary,
  errorAnnotations,
  decideVerdict,
  toAgentTrace,
  anchorDifferences,
  sameAnchor,
} from './library-helpers.js';
