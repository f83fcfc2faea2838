export {
  Checkpoints,
  type CheckpointMarkers,
  type CheckpointsOptions,
  type CleanupOptions,
  type GcOptions,
  type SessionRestoreOptions,
  type TrackOptions,
  type TrackOutcome,
} from './checkpoints.js';
export { DEFAULT_PRUNE_AGE } from './retention.js';
