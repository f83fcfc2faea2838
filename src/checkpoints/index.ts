export { Checkpoints, type CheckpointMarkers, type CheckpointsOptions, type CleanupOptions } from './checkpoints.js';
export { DEFAULT_MAX_FILE_SIZE_BYTES } from './skip-rules.js';
export { DEFAULT_KEEP, DEFAULT_PRUNE_AGE } from './retention.js';
